/** The editor's toolbar: add text and shapes, undo/redo, stacking, groups, delete, aspect ratio and zoom. */
import { Button, Dropdown, Select, Space, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEECH_RECOGNITION, useAbilities } from '@/api/ai';
import { SHAPE_KINDS, useAddShape } from '@/editor/materials/shapes';
import { PICKABLE_RATIOS, TEXT_SIZES, type TextSize } from '@/editor/state/defaults';
import { editorActions as a, ZOOM_MAX, ZOOM_MIN } from '@/editor/state/editorSlice';
import { selectSelectedLayers } from '@/editor/state/selectors';
import { SmartSubtitles } from '@/editor/subtitles/SmartSubtitles';
import { useSubtitleImport } from '@/editor/subtitles/useSubtitleImport';
import { ExactFrame } from './ExactFrame';
import { useEditorDispatch, useEditorSelector } from './useEditor';
import { useTextFit } from './useTextFit';

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2];

/** The add-text menu's key of the SRT import. */
const SRT_KEY = 'srt';
/** The add-text menu's key of smart subtitles (speech recognition). */
const ASR_KEY = 'asr';

/** `extra` comes last in the bar (the in-call preview's toggle). */
export function Toolbar({ scale, extra }: { scale: number; extra?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const dispatch = useEditorDispatch();
  const subtitles = useSubtitleImport();
  const asr = useAbilities().data?.find((x) => x.key === SPEECH_RECOGNITION);
  const [smartOpen, setSmartOpen] = useState(false);
  const addShape = useAddShape();
  const { addText } = useTextFit();
  const selection = useEditorSelector((s) => s.selection);
  const selected = useEditorSelector(selectSelectedLayers);
  const canUndo = useEditorSelector((s) => s.past.length > 0);
  const canRedo = useEditorSelector((s) => s.future.length > 0);
  const ratio = useEditorSelector((s) => s.doc.resolutionRatio.name);
  const fit = useEditorSelector((s) => s.view.fit);
  const group = selected.length === 1 && selected[0]?.type === 'group' ? selected[0] : undefined;
  const none = selection.length === 0;
  const z = (move: 'forward' | 'backward' | 'front' | 'back') => dispatch(a.reorderZ({ ids: selection, move }));

  return (
    <Space wrap size={4} data-testid="editor-toolbar" style={{ padding: '6px 8px', borderBottom: '1px solid #f0f0f0' }}>
      <Dropdown
        menu={{
          items: [
            ...(Object.keys(TEXT_SIZES) as TextSize[]).map((size) => ({ key: size, label: t(`editor.text.${size}`) })),
            { type: 'divider' as const },
            { key: SRT_KEY, label: t('editor.subtitles.import') },
            // Offered when GET /ai/abilities lists speech recognition available; otherwise it says why.
            asr?.available
              ? { key: ASR_KEY, label: t('editor.subtitles.smart') }
              : { key: ASR_KEY, label: <Tooltip title={asr?.reason}>{t('editor.subtitles.asrUnavailable')}</Tooltip>, disabled: true },
          ],
          onClick: ({ key }) =>
            key === SRT_KEY ? subtitles.pick() : key === ASR_KEY ? setSmartOpen(true) : addText({ kind: 'text', size: key as TextSize, content: t('editor.defaultText') }),
        }}
      >
        <Button data-testid="add-text">{t('editor.addText')}</Button>
      </Dropdown>
      {subtitles.input}
      <SmartSubtitles open={smartOpen} onClose={() => setSmartOpen(false)} />
      <Dropdown
        menu={{
          items: SHAPE_KINDS.map((shape) => ({ key: shape.key, label: zh ? shape.nameZh : shape.nameEn })),
          onClick: ({ key }) => void addShape(key),
        }}
      >
        <Button data-testid="add-shape">{t('editor.addShape')}</Button>
      </Dropdown>
      <Tooltip title="Ctrl+Z">
        <Button disabled={!canUndo} onClick={() => dispatch(a.undo())} data-testid="undo">
          {t('editor.undo')}
        </Button>
      </Tooltip>
      <Tooltip title="Ctrl+Shift+Z / Ctrl+Y">
        <Button disabled={!canRedo} onClick={() => dispatch(a.redo())} data-testid="redo">
          {t('editor.redo')}
        </Button>
      </Tooltip>
      <Dropdown
        disabled={none}
        menu={{
          items: (['front', 'forward', 'backward', 'back'] as const).map((m) => ({ key: m, label: t(`editor.z.${m}`) })),
          onClick: ({ key }) => z(key as 'forward' | 'backward' | 'front' | 'back'),
        }}
      >
        <Button disabled={none}>{t('editor.arrange')}</Button>
      </Dropdown>
      <Tooltip title="Ctrl+G">
        <Button disabled={selection.length < 2} onClick={() => dispatch(a.group({ ids: selection }))} data-testid="group">
          {t('editor.group')}
        </Button>
      </Tooltip>
      <Tooltip title="Ctrl+Shift+G">
        <Button disabled={!group} onClick={() => group && dispatch(a.ungroup({ id: group.id }))} data-testid="ungroup">
          {t('editor.ungroup')}
        </Button>
      </Tooltip>
      <Tooltip title="Delete">
        <Button danger disabled={none} onClick={() => dispatch(a.deleteLayers({ ids: selection }))} data-testid="delete-layers">
          {t('editor.delete')}
        </Button>
      </Tooltip>
      <Select
        aria-label={t('editor.aspect')}
        value={ratio}
        style={{ width: 92 }}
        options={PICKABLE_RATIOS.map((name) => ({ value: name, label: name }))}
        onChange={(name) => dispatch(a.setAspect(name))}
        data-testid="aspect"
      />
      <Select
        aria-label={t('editor.zoom')}
        value={fit ? 'fit' : String(scale)}
        style={{ width: 150 }}
        options={[{ value: 'fit', label: t('editor.fit', { percent: Math.round(scale * 100) }) }, ...ZOOM_STEPS.filter((z) => z >= ZOOM_MIN && z <= ZOOM_MAX).map((z) => ({ value: String(z), label: `${Math.round(z * 100)} %` }))]}
        onChange={(v) => dispatch(v === 'fit' ? a.fitView() : a.setZoom(Number(v)))}
        data-testid="zoom"
      />
      <ExactFrame />
      {extra}
    </Space>
  );
}
