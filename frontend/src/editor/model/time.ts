/**
 * Seconds to integer frames, once: the port of services/timeline/src/time.rs. Scene starts are a
 * prefix sum of frame counts; transitions are centred on scene boundaries and add no frames.
 */
import type { FrameRate } from './gen/FrameRate';
import type { FrameSource } from './gen/FrameSource';
import type { ScenePlan } from './gen/ScenePlan';
import type { Timeline } from './gen/Timeline';
import type { TransitionPlan } from './gen/TransitionPlan';
import { findTransition } from './catalogue';

const MAX_TICKS = 1e12;

/** Rounds half away from zero and clamps like Rust's `f64::round` then clamp. */
function toTicks(v: number): number {
  if (Number.isNaN(v)) return 0;
  const r = Math.sign(v) * Math.round(Math.abs(v));
  return Math.min(Math.max(r, -MAX_TICKS), MAX_TICKS) + 0;
}

/** Returns the whole number of frames nearest to seconds. */
export function framesFor(rate: FrameRate, seconds: number): number {
  return toTicks((seconds * rate.num) / rate.den);
}

/** Returns a frame's start in seconds. */
export function secondsOf(rate: FrameRate, frame: number): number {
  return (frame * rate.den) / rate.num;
}

/** Returns a frame's start in whole microseconds (rounded towards zero, exact integer maths). */
export function microsOf(rate: FrameRate, frame: number): number {
  return Number((BigInt(frame) * BigInt(rate.den) * 1_000_000n) / BigInt(rate.num));
}

/** Returns the frames a clip's cut from `start` to `end` plays: its length to the nearest whole frame, at least one. */
export function cutFrames(rate: FrameRate, start: number, end: number): number {
  return Math.max(framesFor(rate, end - start), 1);
}

/**
 * Returns the time in a clip's source shown `layerSeconds` into its layer: from the cut's start, and
 * once the cut has played, its last frame (the one starting a frame before the cut's end), which the
 * clip then holds, as the renderer's `FrameRate::clip_source_time`. Without an end the clip plays on.
 */
export function clipSourceTime(rate: FrameRate, layerSeconds: number, start: number, end: number | null): number {
  const t = start + Math.max(layerSeconds, 0);
  return end !== null && end > start ? Math.min(t, start + secondsOf(rate, cutFrames(rate, start, end) - 1)) : t;
}

/** Returns the first audio sample of a frame at a sample rate (rounded towards zero). */
export function sampleOf(rate: FrameRate, frame: number, sampleRate: number): number {
  return Number((BigInt(frame) * BigInt(rate.den) * BigInt(sampleRate)) / BigInt(rate.num));
}

/** Returns the whole number of microseconds nearest to seconds. */
export function microsFor(seconds: number): number {
  return toTicks(seconds * 1e6);
}

/** A scene as the planner reads it. */
export interface SceneTiming {
  timeLength: number;
  effect: string;
  effectTime: number;
}

/** Returns the frame plan of scenes, where scene i's effect leads into scene i + 1. */
export function plan(rate: FrameRate, scenes: ReadonlyArray<SceneTiming>): Timeline {
  const plans: ScenePlan[] = [];
  let start = 0;
  for (const s of scenes) {
    const frames = Math.max(framesFor(rate, s.timeLength), 0);
    plans.push({ start, frames });
    start += frames;
  }
  const transitions: TransitionPlan[] = [];
  for (let i = 0; i + 1 < plans.length; i += 1) {
    const scene = scenes[i];
    const a = plans[i];
    const b = plans[i + 1];
    const info = scene ? findTransition(scene.effect) : undefined;
    if (!scene || !a || !b || !info) continue;
    const frames = Math.min(Math.max(framesFor(rate, scene.effectTime), 0), Math.min(a.frames, b.frames));
    if (frames > 0) {
      transitions.push({ from: i, kind: info.kind, start: b.start - Math.floor(frames / 2), frames });
    }
  }
  return { rate, scenes: plans, transitions, totalFrames: start };
}

/** Returns what a frame shows, or null past the end. */
export function sourceAt(timeline: Timeline, frame: number): FrameSource | null {
  if (frame < 0 || frame >= timeline.totalFrames) return null;
  const t = timeline.transitions.find((x) => frame >= x.start && frame < x.start + x.frames);
  if (t) {
    const a = timeline.scenes[t.from];
    const b = timeline.scenes[t.from + 1];
    if (!a || !b) return null;
    const clamp = (v: number, hi: number) => Math.min(Math.max(v, 0), hi);
    return {
      kind: 'transition',
      from: t.from,
      transition: t.kind,
      progress: (frame - t.start) / t.frames,
      fromLocal: clamp(frame - a.start, a.frames - 1),
      toLocal: clamp(frame - b.start, b.frames - 1),
    };
  }
  let idx = -1;
  timeline.scenes.forEach((s, i) => {
    if (s.start <= frame) idx = i;
  });
  const s = timeline.scenes[idx];
  return s ? { kind: 'scene', scene: idx, local: frame - s.start } : null;
}
