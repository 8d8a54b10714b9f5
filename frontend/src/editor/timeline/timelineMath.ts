/**
 * The timeline's geometry and edit limits (spec platform §9 ruler, editor-core §4): zoom levels,
 * where scenes and layers lie on the document's time axis, snapping, and the limits of a bar's
 * move and trims. Pure: no React, no Redux.
 *
 * A layer's times are seconds from its scene's start (the document model), so a scene's start
 * is the sum of the lengths before it: lengthening a scene moves every later scene's layers with
 * it, and nothing in a later scene is rewritten.
 */
import type { Layer } from '@/editor/model/gen/Layer';
import type { Scene } from '@/editor/model/gen/Scene';
import { MIN_SCENE_LENGTH } from '@/editor/state/defaults';

/** Seconds per long scale of the 9 zoom levels, widest first (spec platform §9). */
export const ZOOM_LEVELS: readonly number[] = [3, 2.5, 2, 1.5, 1, 0.5, 0.4, 0.2, 0.1];
/** The level a new timeline opens at: 1 s per long scale. */
export const DEFAULT_ZOOM_LEVEL = 4;
/** Pixels per small scale (spec: minimum scale 10). */
export const SMALL_SCALE_PX = 10;
/** Small scales per long one (spec: 10). */
export const SMALL_PER_LONG = 10;
/** Pixels per long scale. */
export const LONG_SCALE_PX = SMALL_SCALE_PX * SMALL_PER_LONG;
/** The ruler's least width and its height, pixels (spec: canvas 3800 × 50). */
export const RULER_WIDTH = 3800;
export const RULER_HEIGHT = 50;
/** Snap distance, screen pixels. */
export const SNAP_PX = 6;
/** Shortest layer bar, seconds. */
export const MIN_LAYER_SPAN = 0.1;

/** Returns a zoom level clamped to the 9 levels. */
export function clampLevel(level: number): number {
  return Math.min(Math.max(Math.round(level), 0), ZOOM_LEVELS.length - 1);
}

/** Returns the pixels per second at a zoom level. */
export function pxPerSecond(level: number): number {
  return LONG_SCALE_PX / (ZOOM_LEVELS[clampLevel(level)] as number);
}

/** Returns the width of the time axis for a document length: at least the ruler's, with room after the end. */
export function axisWidth(duration: number, level: number): number {
  return Math.max(RULER_WIDTH, Math.ceil((duration + ZOOM_LEVELS[clampLevel(level)]! * 2) * pxPerSecond(level)));
}

/**
 * Returns the scroll offset that keeps the time under `anchorPx` (pixels from the view's left)
 * in place when the zoom goes from one level to another.
 */
export function scrollForZoom(scrollLeft: number, anchorPx: number, from: number, to: number): number {
  const t = (scrollLeft + anchorPx) / pxPerSecond(from);
  return Math.max(0, t * pxPerSecond(to) - anchorPx);
}

/** Returns each scene's start on the document's time axis, seconds, and the whole length last. */
export function sceneStarts(scenes: ReadonlyArray<Pick<Scene, 'timeLength'>>): number[] {
  const out = [0];
  for (const s of scenes) out.push((out[out.length - 1] as number) + Math.max(s.timeLength, 0));
  return out;
}

/** Returns the index of the scene under a document time (the last scene past the end). */
export function sceneIndexAt(starts: ReadonlyArray<number>, time: number): number {
  const count = starts.length - 1;
  for (let i = count - 1; i > 0; i -= 1) if (time >= (starts[i] as number)) return i;
  return 0;
}

/** Returns a layer's span in its scene, seconds: an open end (null) is the scene's end. */
export function layerSpan(layer: Pick<Layer, 'startTime' | 'endTime'>, sceneLength: number): [number, number] {
  // A saved document may hold null here, whatever the generated type says.
  const raw = layer.endTime as number | null | undefined;
  return [layer.startTime, typeof raw === 'number' && Number.isFinite(raw) ? raw : sceneLength];
}

/** Returns the candidate nearest to value within threshold, or value itself. */
export function snap(value: number, candidates: ReadonlyArray<number>, threshold: number): number {
  let best = value;
  let dist = threshold;
  for (const c of candidates) {
    const d = Math.abs(c - value);
    if (d <= dist) {
      best = c;
      dist = d;
    }
  }
  return best;
}

/** The times a bar of the current scene snaps to: the scene's edges, the other bars' edges and the playhead (all scene-local). */
export function snapTargets(layers: ReadonlyArray<Layer>, sceneLength: number, except: Layer['id'], playhead: number | null): number[] {
  const out = [0, sceneLength];
  for (const l of layers) {
    if (l.id === except) continue;
    out.push(...layerSpan(l, sceneLength));
  }
  if (playhead !== null) out.push(playhead);
  return out;
}

/** What a bar drag changes. */
export type BarEdit = 'move' | 'start' | 'end';

/**
 * Returns a bar's span after a drag of `delta` seconds, snapped (threshold in seconds) and kept
 * inside its limits: it never starts before 0, is never shorter than MIN_LAYER_SPAN, and a move
 * keeps its length. The end may pass the scene's end: the scene is lengthened then (as adding a
 * layer does).
 */
export function editBar(span: readonly [number, number], edit: BarEdit, delta: number, targets: ReadonlyArray<number>, threshold: number): [number, number] {
  const [s, e] = span;
  const len = e - s;
  if (edit === 'move') {
    let start = s + delta;
    const snappedStart = snap(start, targets, threshold);
    const snappedEnd = snap(start + len, targets, threshold);
    // The edge nearer to a target wins.
    if (snappedStart !== start && (snappedEnd === start + len || Math.abs(snappedStart - start) <= Math.abs(snappedEnd - start - len))) start = snappedStart;
    else if (snappedEnd !== start + len) start = snappedEnd - len;
    start = Math.max(0, start);
    return [start, start + len];
  }
  if (edit === 'start') {
    const start = Math.min(Math.max(0, snap(s + delta, targets, threshold)), e - MIN_LAYER_SPAN);
    return [start, e];
  }
  const end = Math.max(snap(e + delta, targets, threshold), s + MIN_LAYER_SPAN);
  return [s, end];
}

/** Returns a scene's length after dragging its end by `delta` seconds: snapped, never below the minimum (spec §5: 2 s). */
export function editSceneLength(length: number, delta: number, targets: ReadonlyArray<number>, threshold: number): number {
  return Math.max(MIN_SCENE_LENGTH, snap(length + delta, targets, threshold));
}

/** Returns where a bar lies on the document's time axis: its scene's start plus its span. */
export function barOnAxis(sceneStart: number, span: readonly [number, number]): [number, number] {
  return [sceneStart + span[0], sceneStart + span[1]];
}

/** A tick of the ruler: its x on the axis, whether it is a long one, and its label (long ones). */
export interface Tick {
  x: number;
  long: boolean;
  label: string;
}

/** Returns the ruler's ticks between two x positions on the axis. */
export function rulerTicks(level: number, from: number, to: number): Tick[] {
  const secondsPerLong = ZOOM_LEVELS[clampLevel(level)] as number;
  const first = Math.max(0, Math.floor(from / SMALL_SCALE_PX));
  const last = Math.ceil(to / SMALL_SCALE_PX);
  const out: Tick[] = [];
  for (let i = first; i <= last; i += 1) {
    const long = i % SMALL_PER_LONG === 0;
    out.push({ x: i * SMALL_SCALE_PX, long, label: long ? formatTime((i / SMALL_PER_LONG) * secondsPerLong, secondsPerLong < 1) : '' });
  }
  return out;
}

/** Returns mm:ss, or mm:ss.t with tenths. */
export function formatTime(seconds: number, tenths = false): string {
  const t = Math.max(0, seconds);
  const whole = tenths ? Math.round(t * 10) / 10 : Math.floor(t + 1e-6);
  const m = Math.floor(whole / 60);
  const s = whole - m * 60;
  const ss = tenths ? s.toFixed(1).padStart(4, '0') : String(Math.floor(s)).padStart(2, '0');
  return `${String(m).padStart(2, '0')}:${ss}`;
}

/** A video's cut: the part of its source it plays, seconds. */
export interface Cut {
  start: number;
  end: number;
}

/**
 * Returns a video bar's span and cut after a trim in cut mode: the clip's frames stay where they
 * were on the axis, so trimming the head by d moves the cut's start by d and trimming the tail
 * moves its end, inside the source [0, duration]; a span that would need frames before the source
 * or past its end is held at that edge. `before` and `cut` are the bar and cut when the drag began,
 * `after` the span `editBar` made of it.
 */
export function cutTrim(before: readonly [number, number], after: readonly [number, number], cut: Cut, duration: number): { span: [number, number]; cut: Cut } {
  const limit = duration > 0 && Number.isFinite(duration) ? duration : Infinity;
  if (after[0] !== before[0]) {
    // Head: the cut's start moves with the bar's start, never before the source's first frame.
    const start = Math.min(Math.max(cut.start + (after[0] - before[0]), 0), cut.end - MIN_LAYER_SPAN);
    return { span: [before[0] + (start - cut.start), before[1]], cut: { start, end: cut.end } };
  }
  const end = Math.min(Math.max(cut.end + (after[1] - before[1]), cut.start + MIN_LAYER_SPAN), limit);
  return { span: [before[0], Math.max(before[1] + (end - cut.end), before[0] + MIN_LAYER_SPAN)], cut: { start: cut.start, end } };
}
