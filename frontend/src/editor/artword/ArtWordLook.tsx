/**
 * Property sections of the art word (fill colour or gradient, two borders, shadow, blur, alpha:
 * the fields the renderer reads) and of the special effect (its name; the renderer draws it as a
 * picture at its defaults, so it has no look of its own to set).
 */
import { InputNumber, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import type { Layer } from '@/editor/model/gen/Layer';
import { ColorField } from '@/editor/page/ColorField';
import type { LayerPatch } from '@/editor/state/editorSlice';
import { DEFAULT_BORDER_WIDTH, isColour, readBorder } from './artWords';
import { FillKindField, Field as Row, SliderField } from '@/editor/page/fields';

type Set = (changes: LayerPatch) => void;

/** A border's colour and width; clearing the colour removes the border. */
function Border({ label, value, onChange }: { label: string; value: unknown; onChange: (v: { color: string; width: number } | '') => void }) {
  const { t } = useTranslation();
  const b = readBorder(value);
  return (
    <>
      <Row label={label}>
        <ColorField aria-label={label} value={b?.color ?? ''} clearable onChange={(color) => onChange(color ? { color, width: b?.width ?? DEFAULT_BORDER_WIDTH } : '')} />
      </Row>
      {b && (
        <Row label={t('artWord.borderWidth')}>
          <InputNumber size="small" aria-label={`${label} ${t('artWord.borderWidth')}`} min={0.5} max={40} step={0.5} value={b.width} style={{ width: '100%' }} onChange={(v) => typeof v === 'number' && onChange({ color: b.color, width: v })} />
        </Row>
      )}
    </>
  );
}

function ArtWordLook({ layer, set }: { layer: ArtWordLayer; set: Set }) {
  const { t } = useTranslation();
  const gradient = isColour(layer.color1) && isColour(layer.color2);
  return (
    <div data-testid="artword-look">
      <FillKindField label={t('artWord.fill')} gradient={gradient} onChange={(g) => set(g ? { color1: layer.fillColor || '#ffffff', color2: isColour(layer.color2) ? layer.color2 : '#ffd000' } : { color1: '', color2: '', fillColor: layer.fillColor || layer.color2 })} />
      {gradient ? (
        <>
          <Row label={t('editor.props.gradientFrom')}>
            <ColorField aria-label={t('editor.props.gradientFrom')} value={layer.color1} onChange={(color1) => set({ color1 })} />
          </Row>
          <Row label={t('editor.props.gradientTo')}>
            <ColorField aria-label={t('editor.props.gradientTo')} value={layer.color2} onChange={(color2) => set({ color2 })} />
          </Row>
        </>
      ) : (
        <Row label={t('editor.props.fill')}>
          <ColorField aria-label={t('editor.props.fill')} value={layer.fillColor} onChange={(fillColor) => set({ fillColor })} />
        </Row>
      )}
      <Border label={t('artWord.border1')} value={layer.border1} onChange={(border1) => set({ border1 })} />
      <Border label={t('artWord.border2')} value={layer.border2} onChange={(border2) => set({ border2 })} />
      <Row label={t('editor.props.shadowColor')}>
        <ColorField aria-label={t('editor.props.shadowColor')} value={layer.shadowColor} clearable onChange={(shadowColor) => set({ shadowColor })} />
      </Row>
      <SliderField label={t('editor.props.blur')} value={layer.blur} min={0} max={30} onChange={(blur) => set({ blur })} />
      <SliderField label={t('artWord.alpha')} value={layer.alpha} min={0} max={255} onChange={(alpha) => set({ alpha })} />
    </div>
  );
}

/** The art word's or special effect's own section of the property panel, or null for other kinds. */
export function artWordSection(layer: Layer, set: Set, t: TFunction) {
  if (layer.type === 'artWord') return { key: 'artWord', label: t('artWord.title'), children: <ArtWordLook layer={layer} set={set} /> };
  if (layer.type === 'specialEffects') {
    return {
      key: 'effect',
      label: t('artWord.effect'),
      children: (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }} data-testid="effect-look">
          {t('artWord.effectHint', { name: layer.name || '—' })}
        </Typography.Paragraph>
      ),
    };
  }
  return null;
}
