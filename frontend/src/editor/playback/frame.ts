/**
 * What the page shows at a document time, by the renderer's maths: the frame plan of
 * `model/time.ts` (integer frames, transitions centred on scene boundaries), each layer's state of
 * `model/animation.ts` and a transition's composite of `model/transition.ts`. Pure.
 */
import { layerState } from '@/editor/model/animation';
import type { Composite } from '@/editor/model/gen/Composite';
import type { FrameRate } from '@/editor/model/gen/FrameRate';
import type { Layer } from '@/editor/model/gen/Layer';
import type { LayerState } from '@/editor/model/gen/LayerState';
import type { LayerTiming } from '@/editor/model/gen/LayerTiming';
import type { Rule } from '@/editor/model/gen/Rule';
import type { Scene } from '@/editor/model/gen/Scene';
import type { Timeline } from '@/editor/model/gen/Timeline';
import { plan, secondsOf, sourceAt } from '@/editor/model/time';
import { composite } from '@/editor/model/transition';
import { layerSpan } from '@/editor/timeline/timelineMath';

/** The output frame rate of a document, as `FrameRate::for_rule` reads it: 1–60 whole frames a second, else 30. */
export function frameRateOf(rule: Pick<Rule, 'frameRate'>): FrameRate {
  const fps = rule.frameRate;
  return Number.isInteger(fps) && fps >= 1 && fps <= 60 ? { num: fps, den: 1 } : { num: 30, den: 1 };
}

/** The frame plan of a document. */
export function timelineOf(rule: Pick<Rule, 'frameRate' | 'scenes'>): Timeline {
  return plan(frameRateOf(rule), rule.scenes);
}

/** Returns the frame a document time falls in (the last frame past the end). */
export function frameAtTime(timeline: Timeline, time: number): number {
  const { num, den } = timeline.rate;
  const f = Math.floor((Math.max(time, 0) * num) / den + 1e-6);
  return Math.min(f, Math.max(timeline.totalFrames - 1, 0));
}

/** A scene at a time of its own, seconds from its start. */
export interface SceneTime {
  scene: number;
  local: number;
}

/** What a frame shows: one scene, or two under a transition. */
export type FrameView = { kind: 'scene'; at: SceneTime } | { kind: 'transition'; from: SceneTime; to: SceneTime; composite: Composite; progress: number };

/** Returns what the document shows at a time, or null for an empty document. */
export function frameViewAt(timeline: Timeline, time: number): FrameView | null {
  const source = sourceAt(timeline, frameAtTime(timeline, time));
  if (!source) return null;
  const sec = (f: number) => secondsOf(timeline.rate, f);
  if (source.kind === 'scene') return { kind: 'scene', at: { scene: source.scene, local: sec(source.local) } };
  return {
    kind: 'transition',
    from: { scene: source.from, local: sec(source.fromLocal) },
    to: { scene: source.from + 1, local: sec(source.toLocal) },
    composite: composite(source.transition, source.progress),
    progress: source.progress,
  };
}

/** A layer's timing as the renderer reads it (an open end is the scene's end). */
export function layerTiming(layer: Layer, sceneLength: number): LayerTiming {
  const [start, end] = layerSpan(layer, sceneLength);
  return {
    start,
    end,
    rotate: layer.rotate,
    motion: layer.motion ?? '',
    motionIn: layer.motionIn ?? '',
    inTime: layer.inTime ?? 0,
    motionOut: layer.motionOut ?? '',
    outTime: layer.outTime ?? 0,
  };
}

/** A layer that shows at a time, with its state. */
export interface ShownLayer {
  layer: Layer;
  state: LayerState;
}

/** Returns the layers of a scene that show at a local time, in drawing order (z, then document order). */
export function shownLayers(scene: Scene, local: number): ShownLayer[] {
  return [...scene.layers]
    .sort((a, b) => a.z - b.z)
    .map((layer) => ({ layer, state: layerState(layerTiming(layer, scene.timeLength), local) }))
    .filter((x) => x.state.visible && x.state.opacity > 0);
}
