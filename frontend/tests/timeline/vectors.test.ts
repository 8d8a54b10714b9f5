/**
 * The shared vectors of services/timeline (tests/vectors/*.json) against the TypeScript port of the
 * timeline maths: preview and export must agree to 1e-6.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { animationState, layerState, motionMaxScale, motionZoom } from '../../src/editor/model/animation';
import { parseColour } from '../../src/editor/model/colour';
import { shapeDrawing, shapeOutline } from '../../src/editor/model/shape';
import { findAnimation } from '../../src/editor/model/catalogue';
import { defaultAttachRange, extendedSceneLength, sizeCategory, slotKind } from '../../src/editor/model/layout';
import { clipSourceTime, framesFor, microsOf, plan, sampleOf, secondsOf, sourceAt } from '../../src/editor/model/time';
import { composite, maskContains } from '../../src/editor/model/transition';
import { reversedFileOf, reversedOnTheFly } from '../../src/editor/model/reverse';
import {
  checkMeasuredDb,
  dbToGain,
  dbToSlider,
  measuredDbOrFallback,
  sliderStep,
  sliderToDb,
  sliderToGain,
} from '../../src/editor/model/volume';
import type { FrameRate } from '../../src/editor/model/gen/FrameRate';
import type { LayerTiming } from '../../src/editor/model/gen/LayerTiming';
import type { Mask } from '../../src/editor/model/gen/Mask';
import type { TransitionKind } from '../../src/editor/model/gen/TransitionKind';

const VECTORS = join(__dirname, '../../../services/timeline/tests/vectors');
const TOLERANCE = 1e-6;

interface Case<I> {
  input: I;
  expected: unknown;
}

function load<I>(name: string): Case<I>[] {
  const doc = JSON.parse(readFileSync(join(VECTORS, `${name}.json`), 'utf8')) as { cases: Case<I>[] };
  return doc.cases;
}

/** Maps −∞ to null, as the vectors write it (JSON has no infinities). */
function finite(v: number | undefined): number | null {
  return v === undefined || !Number.isFinite(v) ? null : v;
}

/** Returns the first difference between actual and expected (numbers within the tolerance). */
function diff(path: string, actual: unknown, expected: unknown): string | null {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(actual - expected) <= TOLERANCE ? null : `${path}: ${actual} != ${expected}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `${path}: length ${actual.length} != ${expected.length}`;
    for (let i = 0; i < expected.length; i += 1) {
      const d = diff(`${path}[${i}]`, actual[i], expected[i]);
      if (d) return d;
    }
    return null;
  }
  if (expected && typeof expected === 'object' && actual && typeof actual === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
    for (const k of keys) {
      const d = diff(`${path}.${k}`, a[k], e[k]);
      if (d) return d;
    }
    return null;
  }
  return actual === expected ? null : `${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`;
}

function check<I>(name: string, run: (input: I) => unknown): void {
  const cases = load<I>(name);
  expect(cases.length).toBeGreaterThan(0);
  const failures = cases
    .map((c, i) => diff(`${name}[${i}] ${JSON.stringify(c.input)}`, run(c.input), c.expected))
    .filter((d): d is string => d !== null);
  expect(failures.slice(0, 5)).toEqual([]);
}

describe('timeline vectors shared with services/timeline', () => {
  test('animation states', () => {
    check<{ key: string; u: number }>('animation_state', ({ key, u }) => {
      const info = findAnimation(key);
      if (!info) throw new Error(`unknown animation ${key}`);
      return animationState(info, u);
    });
  });

  test('layer states', () => {
    check<{ timing: LayerTiming; t: number }>('layer_state', ({ timing, t }) => layerState(timing, t));
  });

  test('continuous motions', () => {
    check<{ motion: string }>('motion_zoom', ({ motion }) => ({
      zoom: motionZoom(motion),
      maxScale: motionMaxScale(motion),
    }));
  });

  test('basic shape outlines', () => {
    check<{ kind: string; w: number; h: number }>('shape_outline', ({ kind, w, h }) => shapeOutline(kind, w, h));
  });

  test('what a shape is painted from', () => {
    check<{ kind: string; code: string; svgStyleType: string; w: number; h: number; radius: number }>('shape_drawing', ({ kind, code, svgStyleType, w, h, radius }) =>
      shapeDrawing(kind, code, svgStyleType, w, h, radius),
    );
  });

  test('colour strings', () => {
    check<{ s: string }>('colour', ({ s }) => parseColour(s));
  });

  test('transition composites', () => {
    check<{ key: TransitionKind; p: number }>('transition', ({ key, p }) => composite(key, p));
  });

  test('mask membership', () => {
    check<{ mask: Mask; x: number; y: number; width: number; height: number }>('mask_contains', (i) =>
      maskContains(i.mask, i.x, i.y, i.width, i.height),
    );
  });

  test('volume slider to dB', () => {
    check<{ slider: number }>('volume_slider', ({ slider }) => ({
      step: sliderStep(slider),
      gain: sliderToGain(slider),
      db: finite(sliderToDb(slider)),
    }));
  });

  test('dB to volume slider', () => {
    check<{ db: number }>('volume_db', ({ db }) => ({
      slider: dbToSlider(db),
      gain: dbToGain(db),
      measured: finite(checkMeasuredDb(db)),
      measuredOrFallback: measuredDbOrFallback(db),
    }));
  });

  test('size category', () => {
    check<{ width: number; height: number }>('size_category', ({ width, height }) => sizeCategory(width, height));
  });

  test('default attach range', () => {
    check<{ current: number; duration: number }>('attach_range', ({ current, duration }) => {
      const [start, end] = defaultAttachRange(current, duration);
      return { start, end };
    });
  });

  test('scene extension', () => {
    check<{ sceneLength: number; layerEnd: number }>('scene_extension', (i) =>
      extendedSceneLength(i.sceneLength, i.layerEnd),
    );
  });

  test('template slots', () => {
    check<{ materialType: string; canModify: number }>('slot_kind', (i) => slotKind(i.materialType, i.canModify));
  });

  test('a video layer\'s reverseBy: the renderer\'s reverse, or a reversed file\'s original', () => {
    check<{ reverseBy: unknown }>('reverse_playback', ({ reverseBy }) => ({ onTheFly: reversedOnTheFly(reverseBy), original: reversedFileOf(reverseBy) }));
  });

  test('seconds to frames', () => {
    check<{ rate: FrameRate; seconds: number }>('frames', ({ rate, seconds }) => {
      const frames = framesFor(rate, seconds);
      return {
        frames,
        secondsOfFrames: secondsOf(rate, frames),
        micros: microsOf(rate, frames),
        sample48k: sampleOf(rate, frames, 48000),
      };
    });
  });

  test("a clip's source time, holding its cut's last frame", () => {
    check<{ fps: number; layerSeconds: number; start: number; end: number | null }>('clip_source_time', ({ fps, layerSeconds, start, end }) =>
      clipSourceTime({ num: fps, den: 1 }, layerSeconds, start, end),
    );
  });

  test('timeline plans', () => {
    check<{
      rate: FrameRate;
      scenes: { timeLength: number; effect: string; effectTime: number }[];
      probes: number[];
    }>('timeline', ({ rate, scenes, probes }) => {
      const timeline = plan(rate, scenes);
      return { plan: timeline, at: probes.map((f) => sourceAt(timeline, f)) };
    });
  });
});
