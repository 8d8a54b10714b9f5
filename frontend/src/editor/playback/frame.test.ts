import { newRule, newScene } from '@/editor/state/defaults';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import type { Scene } from '@/editor/model/gen/Scene';
import { frameAtTime, frameRateOf, frameViewAt, layerTiming, shownLayers, timelineOf } from './frame';

const layer = (id: number, startTime: number, endTime: number, extra: Partial<Layer> = {}) =>
  ({ id, type: 'shape', startTime, endTime, z: 100 + id, rotate: 0, motion: '', motionIn: '', motionOut: '', inTime: 0, outTime: 0, ...extra }) as unknown as Layer;

function doc(scenes: Array<Partial<Scene>>): Rule {
  return { ...newRule(), scenes: scenes.map((s, i) => ({ ...newScene(i + 1), ...s })) };
}

describe('frame rate and plan', () => {
  it('reads the stored 80 as 30 fps, as the renderer does', () => {
    expect(frameRateOf({ frameRate: 80 })).toEqual({ num: 30, den: 1 });
    expect(frameRateOf({ frameRate: 25 })).toEqual({ num: 25, den: 1 });
  });

  it('finds the frame under a time, the last one past the end', () => {
    const tl = timelineOf(doc([{ timeLength: 2 }]));
    expect(frameAtTime(tl, 0)).toBe(0);
    expect(frameAtTime(tl, 1)).toBe(30);
    expect(frameAtTime(tl, 1 / 30)).toBe(1);
    expect(frameAtTime(tl, 99)).toBe(59);
  });
});

describe('what shows at a time', () => {
  it('shows a layer only inside its range', () => {
    const scene = { ...newScene(1), timeLength: 5, layers: [layer(1, 0, 2), layer(2, 1, 4), layer(3, 3, 5)] };
    const ids = (t: number) => shownLayers(scene, t).map((x) => x.layer.id);
    expect(ids(0)).toEqual([1]);
    expect(ids(1.5)).toEqual([1, 2]);
    expect(ids(2)).toEqual([2]);
    expect(ids(3.5)).toEqual([2, 3]);
    expect(ids(4.99)).toEqual([3]);
  });

  it('draws in z order and closes an open end at the scene end', () => {
    const scene = { ...newScene(1), timeLength: 3, layers: [layer(2, 0, 3, { z: 300 } as Partial<Layer>), layer(1, 0, null as unknown as number)] };
    expect(shownLayers(scene, 2.9).map((x) => x.layer.id)).toEqual([1, 2]);
    expect(layerTiming(scene.layers[1]!, 3)).toMatchObject({ start: 0, end: 3 });
  });

  it('animates with the shared maths: a fade-in halfway is half opaque, a move-out leaves the frame', () => {
    const scene = {
      ...newScene(1),
      timeLength: 4,
      layers: [layer(1, 0, 4, { motionIn: 'MOTIONIN_OPACITY', inTime: 1, motionOut: 'MOTIONOUT_MOVE_LEFT', outTime: 1 } as Partial<Layer>)],
    };
    expect(shownLayers(scene, 0.5)[0]?.state.opacity).toBeCloseTo(0.5);
    expect(shownLayers(scene, 2)[0]?.state).toMatchObject({ opacity: 1, offsetX: 0 });
    expect(shownLayers(scene, 3.5)[0]?.state.offsetX).toBeCloseTo(-0.125);
  });

  it('shows the scene under the playhead, and both scenes under a transition centred on their boundary', () => {
    const rule = doc([
      { timeLength: 2, effect: 'MOVE_LEFT', effectTime: 1 },
      { timeLength: 2, effect: '' },
    ]);
    const tl = timelineOf(rule);
    expect(frameViewAt(tl, 0.5)).toEqual({ kind: 'scene', at: { scene: 0, local: 0.5 } });
    expect(frameViewAt(tl, 3)).toEqual({ kind: 'scene', at: { scene: 1, local: 1 } });
    const mid = frameViewAt(tl, 2);
    expect(mid?.kind).toBe('transition');
    if (mid?.kind !== 'transition') return;
    expect(mid.progress).toBeCloseTo(0.5);
    expect(mid.from.scene).toBe(0);
    expect(mid.to).toEqual({ scene: 1, local: 0 });
    expect(mid.composite.bottom.dx).toBeCloseTo(-0.5);
    expect(mid.composite.top.dx).toBeCloseTo(0.5);
  });
});
