/**
 * Layer times that follow their scene and their clip (issue 23): a layer that spans its scene
 * keeps spanning it when the scene's length changes (when the user wants that), and a video's
 * in and out points and its bar's length are one thing, the out point never past the source's
 * end. Pure: no React, no Redux.
 */
import type { Layer } from '@/editor/model/gen/Layer';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { layerSpan, MIN_LAYER_SPAN, type Cut } from '@/editor/timeline/timelineMath';

/** How close a layer's ends must be to the scene's to count as spanning it, seconds. */
export const SPAN_TOLERANCE = 0.01;

/** Source durations of the document's clips by material id, seconds (what the library says). */
export type SourceDurations = Readonly<Record<string, number>>;

/** Times are kept to hundredths of a second, as the timeline writes them. */
const hundredths = (v: number) => Math.round(v * 100) / 100;

/** Returns a usable source duration, or Infinity when it is not known. */
export function sourceLimit(duration: number | undefined): number {
  return duration !== undefined && Number.isFinite(duration) && duration > 0 ? duration : Infinity;
}

/** Returns the source duration of a layer's material, when the caller knows it. */
export function sourceOf(layer: Layer, sources: SourceDurations | undefined): number | undefined {
  return layer.materialId === undefined || layer.materialId === '' ? undefined : sources?.[String(layer.materialId)];
}

/** Whether a layer runs from its scene's start to its end (an open end counts). */
export function spansScene(layer: Layer, sceneLength: number): boolean {
  const [start, end] = layerSpan(layer, sceneLength);
  return start <= SPAN_TOLERANCE && Math.abs(end - sceneLength) <= SPAN_TOLERANCE;
}

/** A video's in point (0 without a cut). */
export function cutStart(layer: VideoLayer): number {
  const c = layer.cutInfo as { start?: unknown } | null | undefined;
  return typeof c?.start === 'number' && Number.isFinite(c.start) ? c.start : 0;
}

/** The cut a bar of `span` seconds plays: from its in point, as long as the bar, never past the source's end. */
export function cutForSpan(start: number, span: number, source: number | undefined): Cut {
  const limit = sourceLimit(source);
  const from = Math.min(Math.max(start, 0), Math.max(limit - MIN_LAYER_SPAN, 0));
  return { start: hundredths(from), end: hundredths(Math.min(from + span, limit)) };
}

/**
 * The in and out points a video plays: its cut, or without one from 0 for as long as its bar,
 * never past the source's end (`source`, when known).
 */
export function clipCut(layer: VideoLayer, source: number | undefined): Cut {
  const c = layer.cutInfo as { start?: unknown; end?: unknown } | null | undefined;
  if (c && typeof c.start === 'number' && typeof c.end === 'number') return { start: c.start, end: c.end };
  return { start: 0, end: Math.min(layer.endTime - layer.startTime, sourceLimit(source)) };
}

/**
 * Returns a layer with the span `[start, end]`; a video's out point follows the bar's length
 * (or takes `cut` when the caller made one, as cut mode does; a move keeps the cut).
 */
export function withSpan(layer: Layer, start: number, end: number, source: number | undefined, cut?: Cut): Layer {
  if (layer.type !== 'video') return { ...layer, startTime: start, endTime: end };
  // A bar moved without changing its length keeps its cut as it is.
  const moved = layer.cutInfo !== undefined && layer.cutInfo !== null && Math.abs(end - start - (layer.endTime - layer.startTime)) < 1e-6;
  if (cut === undefined && moved) return { ...layer, startTime: start, endTime: end };
  return { ...layer, startTime: start, endTime: end, cutInfo: cut ?? cutForSpan(cutStart(layer), end - start, source) };
}

/**
 * Returns a video with the in and out points asked for, kept inside the source (the out point at
 * least a tenth of a second after the in point), and its bar as long as the cut.
 */
export function withCut(layer: VideoLayer, start: number, end: number, source: number | undefined): VideoLayer {
  const limit = sourceLimit(source);
  const from = hundredths(Math.min(Math.max(start, 0), Math.max(limit - MIN_LAYER_SPAN, 0)));
  const to = hundredths(Math.min(Math.max(end, from + MIN_LAYER_SPAN), limit));
  return { ...layer, cutInfo: { start: from, end: to }, endTime: hundredths(layer.startTime + (to - from)) };
}

/**
 * Returns a scene's layers (a group's members too) for its new length `after`: each layer that
 * spanned the old length (as `spanned` says, from the layers when the change began) spans the new
 * one, a video's out point following within its source; locked layers and the others stay.
 */
export function stretchLayers(layers: ReadonlyArray<Layer>, spanned: (id: Layer['id']) => boolean, after: number, sources: SourceDurations | undefined): Layer[] {
  return layers.map((l) => {
    if (!spanned(l.id) || l.isLock) return l;
    const next = withSpan(l, 0, after, sourceOf(l, sources));
    return next.type === 'group' ? { ...next, attachList: stretchLayers(next.attachList, spanned, after, sources) } : next;
  });
}

/** Seconds of a video bar past its clip's out point: the renderer holds the last frame there; 0 when none. */
export function heldSeconds(layer: VideoLayer, sceneLength: number): number {
  const c = layer.cutInfo as { start?: unknown; end?: unknown } | null | undefined;
  if (typeof c?.start !== 'number' || typeof c.end !== 'number') return 0;
  const [s, e] = layerSpan(layer, sceneLength);
  const held = e - s - (c.end - c.start);
  return held > SPAN_TOLERANCE ? hundredths(held) : 0;
}
