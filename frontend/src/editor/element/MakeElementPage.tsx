/**
 * `/make-element`: the make-element editor. The server has no element calls (no element save or
 * list), so an element is saved the smallest honest way: drawn in the browser as a transparent PNG
 * (`drawElement`) and uploaded to the user's material library as a picture (`POST
 * /upload/material`), named after its kind; the editor's material panel then lists it under 我的
 * and places it as a picture layer, which the renderer draws pixel for pixel.
 */
import { App, Button, Card, Checkbox, Input, InputNumber, Segmented, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUploadMaterial } from '@/api/material';
import { useAppSelector } from '@/app/hooks';
import { DEFAULT_FAMILY, defaultFont, useFontFace, useFonts } from '@/editor/fonts/fonts';
import { ColorField } from '@/editor/page/ColorField';
import { Field } from '@/editor/page/fields';
import { defaultSpec, drawElement, ELEMENT_RESOLUTION, elementSize, fontOf, linesOf, type ElementKind, type ElementSpec } from './drawElement';


/** The element as saved: the uploaded material (spec §3 elementTask: materialId, name, outputPicPath, type). */
interface SavedElement {
  materialId: string;
  name: string;
  type: ElementKind;
}

/** The element's size with its text measured in `family` (a rough measure where the browser has no canvas). */
function measure(spec: ElementSpec, family: string) {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return elementSize(spec, [spec.fontSize * spec.text.length]);
  ctx.font = fontOf(spec, family);
  return elementSize(
    spec,
    linesOf(spec.text).map((l) => ctx.measureText(l).width),
  );
}

export default function MakeElementPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const [spec, setSpec] = useState<ElementSpec>(() => defaultSpec('artWord', t('element.sampleArtWord')));
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<SavedElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const upload = useUploadMaterial();
  const fonts = useFonts(userId);
  const font = defaultFont(fonts.data ?? [], spec.bold, false);
  const face = useFontFace(font?.id, DEFAULT_FAMILY, spec.bold, false);
  const family = `"${DEFAULT_FAMILY}", sans-serif`;
  const set = (changes: Partial<ElementSpec>) => setSpec((s) => ({ ...s, ...changes }));

  // Measured every render: the face's arrival changes the measures, and a measure is cheap.
  const size = measure(spec, family);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    el.width = size.w * ELEMENT_RESOLUTION;
    el.height = size.h * ELEMENT_RESOLUTION;
    drawElement(ctx, spec, family, size);
  }, [spec, family, size, face]);

  const switchKind = (kind: ElementKind) => setSpec(defaultSpec(kind, t(kind === 'artWord' ? 'element.sampleArtWord' : 'element.sampleButton')));

  const onSave = async () => {
    const el = canvas.current;
    if (!el || spec.text.trim() === '') return;
    const blob = await new Promise<Blob | null>((resolve) => el.toBlob(resolve, 'image/png'));
    if (!blob) {
      void message.error(t('element.saveFailed'));
      return;
    }
    const title = `${t(`element.kind.${spec.kind}`)} · ${name.trim() || spec.text.trim().slice(0, 16)}`;
    try {
      const materialId = await upload.mutateAsync({ file: new File([blob], `${title}.png`, { type: 'image/png' }), target: { userId } });
      setSaved({ materialId, name: title, type: spec.kind });
      void message.success(t('element.saved'));
    } catch {
      // The API client has shown the server's reason.
    }
  };

  return (
    <div data-testid="make-element" style={{ display: 'flex', gap: 16, padding: 16, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <Card size="small" title={t('element.title')} style={{ width: 360, flex: 'none' }}>
        <Field labelWidth={96} label={t('element.kindLabel')}>
          <Segmented<ElementKind>
            size="small"
            value={spec.kind}
            onChange={switchKind}
            options={[
              { value: 'artWord', label: t('element.kind.artWord') },
              { value: 'button', label: t('element.kind.button') },
            ]}
            data-testid="element-kind"
          />
        </Field>
        <Field labelWidth={96} label={t('element.text')}>
          <Input.TextArea aria-label={t('element.text')} autoSize={{ minRows: 1, maxRows: 3 }} maxLength={40} value={spec.text} onChange={(e) => set({ text: e.target.value })} data-testid="element-text" />
        </Field>
        <Field labelWidth={96} label={t('element.fontSize')}>
          <InputNumber size="small" min={12} max={200} value={spec.fontSize} onChange={(v) => typeof v === 'number' && set({ fontSize: v })} style={{ width: '100%' }} />
        </Field>
        <Checkbox checked={spec.bold} onChange={(e) => set({ bold: e.target.checked })} style={{ marginBottom: 8 }}>
          {t('editor.props.bold')}
        </Checkbox>
        <Field labelWidth={96} label={t('editor.props.gradientFrom')}>
          <ColorField value={spec.color1} onChange={(color1) => set({ color1 })} />
        </Field>
        <Field labelWidth={96} label={t('editor.props.gradientTo')}>
          <ColorField value={spec.color2} onChange={(color2) => set({ color2 })} />
        </Field>
        <Field labelWidth={96} label={t('element.stroke')}>
          <ColorField value={spec.strokeColor} clearable onChange={(strokeColor) => set({ strokeColor, strokeWidth: strokeColor && spec.strokeWidth === 0 ? 2 : spec.strokeWidth })} />
        </Field>
        {spec.strokeColor !== '' && (
          <Field labelWidth={96} label={t('element.strokeWidth')}>
            <InputNumber size="small" min={0} max={20} step={0.5} value={spec.strokeWidth} onChange={(v) => typeof v === 'number' && set({ strokeWidth: v })} style={{ width: '100%' }} />
          </Field>
        )}
        <Field labelWidth={96} label={t('editor.props.shadowColor')}>
          <ColorField value={spec.shadowColor} alpha clearable onChange={(shadowColor) => set({ shadowColor })} />
        </Field>
        {spec.shadowColor !== '' && (
          <Field labelWidth={96} label={t('editor.props.shadowBlur')}>
            <InputNumber size="small" min={0} max={40} value={spec.shadowBlur} onChange={(v) => typeof v === 'number' && set({ shadowBlur: v })} style={{ width: '100%' }} />
          </Field>
        )}
        {spec.kind === 'button' && (
          <>
            <Field labelWidth={96} label={t('element.plate1')}>
              <ColorField value={spec.plate1} onChange={(plate1) => set({ plate1 })} />
            </Field>
            <Field labelWidth={96} label={t('element.plate2')}>
              <ColorField value={spec.plate2} onChange={(plate2) => set({ plate2 })} />
            </Field>
            <Field labelWidth={96} label={t('element.plateBorder')}>
              <ColorField value={spec.plateBorder} clearable onChange={(plateBorder) => set({ plateBorder })} />
            </Field>
            <Field labelWidth={96} label={t('editor.props.radius')}>
              <InputNumber size="small" min={0} max={200} value={spec.radius} onChange={(v) => typeof v === 'number' && set({ radius: v })} style={{ width: '100%' }} />
            </Field>
          </>
        )}
      </Card>
      <Space direction="vertical" size={12} style={{ flex: 1, minWidth: 320 }}>
        <div
          style={{
            padding: 24,
            borderRadius: 8,
            // A checkerboard shows where the picture is transparent.
            background: 'repeating-conic-gradient(#e8e8e8 0% 25%, #ffffff 0% 50%) 50% / 20px 20px',
            display: 'flex',
            justifyContent: 'center',
          }}
        >
          <canvas ref={canvas} data-testid="element-canvas" data-face={face} style={{ width: size.w, height: size.h, maxWidth: '100%' }} />
        </div>
        <Typography.Text type="secondary">{t('element.size', { w: size.w, h: size.h })}</Typography.Text>
        <Space wrap>
          <Input placeholder={t('element.namePlaceholder')} value={name} onChange={(e) => setName(e.target.value)} maxLength={30} style={{ width: 220 }} data-testid="element-name" />
          <Button type="primary" onClick={() => void onSave()} loading={upload.isPending} disabled={spec.text.trim() === '' || userId === ''} data-testid="element-save">
            {t('element.save')}
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ maxWidth: 560 }}>
          {t('element.how')}
        </Typography.Paragraph>
        {saved && (
          <Typography.Text data-testid="element-saved">
            {t('element.savedAs', { name: saved.name, id: saved.materialId })} <Link to="/diy">{t('element.openEditor')}</Link>
          </Typography.Text>
        )}
      </Space>
    </div>
  );
}
