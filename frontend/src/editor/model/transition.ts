/**
 * How the outgoing scene A and the incoming scene B combine at progress p: the TypeScript port of
 * services/timeline/src/transition.rs. Draw: black, bottom plane, top plane, pixelate, flash.
 */
import type { Composite } from './gen/Composite';
import type { Mask } from './gen/Mask';
import type { Plane } from './gen/Plane';
import type { TransitionKind } from './gen/TransitionKind';
import type { Which } from './gen/Which';
import { findTransition } from './catalogue';

/** Largest mosaic cell, as a fraction of the frame width. */
export const MOSAIC_MAX_CELL = 1 / 16;
/** Number of slats of the shutters. */
export const SHUTTER_COUNT = 10;

/** Returns a scene's frame drawn as it is. */
export function plain(which: Which): Plane {
  return { which, dx: 0, dy: 0, sx: 1, sy: 1, alpha: 1, mask: { kind: 'full' }, invert: false };
}

function ab(a: Plane, b: Plane): Composite {
  return { bottom: a, top: b, pixelate: 0, flash: { rgb: [0, 0, 0], alpha: 0 } };
}

function rect(x0: number, y0: number, x1: number, y1: number): Mask {
  return { kind: 'rect', x0, y0, x1, y1 };
}

/** Returns the composite of a transition at progress p (clamped to 0..1; NaN reads as 0). */
export function composite(kind: TransitionKind, progress: number): Composite {
  const p = Number.isNaN(progress) ? 0 : Math.min(Math.max(progress, 0), 1);
  const q = 1 - p;
  const a = plain('a');
  const b = plain('b');
  const afterMid = p < 0.5 ? 0 : 1;
  const peak = 1 - Math.abs(2 * p - 1);
  const off = (pl: Plane, dx: number, dy: number): Plane => ({ ...pl, dx, dy });
  const scaled = (pl: Plane, sx: number, sy: number): Plane => ({ ...pl, sx, sy });
  const alpha = (pl: Plane, value: number): Plane => ({ ...pl, alpha: value });
  const masked = (pl: Plane, mask: Mask, invert: boolean): Plane => ({ ...pl, mask, invert });
  switch (kind) {
    case 'MOVE_LEFT':
      return ab(off(a, -p, 0), off(b, q, 0));
    case 'MOVE_RIGHT':
      return ab(off(a, p, 0), off(b, -q, 0));
    case 'MOVE_UP':
      return ab(off(a, 0, -p), off(b, 0, q));
    case 'MOVE_DOWN':
      return ab(off(a, 0, p), off(b, 0, -q));
    case 'MOVE_LEFT_UP':
      return ab(off(a, -p, -p), off(b, q, q));
    case 'MOVE_RIGHT_UP':
      return ab(off(a, p, -p), off(b, -q, q));
    case 'MOVE_LEFT_DOWN':
      return ab(off(a, -p, p), off(b, q, -q));
    case 'MOVE_RIGHT_DOWN':
      return ab(off(a, p, p), off(b, -q, -q));
    case 'ROLL_DOWN':
      return ab(a, off(b, 0, -q));
    case 'ROLL_UP':
      return ab(a, off(b, 0, q));
    case 'CURTAIN_OPEN':
      return ab(a, masked(b, rect(0.5 - p / 2, 0, 0.5 + p / 2, 1), false));
    case 'CURTAIN_CLOSE':
      return ab(a, masked(b, rect(p / 2, 0, 1 - p / 2, 1), true));
    case 'ERASE_LEFT':
      return ab(a, masked(b, rect(q, 0, 1, 1), false));
    case 'ERASE_RIGHT':
      return ab(a, masked(b, rect(0, 0, p, 1), false));
    case 'ERASE_UP':
      return ab(a, masked(b, rect(0, q, 1, 1), false));
    case 'ERASE_DOWN':
      return ab(a, masked(b, rect(0, 0, 1, p), false));
    case 'CIRCLE_OPEN':
      return ab(a, masked(b, { kind: 'circle', cx: 0.5, cy: 0.5, r: p }, false));
    case 'CIRCLE_CLOSE':
      return ab(a, masked(b, { kind: 'circle', cx: 0.5, cy: 0.5, r: q }, true));
    case 'MOSAIC':
      return { ...ab(a, alpha(b, afterMid)), pixelate: MOSAIC_MAX_CELL * peak };
    case 'OVERLAY':
      return ab(a, alpha(b, p));
    case 'SHUTTERS_HORIZONTAL':
      return ab(a, masked(b, { kind: 'blinds', axis: 'y', count: SHUTTER_COUNT, fraction: p }, false));
    case 'SHUTTERS_VERTICAL':
      return ab(a, masked(b, { kind: 'blinds', axis: 'x', count: SHUTTER_COUNT, fraction: p }, false));
    case 'TRACK_IN': {
      const [sa, sb] = [1 + 0.5 * p, 0.8 + 0.2 * p];
      return ab(scaled(a, sa, sa), alpha(scaled(b, sb, sb), p));
    }
    case 'TRACK_OUT': {
      const [sa, sb] = [1 - 0.2 * p, 1.5 - 0.5 * p];
      return ab(scaled(a, sa, sa), alpha(scaled(b, sb, sb), p));
    }
    case 'CLOCKWISE':
      return ab(a, masked(b, { kind: 'wedge', sweep: 360 * p, clockwise: true }, false));
    case 'ANTI_CLOCKWISE':
      return ab(a, masked(b, { kind: 'wedge', sweep: 360 * p, clockwise: false }, false));
    case 'FLASH_BLACK':
      return { ...ab(a, alpha(b, afterMid)), flash: { rgb: [0, 0, 0], alpha: peak } };
    case 'FLASH_WHITE':
      return { ...ab(a, alpha(b, afterMid)), flash: { rgb: [255, 255, 255], alpha: peak } };
    case 'MIRROR_FOLD_HORIZONTAL': {
      const [fa, fb] = [Math.max(1 - 2 * p, 0), Math.max(2 * p - 1, 0)];
      return ab(alpha(scaled(a, fa, 1), 1 - afterMid), alpha(scaled(b, fb, 1), afterMid));
    }
    case 'MIRROR_FOLD_VERTICAL': {
      const [fa, fb] = [Math.max(1 - 2 * p, 0), Math.max(2 * p - 1, 0)];
      return ab(alpha(scaled(a, 1, fa), 1 - afterMid), alpha(scaled(b, 1, fb), afterMid));
    }
  }
}

/** Returns the composite of a transition named in a document, or undefined for a cut. */
export function compositeByName(name: string, p: number): Composite | undefined {
  const info = findTransition(name);
  return info ? composite(info.kind, p) : undefined;
}

/** Returns whether the point (x, y), in frame fractions of a width×height frame, is inside the mask. */
export function maskContains(mask: Mask, x: number, y: number, width: number, height: number): boolean {
  switch (mask.kind) {
    case 'full':
      return true;
    case 'rect':
      return x >= mask.x0 && x < mask.x1 && y >= mask.y0 && y < mask.y1;
    case 'circle': {
      const halfDiag = 0.5 * Math.hypot(width, height);
      return Math.hypot((x - mask.cx) * width, (y - mask.cy) * height) < mask.r * halfDiag;
    }
    case 'blinds': {
      const c = (mask.axis === 'x' ? x : y) * Math.max(mask.count, 1);
      return c - Math.floor(c) < mask.fraction;
    }
    case 'wedge': {
      const deg = (Math.atan2((x - 0.5) * width, -(y - 0.5) * height) * 180) / Math.PI;
      const angle = ((deg % 360) + 360) % 360;
      return mask.clockwise ? angle < mask.sweep : angle >= 360 - mask.sweep;
    }
  }
}
