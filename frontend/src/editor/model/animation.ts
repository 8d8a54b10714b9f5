/**
 * A layer's state at a time (in- and out-animations and the continuous motion): the TypeScript
 * port of services/timeline/src/animation.rs.
 * Offsets are fractions of the frame; the clip is the visible part of the layer's box from one edge.
 */
import type { AnimationInfo } from './gen/AnimationInfo';
import type { Direction } from './gen/Direction';
import type { Edge } from './gen/Edge';
import type { LayerState } from './gen/LayerState';
import type { LayerTiming } from './gen/LayerTiming';
import { findAnimation } from './catalogue';

/** Bounce keyframes: [progress, position along the travel direction]; segments 60/15/15/10 %. */
export const BOUNCE_KEYS: ReadonlyArray<readonly [number, number]> = [
  [0, -1],
  [0.6, 0.04],
  [0.75, -0.016],
  [0.9, 0.008],
  [1, 0],
];

/** The far scale of the zooming continuous motions: they run between 1 and this over the span. */
export const MOTION_ZOOM = 1.25;

/** The state of a layer with no animation running. */
export const REST: LayerState = {
  visible: true,
  offsetX: 0,
  offsetY: 0,
  scale: 1,
  rotation: 0,
  opacity: 1,
  clip: { edge: 'left', fraction: 1 },
};

/** The state of a layer outside its time range. */
export const HIDDEN: LayerState = { ...REST, visible: false, opacity: 0 };

function clamp01(u: number): number {
  return Number.isNaN(u) ? 0 : Math.min(Math.max(u, 0), 1);
}

/** Returns the scale at the start and at the end of a continuous motion, or null when it names none. */
export function motionZoom(motion: string): [number, number] | null {
  switch (motion) {
    case 'ZOOM_IN':
    case 'zoomIn':
    case 'KEN_BURNS':
      return [1, MOTION_ZOOM];
    case 'ZOOM_OUT':
    case 'zoomOut':
      return [MOTION_ZOOM, 1];
    default:
      return null;
  }
}

/** Returns the largest scale a continuous motion reaches (1 when none). */
export function motionMaxScale(motion: string): number {
  const zoom = motionZoom(motion);
  return zoom ? Math.max(zoom[0], zoom[1]) : 1;
}

/** Returns 1 − (1 − u)³. */
export function easeOutCubic(u: number): number {
  const v = 1 - u;
  return 1 - v * v * v;
}

/** Returns u³. */
export function easeInCubic(u: number): number {
  return u * u * u;
}

function vector(d: Direction | null): [number, number] {
  switch (d) {
    case 'left':
      return [-1, 0];
    case 'right':
      return [1, 0];
    case 'up':
      return [0, -1];
    case 'down':
      return [0, 1];
    default:
      return [0, 0];
  }
}

function trailingEdge(d: Direction | null): Edge {
  return d === 'left' ? 'right' : d === 'up' ? 'bottom' : d === 'down' ? 'top' : 'left';
}

function leadingEdge(d: Direction | null): Edge {
  return d === 'right' ? 'right' : d === 'up' ? 'top' : d === 'down' ? 'bottom' : 'left';
}

/** Returns the bounce position at progress u, in frame lengths along the travel direction. */
export function bouncePosition(u: number): number {
  const v = clamp01(u);
  for (let i = 0; i + 1 < BOUNCE_KEYS.length; i += 1) {
    const [u0, s0] = BOUNCE_KEYS[i] ?? [0, 0];
    const [u1, s1] = BOUNCE_KEYS[i + 1] ?? [1, 0];
    if (v <= u1) {
      return s0 + (s1 - s0) * easeOutCubic((v - u0) / (u1 - u0));
    }
  }
  return 0;
}

/** Returns the state one animation gives at progress u (0..1), before the layer's rotation. */
export function animationState(info: AnimationInfo, u: number): LayerState {
  const p = clamp01(u);
  const s: LayerState = { ...REST, clip: { ...REST.clip } };
  const [vx, vy] = vector(info.direction);
  if (info.effect === 'opacity') {
    s.opacity = info.phase === 'in' ? p : 1 - p;
  } else if (info.effect === 'move') {
    const along = info.phase === 'in' ? easeOutCubic(p) - 1 : easeInCubic(p);
    s.offsetX = vx * along;
    s.offsetY = vy * along;
  } else if (info.effect === 'bounce') {
    const along = bouncePosition(p);
    s.offsetX = vx * along;
    s.offsetY = vy * along;
    s.opacity = Math.min(p / 0.6, 1);
  } else if (info.phase === 'in') {
    s.clip = { edge: trailingEdge(info.direction), fraction: p };
  } else {
    s.clip = { edge: leadingEdge(info.direction), fraction: 1 - p };
  }
  return s;
}

/** Returns the in and out durations fitted into the span (shrunk in proportion when they overlap). */
export function fittedDurations(span: number, inTime: number, outTime: number): [number, number] {
  const len = Math.max(span, 0);
  const i = Math.min(Math.max(inTime, 0), len);
  const o = Math.min(Math.max(outTime, 0), len);
  if (i + o > len && i + o > 0) {
    const k = len / (i + o);
    return [i * k, o * k];
  }
  return [i, o];
}

/** Returns a layer's state at t seconds from its scene start; a continuous motion scales linearly over the span. */
export function layerState(timing: LayerTiming, t: number): LayerState {
  const { start, end } = timing;
  if (!(t >= start && t < end)) {
    return { ...HIDDEN, clip: { ...HIDDEN.clip } };
  }
  const inInfo = [findAnimation(timing.motionIn)].find((a) => a?.phase === 'in');
  const outInfo = [findAnimation(timing.motionOut)].find((a) => a?.phase === 'out');
  const [inD, outD] = fittedDurations(end - start, inInfo ? timing.inTime : 0, outInfo ? timing.outTime : 0);
  let state: LayerState = { ...REST, clip: { ...REST.clip } };
  if (inInfo && inD > 0 && t < start + inD) {
    state = animationState(inInfo, (t - start) / inD);
  }
  if (outInfo && outD > 0 && t >= end - outD) {
    const out = animationState(outInfo, (t - (end - outD)) / outD);
    state.offsetX += out.offsetX;
    state.offsetY += out.offsetY;
    state.opacity *= out.opacity;
    state.scale *= out.scale;
    if (out.clip.fraction < 1) {
      state.clip = out.clip;
    }
  }
  const zoom = motionZoom(timing.motion);
  if (zoom) {
    // Visible means start ≤ t < end, so the span is positive here.
    const [from, to] = zoom;
    state.scale *= from + (to - from) * clamp01((t - start) / (end - start));
  }
  state.rotation = timing.rotate;
  return state;
}
