/**
 * The transition and filter pickers: a grid of the catalogue's entries, each with the server's
 * preview still (`GET /diyvrbt/catalogue/preview/{transition|filter}/{key}`, public PNGs drawn by
 * the render engine: a transition halfway between two sample scenes, a sample picture filtered).
 * An image that does not load leaves the entry's name alone.
 */
import { Button, InputNumber, Popover, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '@/api/client';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { findFilter, findTransition } from '@/editor/model/catalogue';
import type { Scene } from '@/editor/model/gen/Scene';
import { DEFAULT_EFFECT_TIME } from '@/editor/state/defaults';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch } from '@/editor/page/useEditor';

/** What a picker offers. */
export type PreviewKind = 'transition' | 'filter';

/** Returns the address of an entry's preview still. */
export function previewUrl(kind: PreviewKind, key: string): string {
  return `${API_BASE}/catalogue/preview/${kind}/${encodeURIComponent(key)}`;
}

/** Thumbnail size, pixels (the previews are about 160×90). */
const THUMB_W = 80;
const THUMB_H = 45;

/** A preview still, or nothing once it fails to load. */
function Thumb({ kind, entry }: { kind: PreviewKind; entry: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img src={previewUrl(kind, entry)} alt="" width={THUMB_W} height={THUMB_H} loading="lazy" data-testid="picker-thumb" onError={() => setFailed(true)} style={{ display: 'block', width: THUMB_W, height: THUMB_H, objectFit: 'cover', borderRadius: 3, background: '#f0f0f0' }} />;
}

interface Option {
  key: string;
  label: string;
}

function Grid({ kind, options, value, none, onPick }: { kind: PreviewKind; options: Option[]; value: string; none: string; onPick: (key: string) => void }) {
  const cell = (key: string, label: string, thumb: boolean) => (
    <button
      key={key || 'none'}
      type="button"
      data-testid={`${kind}-option-${key || 'none'}`}
      onClick={() => onPick(key)}
      style={{ width: THUMB_W + 8, padding: 4, border: `1px solid ${key === value ? '#1677ff' : '#f0f0f0'}`, borderRadius: 4, background: key === value ? '#e6f4ff' : '#fff', cursor: 'pointer', fontSize: 12, lineHeight: '16px' }}
    >
      {thumb && <Thumb kind={kind} entry={key} />}
      <div style={{ marginTop: thumb ? 2 : 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</div>
    </button>
  );
  return (
    <div data-testid={`${kind}-grid`} style={{ display: 'grid', gridTemplateColumns: `repeat(4, ${THUMB_W + 8}px)`, gap: 6, maxHeight: 320, overflowY: 'auto' }}>
      {cell('', none, false)}
      {options.map((o) => cell(o.key, o.label, true))}
    </div>
  );
}

/** A picker button: the chosen entry's still and name, opening the grid. */
function Picker({ kind, options, value, none, onPick }: { kind: PreviewKind; options: Option[]; value: string; none: string; onPick: (key: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const chosen = options.find((o) => o.key === value);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="leftTop"
      content={
        <Grid
          kind={kind}
          options={options}
          value={value}
          none={none}
          onPick={(key) => {
            onPick(key);
            setOpen(false);
          }}
        />
      }
    >
      <Button size="small" data-testid={`${kind}-picker`} title={t('editor.pickers.choose')} style={{ height: 'auto', padding: 4, display: 'flex', alignItems: 'center', gap: 6, maxWidth: '100%' }}>
        {chosen && <Thumb key={chosen.key} kind={kind} entry={chosen.key} />}
        <span data-testid={`${kind}-picker-name`} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {chosen?.label ?? none}
        </span>
      </Button>
    </Popover>
  );
}

/** The scene's transition into the next scene and its length. */
export function TransitionField({ scene, last }: { scene: Scene; last: boolean }) {
  const { t, i18n } = useTranslation();
  const dispatch = useEditorDispatch();
  const zh = i18n.language.startsWith('zh');
  const id = scene.frontendId ?? 0;
  if (last) return <Typography.Text type="secondary">{t('editor.pickers.transitionLast')}</Typography.Text>;
  const options = CATALOGUE.transitions.map((x) => ({ key: x.key, label: zh ? x.nameZh : x.nameEn }));
  const value = findTransition(scene.effect)?.key ?? '';
  return (
    <Space direction="vertical" size={6} style={{ width: '100%' }}>
      <Picker kind="transition" options={options} value={value} none={t('editor.pickers.transitionNone')} onPick={(effect) => dispatch(a.setTransition({ id, effect }))} />
      {value !== '' && (
        <Space size={4}>
          <Typography.Text type="secondary">{t('editor.pickers.transitionTime')}</Typography.Text>
          <InputNumber
            size="small"
            aria-label={t('editor.pickers.transitionTime')}
            data-testid="transition-time"
            min={0.1}
            max={scene.timeLength}
            step={0.1}
            value={scene.effectTime || DEFAULT_EFFECT_TIME}
            style={{ width: 72 }}
            onChange={(v) => typeof v === 'number' && dispatch(a.setTransition({ id, effect: value, effectTime: v }))}
          />
        </Space>
      )}
    </Space>
  );
}

/** The scene's filter (`visualFilter`). */
export function SceneFilterField({ scene }: { scene: Scene }) {
  const { t, i18n } = useTranslation();
  const dispatch = useEditorDispatch();
  const zh = i18n.language.startsWith('zh');
  const options = CATALOGUE.filters.map((f) => ({ key: f.key, label: zh ? f.nameZh : f.nameEn }));
  const value = findFilter(scene.visualFilter)?.key ?? '';
  return <Picker kind="filter" options={options} value={value} none={t('editor.pickers.filterNone')} onPick={(filter) => dispatch(a.setSceneFilter({ id: scene.frontendId ?? 0, filter }))} />;
}
