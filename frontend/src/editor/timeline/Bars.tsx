/**
 * What lies on the time axis: the scene blocks (click to show a scene, drag the end to set its
 * length), a layer's bar (drag to move, drag an end to trim; a video shows its filmstrip) and a
 * music item's bar with its waveform. Drags go through @dnd-kit (`useDraggable`); the timeline's
 * DndContext turns their travel into editor commands, so a bar is drawn from the document only.
 */
import { useDraggable } from '@dnd-kit/core';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMaterialInfo } from '@/api/material';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Scene } from '@/editor/model/gen/Scene';
import { findTransition } from '@/editor/model/catalogue';
import { fittedDurations } from '@/editor/model/animation';
import { cutRange } from '@/editor/playback/useMediaSync';
import type { BarEdit } from './timelineMath';
import { useLibraryName } from '@/components/material/libraryName';
import { usePeaks, Waveform } from '@/components/material/Waveform';

/** What a drag on the axis edits (the draggable's data). */
export type DragTarget = { kind: 'bar'; id: Id; edit: BarEdit } | { kind: 'scene'; id: Id };

/** Width of a trim handle, pixels. */
const HANDLE_PX = 6;

/** A trim handle; `cut`: it cuts the clip (cut mode on a video bar), drawn in the cut colour. */
function Handle({ id, target, side, disabled, cut = false }: { id: string; target: DragTarget; side: 'left' | 'right'; disabled: boolean; cut?: boolean }) {
  const drag = useDraggable({ id, data: target, disabled });
  return (
    <div
      ref={drag.setNodeRef}
      {...drag.listeners}
      data-testid={id}
      data-cut={cut || undefined}
      style={{ position: 'absolute', top: 0, bottom: 0, [side]: 0, width: HANDLE_PX, cursor: disabled ? 'default' : 'ew-resize', background: disabled ? undefined : cut ? '#fa8c16' : 'rgba(255,255,255,0.55)', touchAction: 'none', zIndex: 1 }}
    />
  );
}

/**
 * A video bar's background: its material's filmstrip (10 frames at the middles of ten equal parts of
 * the clip, made at upload) laid on the axis at the clip's own time scale from the cut's in point,
 * so each frame shows where it plays (and stays in place when cut mode trims the bar); repeated
 * at its own aspect when the clip's duration is unknown.
 */
function useFilmstrip(layer: Layer, pps: number): string | undefined {
  const id = layer.type === 'video' && layer.materialId !== undefined && layer.materialId !== '' ? String(layer.materialId) : null;
  const info = useMaterialInfo(id).data;
  if (!info?.filmstripUrl || layer.type !== 'video') return undefined;
  const duration = info.duration ?? 0;
  if (!(duration > 0)) return `#434343 url("${info.filmstripUrl}") left center / auto 100% repeat-x`;
  const [start] = cutRange(layer);
  return `#434343 url("${info.filmstripUrl}") ${(-start * pps).toFixed(1)}px center / ${(duration * pps).toFixed(1)}px 100% no-repeat`;
}

export interface LayerBarProps {
  layer: Layer;
  label: string;
  /** Left and width on the axis, pixels. */
  left: number;
  width: number;
  /** Pixels per second (the animation shading). */
  pps: number;
  selected: boolean;
  onSelect: (id: Id, toggle: boolean) => void;
  /** The timeline's cut mode: a video bar's handles cut the clip. */
  cutMode: boolean;
  /** Seconds at the bar's end past its clip's out point, where the last frame holds (0: none). */
  held?: number;
}

/** A layer's bar: its in- and out-animations shaded at its ends. */
export function LayerBar({ layer, label, left, width, pps, selected, onSelect, cutMode, held = 0 }: LayerBarProps) {
  const { t } = useTranslation();
  const key = String(layer.id);
  const locked = layer.isLock;
  const body = useDraggable({ id: `bar-${key}`, data: { kind: 'bar', id: layer.id, edit: 'move' } satisfies DragTarget, disabled: locked });
  const filmstrip = useFilmstrip(layer, pps);
  const [inD, outD] = fittedDurations(width / pps, layer.motionIn ? layer.inTime : 0, layer.motionOut ? layer.outTime : 0);
  const style: CSSProperties = {
    position: 'absolute',
    top: 3,
    bottom: 3,
    left,
    width: Math.max(width, 2),
    borderRadius: 4,
    overflow: 'hidden',
    background: filmstrip ?? barColour(layer),
    outline: selected ? '2px solid #1677ff' : undefined,
    outlineOffset: 0,
    opacity: locked ? 0.6 : 1,
  };
  return (
    <div style={style} data-testid={`layer-bar-${key}`} data-start={layer.startTime} data-end={layer.endTime} data-selected={selected}>
      {inD > 0 && <div style={{ position: 'absolute', top: 0, bottom: 0, left: 0, width: inD * pps, background: 'linear-gradient(to right, rgba(0,0,0,0.35), rgba(0,0,0,0))' }} />}
      {outD > 0 && <div style={{ position: 'absolute', top: 0, bottom: 0, right: 0, width: outD * pps, background: 'linear-gradient(to left, rgba(0,0,0,0.35), rgba(0,0,0,0))' }} />}
      {held > 0 && (
        <div
          data-testid={`held-${key}`}
          title={t('editor.timeline.held', { s: held })}
          style={{ position: 'absolute', top: 0, bottom: 0, right: 0, width: Math.min(held * pps, width), background: 'repeating-linear-gradient(135deg, rgba(0,0,0,0.55) 0 4px, rgba(255,255,255,0.18) 4px 8px)' }}
        />
      )}
      <div
        ref={body.setNodeRef}
        {...body.listeners}
        data-testid={`bar-${key}`}
        onClick={(e) => onSelect(layer.id, e.shiftKey || e.ctrlKey || e.metaKey)}
        style={{ position: 'absolute', inset: 0, cursor: locked ? 'default' : 'grab', touchAction: 'none', color: '#fff', fontSize: 12, lineHeight: '22px', padding: `0 ${HANDLE_PX + 2}px`, whiteSpace: 'nowrap', textOverflow: 'ellipsis', overflow: 'hidden', textShadow: '0 0 2px #000' }}
      >
        {label}
      </div>
      <Handle id={`trim-start-${key}`} target={{ kind: 'bar', id: layer.id, edit: 'start' }} side="left" disabled={locked} cut={cutMode && layer.type === 'video'} />
      <Handle id={`trim-end-${key}`} target={{ kind: 'bar', id: layer.id, edit: 'end' }} side="right" disabled={locked} cut={cutMode && layer.type === 'video'} />
    </div>
  );
}

function barColour(layer: Layer): string {
  switch (layer.type) {
    case 'word':
    case 'dynamicWord':
    case 'artWord':
      return '#597ef7';
    case 'picture':
    case 'gif':
      return '#36cfc9';
    case 'video':
      return '#434343';
    case 'shape':
      return '#ff9c6e';
    case 'group':
      return '#9254de';
    default:
      return '#8c8c8c';
  }
}

export interface SceneBlockProps {
  scene: Scene;
  index: number;
  left: number;
  width: number;
  active: boolean;
  onSelect: () => void;
  /** The transition into the next scene is drawn at the block's end. */
  last: boolean;
}

/** A scene on the axis: its number, the transition mark at its end, and its length handle. */
export function SceneBlock({ scene, index, left, width, active, onSelect, last }: SceneBlockProps) {
  const { t, i18n } = useTranslation();
  const id: Id = scene.frontendId ?? index;
  const transition = last ? undefined : findTransition(scene.effect);
  const zh = i18n.language.startsWith('zh');
  return (
    <div
      data-testid={`scene-block-${index}`}
      data-scene-id={String(id)}
      data-active={active}
      onClick={onSelect}
      style={{ position: 'absolute', top: 0, bottom: 2, left, width, boxSizing: 'border-box', borderRadius: 3, border: `1px solid ${active ? '#1677ff' : '#d9d9d9'}`, background: active ? '#e6f4ff' : '#fff', fontSize: 12, lineHeight: '24px', padding: '0 8px', cursor: 'pointer', overflow: 'hidden', whiteSpace: 'nowrap' }}
    >
      {t('editor.scenes.name', { n: index + 1 })} · {scene.timeLength.toFixed(1)}s
      {transition && (
        <span title={zh ? transition.nameZh : transition.nameEn} style={{ position: 'absolute', right: 10, top: 0, color: '#1677ff' }}>
          ⇄
        </span>
      )}
      <Handle id={`scene-length-${index}`} target={{ kind: 'scene', id }} side="right" disabled={false} />
    </div>
  );
}

/** Peaks (0..1) of a music material's waveform, made at upload. */
function useWaveform(id: Id | undefined): number[] | undefined {
  const info = useMaterialInfo(id === undefined || id === '' ? null : String(id));
  return usePeaks(info.data?.waveformUrl);
}

/** A music item of the document on the axis, with its waveform when the material has one. */
export function MusicBar({ item, left, width, selected, onSelect, children }: { item: AudioItem; left: number; width: number; selected?: boolean; onSelect?: () => void; children?: ReactNode }) {
  const peaks = useWaveform(item.id);
  const named = useLibraryName();
  // A voice-over is told from music by its colour; the selected item is outlined as a selected layer is.
  const background = item.type === 'voice' ? '#4096ff' : '#73d13d';
  return (
    <div
      data-testid="music-bar"
      data-type={item.type}
      title={named(item.name)}
      onClick={onSelect}
      aria-selected={selected}
      style={{ position: 'absolute', top: 3, bottom: 3, left, width: Math.max(width, 2), borderRadius: 4, overflow: 'hidden', background, cursor: onSelect ? 'pointer' : undefined, outline: selected ? '2px solid #fa8c16' : undefined }}
    >
      {peaks && <Waveform peaks={peaks} width={Math.max(width, 2)} height={22} />}
      <span style={{ position: 'relative', color: '#fff', fontSize: 12, lineHeight: '22px', padding: '0 6px', textShadow: '0 0 2px #000' }}>{named(item.name)}</span>
      {children}
    </div>
  );
}
