/**
 * The timeline under the stage (spec editor-core §2: ruler, scale, current time, pause state and
 * attached items). The axis is the whole document: the ruler, the scene blocks on it and the
 * playhead; the tracks are the layers of the current scene (a layer belongs to one scene, its
 * times counted from that scene's start), then the document's music. The current scene follows
 * the playhead, and choosing a scene brings the playhead to it. A bar's move or trim and a
 * scene's length are one undo step each.
 */
import { CaretRightOutlined, PauseOutlined, PlusOutlined, ScissorOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { DndContext, PointerSensor, useSensor, useSensors, type DragEndEvent, type DragMoveEvent, type DragStartEvent } from '@dnd-kit/core';
import { App, Button, Segmented, Space, Tooltip, Typography } from 'antd';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector, useAppStore } from '@/app/hooks';
import { useLibraryName } from '@/components/material/libraryName';
import { selectAudioIndex } from '@/editor/audio/AudioItemProps';
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Scene } from '@/editor/model/gen/Scene';
import { MAX_SCENES } from '@/editor/state/defaults';
import { editorActions as a } from '@/editor/state/editorSlice';
import { SceneStrip } from '@/editor/page/SceneStrip';
import { isTypingTarget } from '@/editor/page/typingTarget';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { useSourceDurations } from '@/editor/page/useSourceDurations';
import { heldSeconds } from '@/editor/state/timing';
import { useClock, usePlayback, usePlaybackPart } from '@/editor/playback/usePlayback';
import { cutRange } from '@/editor/playback/useMediaSync';
import { LayerBar, MusicBar, SceneBlock, type DragTarget } from './Bars';
import { Ruler, TICK_BAND } from './Ruler';
import {
  axisWidth,
  clampLevel,
  cutTrim,
  type Cut,
  DEFAULT_ZOOM_LEVEL,
  editBar,
  editSceneLength,
  formatTime,
  layerSpan,
  pxPerSecond,
  RULER_HEIGHT,
  sceneIndexAt,
  sceneStarts,
  scrollForZoom,
  SNAP_PX,
  snapTargets,
  ZOOM_LEVELS,
} from './timelineMath';

/** Width of the label column, pixels. */
const LABEL_W = 120;
/** Height of a track, pixels. */
const ROW_H = 28;
/** Tracks shown before the timeline scrolls. */
const ROWS_IN_VIEW = 3;

/** Times are kept to hundredths of a second. */
const round = (v: number) => Math.round(v * 100) / 100;

/**
 * Follows a drag's pointer in window capture listeners, so that the drop lands where the button
 * went up. dnd-kit reports a drag's travel as of its last render, and a busy page may not have
 * rendered the last moves before the button goes up (the e2e drag of 100 px landed at 90).
 */
function usePointerTravel(scroller: HTMLElement | null) {
  const travel = useRef<{ x0: number; x: number; scroll0: number; listening: AbortController } | null>(null);
  const stop = useCallback(() => {
    travel.current?.listening.abort();
    travel.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  /** Starts following from the event that began the drag (its pointer down). */
  const start = useCallback(
    (activator: Event | null) => {
      stop();
      if (!(activator instanceof MouseEvent)) return;
      const listening = new AbortController();
      const t = { x0: activator.clientX, x: activator.clientX, scroll0: scroller?.scrollLeft ?? 0, listening };
      const follow = (e: PointerEvent) => {
        t.x = e.clientX;
      };
      window.addEventListener('pointermove', follow, { capture: true, signal: listening.signal });
      window.addEventListener('pointerup', follow, { capture: true, signal: listening.signal });
      travel.current = t;
    },
    [scroller, stop],
  );
  /** Stops following; answers the travel along the axis in pixels (scrolling included), or null. */
  const end = useCallback((): number | null => {
    const t = travel.current;
    stop();
    return t ? t.x - t.x0 + (scroller?.scrollLeft ?? 0) - t.scroll0 : null;
  }, [scroller, stop]);
  return { start, end, stop };
}

function typing(target: EventTarget | null): boolean {
  return isTypingTarget(target) || (target instanceof Element && target.tagName === 'BUTTON');
}

/** Space plays and pauses (not while typing, nor on a focused button, which space presses). */
function usePlayKey() {
  const clock = useClock();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== ' ' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      clock.toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [clock]);
}

/** Keeps the clock's length, the current scene and the playhead in step. */
function useSceneFollowsPlayhead(starts: number[]) {
  const clock = useClock();
  const dispatch = useEditorDispatch();
  const store = useAppStore();
  const sceneIndex = useEditorSelector((s) => s.doc.scenes.findIndex((x) => x.frontendId === s.sceneId));
  const duration = starts[starts.length - 1] ?? 0;
  const startsKey = starts.join(',');
  useEffect(() => clock.setDuration(duration), [clock, duration]);
  // The playhead entering another scene shows that scene.
  useEffect(() => {
    const list = startsKey.split(',').map(Number);
    let last = -1;
    return clock.subscribe(() => {
      const i = sceneIndexAt(list, clock.get().time);
      if (i === last) return;
      last = i;
      const s = store.getState().editor;
      const id = s.doc.scenes[i]?.frontendId;
      if (id !== undefined && id !== s.sceneId) dispatch(a.selectScene(id));
    });
  }, [clock, dispatch, startsKey, store]);
  // Choosing a scene (the strip, a block) brings the playhead to its start unless it is already in it.
  useEffect(() => {
    const list = startsKey.split(',').map(Number);
    if (sceneIndex >= 0 && sceneIndexAt(list, clock.get().time) !== sceneIndex) clock.seek(list[sceneIndex] ?? 0);
  }, [clock, sceneIndex, startsKey]);
}

function Controls({ duration, level, setLevel, tab, setTab, cutMode, setCutMode }: { duration: number; level: number; setLevel: (l: number) => void; tab: string; setTab: (t: string) => void; cutMode: boolean; setCutMode: (on: boolean) => void }) {
  const { t } = useTranslation();
  const clock = useClock();
  const { time, playing } = usePlayback();
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 8px', borderBottom: '1px solid #f0f0f0' }}>
      <Tooltip title={t('editor.timeline.playKey')}>
        <Button size="small" type="primary" shape="circle" icon={playing ? <PauseOutlined /> : <CaretRightOutlined />} aria-label={playing ? t('editor.timeline.pause') : t('editor.timeline.play')} data-testid="play" data-playing={playing} onClick={() => clock.toggle()} />
      </Tooltip>
      <Typography.Text data-testid="current-time" data-time={time.toFixed(3)} style={{ fontVariantNumeric: 'tabular-nums', minWidth: 120 }}>
        {formatTime(time, true)} / {formatTime(duration, true)}
      </Typography.Text>
      <Space size={2}>
        <Button size="small" type="text" icon={<ZoomOutOutlined />} aria-label={t('editor.timeline.zoomOut')} data-testid="timeline-zoom-out" disabled={level <= 0} onClick={() => setLevel(level - 1)} />
        <Tooltip title={t('editor.timeline.perScaleTip', { s: ZOOM_LEVELS[level] })}>
          <Typography.Text type="secondary" data-testid="timeline-scale" style={{ fontSize: 12, minWidth: 64, textAlign: 'center', display: 'inline-block', whiteSpace: 'nowrap' }}>
            {t('editor.timeline.perScale', { s: ZOOM_LEVELS[level] })}
          </Typography.Text>
        </Tooltip>
        <Button size="small" type="text" icon={<ZoomInOutlined />} aria-label={t('editor.timeline.zoomIn')} data-testid="timeline-zoom-in" disabled={level >= ZOOM_LEVELS.length - 1} onClick={() => setLevel(level + 1)} />
      </Space>
      <Tooltip title={t('editor.timeline.cutModeTip')}>
        <Button size="small" type={cutMode ? 'primary' : 'text'} icon={<ScissorOutlined />} aria-pressed={cutMode} data-testid="timeline-cut-mode" onClick={() => setCutMode(!cutMode)}>
          {t('editor.timeline.cutMode')}
        </Button>
      </Tooltip>
      <div style={{ flex: 1 }} />
      <AddScene />
      <Segmented
        size="small"
        value={tab}
        onChange={(v) => setTab(String(v))}
        options={[
          { value: 'timeline', label: <span data-testid="bottom-tab-timeline">{t('editor.timeline.tab')}</span> },
          { value: 'scenes', label: <span data-testid="bottom-tab-scenes">{t('editor.timeline.scenesTab')}</span> },
        ]}
      />
    </div>
  );
}

/** Adds a scene after the current one (refused with a message at the scene limit, as in the strip). */
function AddScene() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const count = useEditorSelector((s) => s.doc.scenes.length);
  return (
    <Button
      size="small"
      icon={<PlusOutlined />}
      data-testid="timeline-add-scene"
      onClick={() => (count < MAX_SCENES ? dispatch(a.addScene()) : void message.warning(t('editor.scenes.limit', { max: MAX_SCENES })))}
    >
      {t('editor.timeline.addScene')}
    </Button>
  );
}

/** The playhead: a line over the axis at the clock's time (moved by a transform: no layout per tick); it keeps itself in view while playing. */
function Playhead({ pps, scroller }: { pps: number; scroller: HTMLDivElement | null }) {
  const time = usePlaybackPart((s) => s.time);
  const playing = usePlaybackPart((s) => s.playing);
  const x = LABEL_W + time * pps;
  useEffect(() => {
    if (!playing || !scroller) return;
    const right = scroller.scrollLeft + scroller.clientWidth;
    if (x > right - 40) scroller.scrollLeft = x - LABEL_W - 40;
  }, [playing, scroller, x]);
  return (
    <div data-testid="playhead" data-x={x.toFixed(1)} style={{ position: 'absolute', top: 0, bottom: 0, left: 0, transform: `translateX(${x}px)`, width: 0, borderLeft: '1px solid #ff4d4f', pointerEvents: 'none', zIndex: 7 }}>
      <div style={{ position: 'absolute', top: 0, left: -6, width: 0, height: 0, borderLeft: '6px solid transparent', borderRight: '6px solid transparent', borderTop: '8px solid #ff4d4f' }} />
    </div>
  );
}

/** A row: the sticky label, then its part of the axis. */
function Row({ label, width, children, testId }: { label: ReactNode; width: number; children: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} style={{ display: 'flex', height: ROW_H, borderBottom: '1px solid #f5f5f5' }}>
      <div style={{ position: 'sticky', left: 0, zIndex: 4, width: LABEL_W, flex: 'none', background: '#fff', borderRight: '1px solid #f0f0f0', fontSize: 12, lineHeight: `${ROW_H}px`, padding: '0 8px', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }}>{label}</div>
      <div style={{ position: 'relative', width, flex: 'none' }}>{children}</div>
    </div>
  );
}

interface LayerTrackProps {
  layer: Layer;
  label: string;
  sceneStart: number;
  sceneLength: number;
  pps: number;
  width: number;
  selected: boolean;
  cutMode: boolean;
}

/** One layer's track; unchanged tracks are not redrawn when a layer is added or another bar moves. */
const LayerTrack = memo(function LayerTrack({ layer, label, sceneStart, sceneLength, pps, width, selected, cutMode }: LayerTrackProps) {
  const dispatch = useEditorDispatch();
  const onSelect = useCallback((id: Id, toggle: boolean) => dispatch(a.select({ ids: [id], toggle })), [dispatch]);
  const [s, e] = layerSpan(layer, sceneLength);
  return (
    <Row label={label} width={width} testId={`track-${String(layer.id)}`}>
      <div style={{ position: 'absolute', top: 0, bottom: 0, left: sceneStart * pps, width: sceneLength * pps, background: '#f6f8fa' }} />
      <LayerBar layer={layer} label={label} left={(sceneStart + s) * pps} width={(e - s) * pps} pps={pps} selected={selected} onSelect={onSelect} cutMode={cutMode} held={layer.type === 'video' ? heldSeconds(layer, sceneLength) : 0} />
    </Row>
  );
});

/** Layer fields the timeline does not draw: moving or resizing a layer on the stage leaves it as it is. */
const STAGE_ONLY = new Set(['x', 'y', 'w', 'h', 'rotate']);
const drawnJson = new WeakMap<Scene[], string>();
function timelineJson(scenes: Scene[]): string {
  let json = drawnJson.get(scenes);
  if (json === undefined) {
    json = JSON.stringify(scenes, (k, v: unknown) => (STAGE_ONLY.has(k) ? undefined : v));
    drawnJson.set(scenes, json);
  }
  return json;
}

/**
 * The scenes as the timeline draws them: the same array until something it draws changes, so a drag
 * on the stage (60 updates a second) does not redraw every track.
 */
function useTimelineScenes(): Scene[] {
  return useAppSelector((root) => root.editor.doc.scenes, (p, q) => p === q || timelineJson(p) === timelineJson(q));
}

/** What a layer's track is called: its text, or its kind. */
function useLayerLabel(): (l: Layer) => string {
  const { t } = useTranslation();
  return (l) => {
    if ((l.type === 'word' || l.type === 'dynamicWord') && l.content) return l.content;
    return t(`editor.timeline.kind.${l.type}`, { defaultValue: l.type });
  };
}

/** Ctrl+wheel zooms the axis about the pointer (a native listener: React's wheel listeners are passive). */
function useWheelZoom(el: HTMLDivElement | null, level: number, zoomTo: (next: number, anchorPx: number) => void) {
  useEffect(() => {
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const anchor = e.clientX - el.getBoundingClientRect().left - LABEL_W;
      zoomTo(level + (e.deltaY < 0 ? 1 : -1), Math.max(0, anchor));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [el, level, zoomTo]);
}

/**
 * The axis and its tracks. In cut mode (`cutMode`) a video bar's trim cuts the clip itself: its
 * frames stay where they are on the axis and the cut (`cutInfo`) moves with the trimmed edge.
 */
function TimelineBody({ level, setLevel, cutMode }: { level: number; setLevel: (l: number) => void; cutMode: boolean }) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const store = useAppStore();
  const clock = useClock();
  const scenes = useTimelineScenes();
  const music = useEditorSelector((s) => s.doc.audio);
  const audioSelected = useEditorSelector(selectAudioIndex);
  const sceneId = useEditorSelector((s) => s.sceneId);
  const selection = useEditorSelector((s) => s.selection);
  const starts = useMemo(() => sceneStarts(scenes), [scenes]);
  const sceneIndex = Math.max(0, scenes.findIndex((s) => s.frontendId === sceneId));
  const scene = scenes[sceneIndex] as Scene;
  const sceneStart = starts[sceneIndex] ?? 0;
  const duration = starts[starts.length - 1] ?? 0;
  const pps = pxPerSecond(level);
  const width = axisWidth(duration, level);
  const label = useLayerLabel();
  // The starter library's music is named in the page's language, as its bar is.
  const named = useLibraryName();
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [view, setView] = useState({ left: 0, width: 0 });
  useLayoutEffect(() => {
    if (!scroller) return;
    const read = () => setView({ left: scroller.scrollLeft, width: Math.max(0, scroller.clientWidth - LABEL_W) });
    read();
    scroller.addEventListener('scroll', read);
    const ob = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    ob?.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', read);
      ob?.disconnect();
    };
  }, [scroller]);

  // Zooming keeps the time under the anchor (the pointer, or the view's left edge) in place.
  const zoomTo = useCallback(
    (next: number, anchorPx: number) => {
      const to = clampLevel(next);
      if (to === level || !scroller) return;
      const left = scrollForZoom(scroller.scrollLeft, anchorPx, level, to);
      setLevel(to);
      requestAnimationFrame(() => {
        scroller.scrollLeft = left;
      });
    },
    [level, scroller, setLevel],
  );
  useWheelZoom(scroller, level, zoomTo);

  const scrub = (axisPx: number, down: boolean) => {
    clock.seek(axisPx / pps);
    clock.setScrubbing(down);
  };

  // A drag edits from where the bar was when it began, so snapping never accumulates.
  const origin = useRef<{ target: DragTarget; span: [number, number]; cut?: Cut; duration?: number } | null>(null);
  const sources = useSourceDurations();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 3 } }));
  const pointer = usePointerTravel(scroller);
  const onDragStart = ({ active, activatorEvent }: DragStartEvent) => {
    const target = active.data.current as DragTarget | undefined;
    if (!target) return;
    pointer.start(activatorEvent);
    const doc = store.getState().editor.doc;
    if (target.kind === 'scene') {
      const s = doc.scenes.find((x) => x.frontendId === target.id);
      if (!s) return;
      origin.current = { target, span: [0, s.timeLength] };
    } else {
      const l = scene.layers.find((x) => x.id === target.id);
      if (!l) return;
      const span = layerSpan(l, scene.timeLength);
      // A clip's out point follows its bar, never past the source's end.
      const duration = l.type === 'video' && l.materialId ? sources[String(l.materialId)] : undefined;
      origin.current = { target, span, duration };
      if (cutMode && l.type === 'video' && target.edit !== 'move') {
        const [start, end] = cutRange(l);
        origin.current = { target, span, cut: { start, end: end ?? start + span[1] - span[0] }, duration: duration ?? 0 };
      }
    }
    dispatch(a.beginGesture());
  };
  /** Applies a drag that has travelled `dx` pixels along the axis, from where it began. */
  const dragTo = (dx: number) => {
    const o = origin.current;
    if (!o) return;
    const seconds = dx / pps;
    const threshold = SNAP_PX / pps;
    const playhead = clock.get().time;
    if (o.target.kind === 'scene') {
      const i = scenes.findIndex((x) => x.frontendId === (o.target as { id: Id }).id);
      const start = starts[i] ?? 0;
      const length = editSceneLength(o.span[1], seconds, [playhead - start], threshold);
      dispatch(a.setSceneLength({ id: o.target.id, length: round(length), sources }));
      return;
    }
    const targets = snapTargets(scene.layers, scene.timeLength, o.target.id, playhead - sceneStart);
    const edited = editBar(o.span, o.target.edit, seconds, targets, threshold);
    if (o.cut) {
      const { span, cut } = cutTrim(o.span, edited, o.cut, o.duration ?? 0);
      dispatch(a.setLayerTime({ id: o.target.id, start: round(span[0]), end: round(span[1]), cut: { start: round(cut.start), end: round(cut.end) } }));
      return;
    }
    dispatch(a.setLayerTime({ id: o.target.id, start: round(edited[0]), end: round(edited[1]), source: o.duration }));
  };
  const onDragMove = ({ delta }: DragMoveEvent) => dragTo(delta.x);
  const onDragEnd = ({ delta }: DragEndEvent) => {
    const dx = pointer.end() ?? delta.x;
    if (!origin.current) return;
    dragTo(dx);
    origin.current = null;
    dispatch(a.commitGesture());
  };
  const onDragCancel = () => {
    pointer.stop();
    if (!origin.current) return;
    origin.current = null;
    dispatch(a.commitGesture());
  };

  const layers = useMemo(() => [...scene.layers].sort((p, q) => q.z - p.z), [scene.layers]);
  // An empty scene still shows one row (its 'no layers' line).
  const rows = Math.max(layers.length, 1) + music.length;
  const selected = new Set(selection.map(String));
  return (
    <div
      ref={setScroller}
      data-testid="timeline-tracks"
      style={{ position: 'relative', overflow: 'auto', height: RULER_HEIGHT + Math.min(rows, ROWS_IN_VIEW) * ROW_H + 12, background: '#fff' }}
    >
      <DndContext sensors={sensors} onDragStart={onDragStart} onDragMove={onDragMove} onDragEnd={onDragEnd} onDragCancel={onDragCancel}>
        <div style={{ position: 'relative', width: LABEL_W + width }}>
          <div style={{ display: 'flex', height: RULER_HEIGHT, position: 'sticky', top: 0, zIndex: 6, background: '#fafafa', borderBottom: '1px solid #f0f0f0' }}>
            <div style={{ position: 'sticky', left: 0, zIndex: 4, width: LABEL_W, flex: 'none', background: '#fafafa', borderRight: '1px solid #f0f0f0', fontSize: 12, padding: `${TICK_BAND + 4}px 8px 0` }}>{t('editor.timeline.scenes')}</div>
            <div style={{ position: 'relative', width, flex: 'none' }}>
              <Ruler level={level} from={view.left} width={view.width} stickyLeft={LABEL_W} onScrub={scrub} />
              <div style={{ position: 'absolute', left: 0, right: 0, top: TICK_BAND, bottom: 0 }}>
                {scenes.map((s, i) => (
                  <SceneBlock
                    key={String(s.frontendId ?? i)}
                    scene={s}
                    index={i}
                    left={(starts[i] ?? 0) * pps}
                    width={s.timeLength * pps}
                    active={i === sceneIndex}
                    last={i === scenes.length - 1}
                    onSelect={() => s.frontendId !== undefined && dispatch(a.selectScene(s.frontendId))}
                  />
                ))}
              </div>
            </div>
          </div>
          {layers.map((l) => (
            <LayerTrack key={String(l.id)} layer={l} label={label(l)} sceneStart={sceneStart} sceneLength={scene.timeLength} pps={pps} width={width} selected={selected.has(String(l.id))} cutMode={cutMode} />
          ))}
          {layers.length === 0 && (
            // The label column is for layer names; the message sits on the scene's part of the axis, whole.
            <Row label="" width={width}>
              <Typography.Text type="secondary" data-testid="timeline-no-layers" style={{ position: 'absolute', left: sceneStart * pps + 8, fontSize: 12, lineHeight: `${ROW_H}px`, whiteSpace: 'nowrap' }}>
                {t('editor.timeline.noLayers')}
              </Typography.Text>
            </Row>
          )}
          {music.map((m, i) => {
            const end = m.endTime > m.startTime ? m.endTime : duration;
            return (
              <Row key={`music-${i}`} label={`♪ ${named(m.name) || t('editor.timeline.music')}`} width={width} testId={`music-track-${i}`}>
                <MusicBar item={m} left={m.startTime * pps} width={(end - m.startTime) * pps} selected={audioSelected === i} onSelect={() => dispatch(a.selectAudio(i))} />
              </Row>
            );
          })}
          <Playhead pps={pps} scroller={scroller} />
        </div>
      </DndContext>
    </div>
  );
}

/** The bottom of the editor: the timeline, or the scene strip (tabs), under the play controls. */
export function Timeline() {
  const scenes = useTimelineScenes();
  const starts = useMemo(() => sceneStarts(scenes), [scenes]);
  const duration = starts[starts.length - 1] ?? 0;
  const [level, setLevel] = useState(DEFAULT_ZOOM_LEVEL);
  const [tab, setTab] = useState('timeline');
  const [cutMode, setCutMode] = useState(false);
  useSceneFollowsPlayhead(starts);
  usePlayKey();
  return (
    <div data-testid="timeline" style={{ flex: 'none', borderTop: '1px solid #f0f0f0' }}>
      <Controls duration={duration} level={level} setLevel={(l) => setLevel(clampLevel(l))} tab={tab} setTab={setTab} cutMode={cutMode} setCutMode={setCutMode} />
      {tab === 'timeline' ? <TimelineBody level={level} setLevel={setLevel} cutMode={cutMode} /> : <SceneStrip />}
    </div>
  );
}
