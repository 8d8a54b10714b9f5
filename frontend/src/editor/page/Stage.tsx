/**
 * The stage (element id `editor`): the current scene's layers at the fitted or chosen zoom, selected
 * with a click, shift/ctrl-click or a marquee (react-selecto), moved, resized and rotated with
 * snapping to the stage and other layers and guide lines (react-moveable). A drag is one undo step.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import Moveable from 'react-moveable';
import Selecto from 'react-selecto';
import type { Id } from '@/editor/model/gen/Id';
import { blurCss, catalogueFilterCss, joinFilters } from '@/editor/model/filterCss';
import type { Layer } from '@/editor/model/gen/Layer';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectCurrentScene, selectCurrentSceneStart, selectDrawOrder } from '@/editor/state/selectors';
import { layerState } from '@/editor/model/animation';
import { layerTiming } from '@/editor/playback/frame';
import { PlaybackFrame } from '@/editor/playback/PlaybackFrame';
import { usePlaybackPart } from '@/editor/playback/usePlayback';
import { LayerView } from './LayerView';
import { StageBackground } from './SceneBackground';
import { useEditorDispatch, useEditorSelector } from './useEditor';
import { useTextFit } from './useTextFit';

/** Room kept around the fitted stage, screen pixels. */
const FIT_MARGIN = 32;
/** Snap distance, screen pixels. */
const SNAP_THRESHOLD = 6;
const DIRECTIONS = { top: true, left: true, bottom: true, right: true, center: true, middle: true };

/** Layers of the current scene the server's problems name (`scenes[i].layers[j]…`). */
function flaggedIds(paths: string[], sceneIndex: number, layers: ReadonlyArray<Layer>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const m = /^scenes\[(\d+)\]\.layers\[(\d+)\]/.exec(p);
    if (m && Number(m[1]) === sceneIndex) {
      const l = layers[Number(m[2])];
      if (l) out.add(String(l.id));
    }
  }
  return out;
}

/** The topmost layer element under a screen point. */
function layerAt(stage: HTMLElement | null, x: number, y: number, byId: Map<string, Layer>): HTMLElement | null {
  const hits = Array.from(stage?.querySelectorAll<HTMLElement>('.rf-layer') ?? []).filter((el) => {
    const r = el.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  });
  hits.sort((p, q) => (byId.get(q.dataset.id ?? '')?.z ?? 0) - (byId.get(p.dataset.id ?? '')?.z ?? 0));
  return hits[0] ?? null;
}

/** Follows an element's size. */
function useSize(el: HTMLElement | null): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    if (!el) return;
    const read = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const ob = new ResizeObserver(read);
    ob.observe(el);
    return () => ob.disconnect();
  }, [el]);
  return size;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The stage's scale for a view: fitted to the frame, or the fixed zoom. A fitted stage is a whole
 * number of pixels wide and high (its width a multiple of the ratio's smallest whole width): a
 * fractional edge showed a column of the dark backdrop beside the scene (issue 33).
 */
export function stageScale(view: { fit: boolean; zoom: number }, frame: { width: number; height: number }, doc: { width: number; height: number }): number {
  if (!view.fit) return view.zoom;
  if (frame.width <= 0 || frame.height <= 0) return 1;
  const fitted = Math.max(0.1, Math.min((frame.width - FIT_MARGIN) / doc.width, (frame.height - FIT_MARGIN) / doc.height));
  if (!Number.isInteger(doc.width) || !Number.isInteger(doc.height) || doc.width <= 0 || doc.height <= 0) return fitted;
  const unit = doc.width / gcd(doc.width, doc.height);
  const width = Math.floor((doc.width * fitted) / unit) * unit;
  return width >= unit ? width / doc.width : fitted;
}

/**
 * Where a fitted stage of `stage` pixels sits in a frame of `frame` pixels: centred, on whole
 * pixels (centring with auto margins put it half a pixel off whenever the two differed by an odd
 * number, and the half-covered edge column showed the backdrop).
 */
export function stageMargin(frame: { width: number; height: number }, stage: { width: number; height: number }): string {
  const left = Math.max(0, Math.floor((frame.width - stage.width) / 2));
  const top = Math.max(0, Math.floor((frame.height - stage.height) / 2));
  return `${top}px 0 0 ${left}px`;
}

export interface StageProps {
  /** Reports the scale in use (the zoom control shows it). */
  onScale?: (scale: number) => void;
  /** Drawn over the frame, letting the pointer through (the in-call preview's phone screen). */
  overlay?: ReactNode;
}

/** The editing stage. */
export function Stage({ onScale, overlay }: StageProps) {
  const dispatch = useEditorDispatch();
  const ratio = useEditorSelector((s) => s.doc.resolutionRatio);
  const view = useEditorSelector((s) => s.view);
  const scene = useEditorSelector(selectCurrentScene);
  const sceneIndex = useEditorSelector((s) => s.doc.scenes.findIndex((x) => x.frontendId === s.sceneId));
  const layers = useEditorSelector(selectDrawOrder);
  const selection = useEditorSelector((s) => s.selection);
  const problems = useEditorSelector((s) => s.save.problems);
  const [frame, setFrame] = useState<HTMLDivElement | null>(null);
  const [stage, setStage] = useState<HTMLDivElement | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const moveable = useRef<Moveable>(null);
  const size = useSize(frame);
  const scale = stageScale(view, size, ratio);
  useEffect(() => onScale?.(scale), [scale, onScale]);

  // While playing or scrubbing the stage shows the frame under the playhead instead of the editable scene.
  const framing = usePlaybackPart((s) => s.playing || s.scrubbing);
  // Paused, a layer the frame under the playhead does not show is drawn faint (a selected one stays
  // whole); the value holds still while playing, so the stage does not re-render every tick.
  const sceneStart = useEditorSelector(selectCurrentSceneStart);
  const pausedAt = usePlaybackPart((s) => (s.playing ? -1 : s.time));
  const faintIds = useMemo(() => {
    if (pausedAt < 0) return new Set<string>();
    const local = Math.min(Math.max(pausedAt - sceneStart, 0), scene.timeLength - 1e-3);
    return new Set(scene.layers.filter((l) => !layerState(layerTiming(l, scene.timeLength), local).visible).map((l) => String(l.id)));
  }, [pausedAt, sceneStart, scene]);
  const ruleFilter = useEditorSelector((s) => s.doc.visualFilter);
  // The renderer filters the whole frame after its layers (the scene's filter, then the document's,
  // then the canvas blur), with blur radii in output pixels.
  const outputPx = scale / (ratio.targetWidth > 0 ? ratio.targetWidth / ratio.width : 1);
  const frameFilter = framing
    ? joinFilters(catalogueFilterCss(ruleFilter, outputPx))
    : joinFilters([...catalogueFilterCss(scene.visualFilter, outputPx), ...catalogueFilterCss(ruleFilter, outputPx), blurCss(scene.canvasBlur * scale)]);

  const byId = useMemo(() => new Map(scene.layers.map((l) => [String(l.id), l])), [scene.layers]);
  const flagged = useMemo(() => flaggedIds(problems.map((p) => p.path), sceneIndex, scene.layers), [problems, sceneIndex, scene.layers]);
  const selectedKey = selection.map(String).join(',');
  const selectedSet = useMemo(() => new Set(selectedKey === '' ? [] : selectedKey.split(',')), [selectedKey]);
  const [targets, setTargets] = useState<HTMLElement[]>([]);
  useLayoutEffect(() => {
    const ids = new Set(selectedKey === '' ? [] : selectedKey.split(','));
    setTargets(stage ? Array.from(stage.querySelectorAll<HTMLElement>('.rf-layer')).filter((el) => ids.has(el.dataset.id ?? '')) : []);
  }, [selectedKey, stage, layers.length, framing]);
  // During a gesture Moveable measures its target itself after every step; the stage re-measures only
  // between gestures (an undo, a panel edit, a zoom).
  const gesturing = useRef(false);
  useEffect(() => {
    if (!gesturing.current) moveable.current?.updateRect();
  }, [layers, scale]);

  const idOf = useCallback((el: Element): Id | undefined => byId.get((el as HTMLElement).dataset.id ?? '')?.id, [byId]);
  const locked = targets.some((el) => byId.get(el.dataset.id ?? '')?.isLock);
  const single = targets.length === 1 ? byId.get(targets[0]?.dataset.id ?? '') : undefined;
  const layerKey = layers.map((l) => String(l.id)).join(',');
  // The same array while a gesture runs, so Moveable does not re-read its guidelines at every step.
  const guides = useMemo(() => {
    if (targets.length === 0 || !stage) return [];
    const ids = new Set(layerKey.split(','));
    return Array.from(stage.querySelectorAll<HTMLElement>('.rf-layer')).filter((el) => ids.has(el.dataset.id ?? '') && !targets.includes(el));
  }, [targets, stage, layerKey]);

  const begin = () => {
    gesturing.current = true;
    dispatch(a.beginGesture());
  };
  const commit = () => {
    gesturing.current = false;
    dispatch(a.commitGesture());
    moveable.current?.updateRect();
  };
  // An edited text's box grows to hold it, in the same undo step.
  const { edit: editText } = useTextFit();
  const finishEdit = useCallback(
    (content: string) => {
      if (editingId !== null) {
        const layer = byId.get(editingId);
        if (layer) editText(layer, { content, showContent: content });
      }
      setEditingId(null);
    },
    [byId, editText, editingId],
  );

  // Over selected layers moveable's own area takes the pointer, so the layer is also found by position.
  // Answers whether a text went into editing.
  const startEdit = (target: HTMLElement | null, x: number, y: number): boolean => {
    const el = target?.closest<HTMLElement>('.rf-layer') ?? layerAt(stage, x, y, byId);
    const layer = el ? byId.get(el.dataset.id ?? '') : undefined;
    if (!layer || layer.isLock || (layer.type !== 'word' && layer.type !== 'dynamicWord')) return false;
    // While a text is edited a double-click selects words in it; the edit ends when its text loses the focus.
    if (editingId !== null) return false;
    dispatch(a.select({ ids: [layer.id] }));
    setEditingId(String(layer.id));
    return true;
  };

  return (
    <div
      ref={setFrame}
      data-testid="stage-frame"
      onMouseDownCapture={(e) => {
        // The browser counts the clicks of a real double-click on the second press; taking that press
        // here, before react-selecto and react-moveable see it, keeps them from eating the pair, and
        // preventing its default keeps the focus in the text being edited.
        if (e.button === 0 && e.detail >= 2 && startEdit(e.target as HTMLElement, e.clientX, e.clientY)) {
          e.preventDefault();
          e.stopPropagation();
        }
      }}
      onDoubleClick={(e) => startEdit(e.target as HTMLElement, e.clientX, e.clientY)}
      // The frame is a stacking context of its own: Moveable's handles (z-index 3000) stay inside it,
      // under the dialogs and toasts antd lays over the page (1000 and up).
      style={{ position: 'relative', flex: 1, minHeight: 0, overflow: 'auto', background: '#262626', display: 'flex', isolation: 'isolate' }}>
      <div
        ref={setStage}
        id="editor"
        data-scale={scale}
        style={{
          position: 'relative',
          margin: view.fit ? stageMargin(size, { width: ratio.width * scale, height: ratio.height * scale }) : 'auto',
          flex: 'none',
          width: ratio.width * scale,
          height: ratio.height * scale,
          background: scene.bgColor,
          overflow: 'hidden',
          filter: frameFilter,
        }}
      >
        {framing ? (
          <PlaybackFrame scale={scale} outputPx={outputPx} />
        ) : (
          <>
            <StageBackground scene={scene} scale={scale} />
            {layers.map((l) => (
              <LayerView key={String(l.id)} layer={l} scale={scale} editing={editingId === String(l.id)} flagged={flagged.has(String(l.id))} onEditEnd={finishEdit} faint={faintIds.has(String(l.id)) && !selectedSet.has(String(l.id))} />
            ))}
          </>
        )}
        {overlay}
      </div>
      {stage && (
        <>
          <Moveable
            ref={moveable}
            target={editingId === null && !framing ? targets : []}
            draggable={!locked}
            resizable={!locked && single !== undefined}
            rotatable={!locked && single !== undefined}
            throttleDrag={0}
            snappable
            snapThreshold={SNAP_THRESHOLD}
            isDisplaySnapDigit
            snapDirections={DIRECTIONS}
            elementSnapDirections={DIRECTIONS}
            elementGuidelines={guides}
            verticalGuidelines={[0, (ratio.width * scale) / 2, ratio.width * scale]}
            horizontalGuidelines={[0, (ratio.height * scale) / 2, ratio.height * scale]}
            bounds={{ left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity }}
            onDragStart={begin}
            onDrag={(e) => {
              const id = idOf(e.target);
              if (id !== undefined) dispatch(a.updateLayer({ id, changes: { x: e.left / scale, y: e.top / scale } }));
            }}
            onDragEnd={commit}
            onDragGroupStart={begin}
            onDragGroup={(e) => {
              const ids = e.events.map((ev) => idOf(ev.target)).filter((id): id is Id => id !== undefined);
              dispatch(a.moveLayers({ ids, dx: e.beforeDelta[0]! / scale, dy: e.beforeDelta[1]! / scale }));
            }}
            onDragGroupEnd={commit}
            onResizeStart={begin}
            onResize={(e) => {
              const id = idOf(e.target);
              // Right after onResize Moveable measures the target and, when it is more than 3 px off the
              // size it asked for (`checkResizableError`), takes the measured size as the new start of
              // the gesture. React would draw the new size only after that, so without flushing now
              // every step of more than 3 px is thrown back to the old width.
              if (id !== undefined) flushSync(() => dispatch(a.resizeLayer({ id, x: e.drag.left / scale, y: e.drag.top / scale, w: e.width / scale, h: e.height / scale })));
            }}
            onResizeEnd={commit}
            onRotateStart={begin}
            onRotate={(e) => {
              const id = idOf(e.target);
              if (id !== undefined) dispatch(a.updateLayer({ id, changes: { rotate: Math.round(e.rotation * 10) / 10 } }));
            }}
            onRotateEnd={commit}
          />
          <Selecto
            container={stage}
            dragContainer={stage}
            selectableTargets={['#editor .rf-layer']}
            hitRate={0}
            selectByClick
            selectFromInside={false}
            toggleContinueSelect={[['shift'], ['ctrl'], ['meta']]}
            ratio={0}
            onDragStart={(e) => {
              const target = e.inputEvent.target as Element;
              if (framing || editingId !== null || moveable.current?.isMoveableElement(target) || targets.some((t) => t === target || t.contains(target))) e.stop();
            }}
            onSelectEnd={(e) => {
              const ids = e.selected.map((el) => idOf(el)).filter((id): id is Id => id !== undefined);
              dispatch(a.select({ ids }));
              if (e.isDragStart && ids.length > 0) {
                e.inputEvent.preventDefault();
                void moveable.current?.waitToChangeTarget().then(() => moveable.current?.dragStart(e.inputEvent));
              }
            }}
          />
        </>
      )}
    </div>
  );
}
