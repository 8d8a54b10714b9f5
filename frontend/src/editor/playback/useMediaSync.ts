/**
 * Keeps a `<video>` or `<audio>` on the playhead: paused, it shows the frame under the playhead
 * (a seek when it is more than half a frame off); playing, it plays and its drift from the clock is
 * pulled back under a frame by its playback rate, or by a seek when it is far off (a stall). While
 * a play() is starting nothing else is asked of it.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { clipSourceTime } from '@/editor/model/time';

/** Drift beyond which playing media seeks instead of changing its rate, seconds. */
export const SEEK_DRIFT = 0.3;
/** How long the rate takes to win back a drift, seconds. */
export const CATCH_UP = 0.25;

/** The drift, in frames, a correction under way pulls the media back to before it lets go. */
export const SETTLED_FRAMES = 0.1;

/**
 * Returns the playback rate that pulls a drift (media time − clock time) back. A drift within half
 * a frame is left alone (no rate change for every small jitter), but a correction under way
 * (`correcting`) goes on to a tenth of a frame: stopping at half a frame left media that had started
 * late (play() takes a moment) playing half a frame behind the clock for good.
 */
export function correctionRate(drift: number, fps: number, correcting = false): number {
  if (Math.abs(drift) <= (correcting ? SETTLED_FRAMES : 0.5) / fps) return 1;
  return Math.min(Math.max(1 - drift / CATCH_UP, 0.5), 1.5);
}

/** A video's cut in source seconds (`cutInfo {start, end}`), from 0 to the end without one. */
export function cutRange(v: VideoLayer): [number, number | null] {
  const c = v.cutInfo as { start?: unknown; end?: unknown } | null | undefined;
  const start = typeof c?.start === 'number' ? c.start : 0;
  const end = typeof c?.end === 'number' ? c.end : null;
  return [start, end];
}

/**
 * Returns the time in a clip's source at a layer time in a document of `fps` whole frames a second:
 * from the cut's start, holding the cut's last frame as the renderer does (`clipSourceTime`).
 */
export function sourceTime(layerTime: number, cutStart: number, cutEnd: number | null, fps: number): number {
  return clipSourceTime({ num: fps, den: 1 }, layerTime, cutStart, cutEnd);
}

/** Follows `target` (media seconds; null: the media does not play now) with the element of `ref`. */
export function useMediaSync(ref: RefObject<HTMLMediaElement | null>, target: number | null, playing: boolean, fps: number): void {
  // `target` is the clock's time when this render read it; the effect runs after the commit (on a
  // busy page a frame or more later), when a playing clock has moved on by the time since. Measured
  // against the stale target the media looked ahead by that much and was slowed, playing late.
  const readAt = performance.now();
  // A play() still starting (the media loading): no second one, and no seek that would restart the
  // loading; a start that lands after the clock stopped is paused again.
  const starting = useRef(false);
  const wanted = useRef(false);
  const correcting = useRef(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    wanted.current = target !== null && playing;
    if (target === null || !playing) {
      if (!el.paused) el.pause();
      el.playbackRate = 1;
      if (target !== null && !starting.current && Math.abs(el.currentTime - target) > 0.5 / fps) el.currentTime = target;
      return;
    }
    if (el.paused) {
      if (starting.current) return;
      if (Math.abs(el.currentTime - target) > 0.5 / fps) el.currentTime = target;
      starting.current = true;
      // A browser that refuses to play (no gesture yet) leaves the frame as it is.
      el.play().then(
        () => {
          starting.current = false;
          if (!wanted.current) el.pause();
        },
        () => {
          starting.current = false;
        },
      );
      return;
    }
    const drift = el.currentTime - (target + (performance.now() - readAt) / 1000);
    if (Math.abs(drift) > SEEK_DRIFT) {
      el.currentTime = target;
      el.playbackRate = 1;
      correcting.current = false;
      return;
    }
    const rate = correctionRate(drift, fps, correcting.current);
    correcting.current = rate !== 1;
    el.playbackRate = rate;
  });
}

/**
 * Returns the time in a background clip at a scene time: its `range` [start, end] played and looped
 * (the renderer loops backgrounds), or the whole clip looped when the range is absent or empty.
 */
export function backgroundTime(range: unknown, local: number, duration: number): number {
  const r = Array.isArray(range) ? range.map((x) => (typeof x === 'string' ? Number(x.trim()) : x)) : [];
  const [a, b] = [r[0], r[1]];
  if (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b) && b > a) return a + (Math.max(local, 0) % (b - a));
  return duration > 0 ? Math.max(local, 0) % duration : Math.max(local, 0);
}
