import { newScene } from '@/editor/state/defaults';
import type { Layer } from '@/editor/model/gen/Layer';
import {
  cutTrim,
  axisWidth,
  barOnAxis,
  clampLevel,
  editBar,
  editSceneLength,
  formatTime,
  layerSpan,
  LONG_SCALE_PX,
  MIN_LAYER_SPAN,
  pxPerSecond,
  RULER_WIDTH,
  rulerTicks,
  sceneIndexAt,
  sceneStarts,
  scrollForZoom,
  snap,
  snapTargets,
  ZOOM_LEVELS,
} from './timelineMath';

const bar = (id: number, startTime: number, endTime: number) => ({ id, startTime, endTime }) as unknown as Layer;

describe('zoom levels and the ruler', () => {
  it('has the 9 levels of the spec, seconds per long scale of 10 small scales of 10 px', () => {
    expect(ZOOM_LEVELS).toEqual([3, 2.5, 2, 1.5, 1, 0.5, 0.4, 0.2, 0.1]);
    expect(LONG_SCALE_PX).toBe(100);
    expect(pxPerSecond(4)).toBe(100);
    expect(pxPerSecond(0)).toBeCloseTo(100 / 3);
    expect(pxPerSecond(8)).toBeCloseTo(1000);
  });

  it('clamps levels to the 9', () => {
    expect(clampLevel(-3)).toBe(0);
    expect(clampLevel(12)).toBe(8);
    expect(pxPerSecond(99)).toBe(pxPerSecond(8));
  });

  it('is at least 3800 px wide, and wider for a long document', () => {
    expect(axisWidth(6, 4)).toBe(RULER_WIDTH);
    expect(axisWidth(60, 8)).toBeGreaterThanOrEqual(60 * 1000);
  });

  it('keeps the time under the pointer in place across a zoom', () => {
    const left = scrollForZoom(200, 100, 4, 5);
    // 3 s at 100 px/s under x = 100; at 200 px/s it is at 600, so the view starts at 500.
    expect(left).toBeCloseTo(500);
    expect(scrollForZoom(0, 0, 5, 4)).toBe(0);
  });

  it('draws a long, labelled tick every 10 small ones', () => {
    const ticks = rulerTicks(4, 0, 200);
    expect(ticks.map((t) => t.x)).toEqual(Array.from({ length: 21 }, (_, i) => i * 10));
    expect(ticks.filter((t) => t.long).map((t) => t.label)).toEqual(['00:00', '00:01', '00:02']);
    expect(rulerTicks(8, 100, 100).find((t) => t.long)?.label).toBe('00:00.1');
  });

  it('formats times', () => {
    expect(formatTime(75.25)).toBe('01:15');
    expect(formatTime(75.25, true)).toBe('01:15.3');
    expect(formatTime(-1, true)).toBe('00:00.0');
  });
});

describe('scenes on the axis', () => {
  const scenes = [3, 5, 2].map((len, i) => ({ ...newScene(i + 1), timeLength: len }));

  it('starts each scene after the ones before it', () => {
    expect(sceneStarts(scenes)).toEqual([0, 3, 8, 10]);
    expect(sceneIndexAt([0, 3, 8, 10], 0)).toBe(0);
    expect(sceneIndexAt([0, 3, 8, 10], 2.99)).toBe(0);
    expect(sceneIndexAt([0, 3, 8, 10], 3)).toBe(1);
    expect(sceneIndexAt([0, 3, 8, 10], 10)).toBe(2);
  });

  it('moves every later layer with a longer scene: their times are from their own scene start', () => {
    const layer = bar(9, 1, 2);
    const before = barOnAxis(sceneStarts(scenes)[2]!, layerSpan(layer, 2));
    const longer = scenes.map((s, i) => (i === 0 ? { ...s, timeLength: 4.5 } : s));
    const after = barOnAxis(sceneStarts(longer)[2]!, layerSpan(layer, 2));
    expect(before).toEqual([9, 10]);
    expect(after).toEqual([10.5, 11.5]);
    // An earlier scene's layer stays where it was.
    expect(barOnAxis(sceneStarts(longer)[0]!, [1, 2])).toEqual([1, 2]);
  });

  it('never makes a scene shorter than 2 s, and snaps its end', () => {
    expect(editSceneLength(3, -5, [], 0.1)).toBe(2);
    expect(editSceneLength(3, 1.96, [5], 0.06)).toBe(5);
    expect(editSceneLength(3, 1.5, [5], 0.06)).toBe(4.5);
  });

  it('reads an open end as the scene end', () => {
    expect(layerSpan(bar(1, 0.5, null as unknown as number), 4)).toEqual([0.5, 4]);
  });
});

describe('bars: snapping and limits', () => {
  const layers = [bar(1, 0, 3), bar(2, 1.5, 2.5)];

  it('snaps to the nearest target within the threshold', () => {
    expect(snap(2.97, [0, 3, 5], 0.06)).toBe(3);
    expect(snap(2.9, [0, 3, 5], 0.06)).toBe(2.9);
    expect(snap(2.98, [2.95, 3], 0.06)).toBe(3);
    expect(snap(2.96, [2.95, 3], 0.06)).toBe(2.95);
  });

  it('snaps to the scene edges, the other bars and the playhead', () => {
    expect(snapTargets(layers, 5, 1, 4.2).sort()).toEqual([0, 1.5, 2.5, 4.2, 5].sort());
    expect(snapTargets(layers, 5, 2, null).sort()).toEqual([0, 0, 3, 5].sort());
  });

  it('moves a bar keeping its length, snapping either edge, never before 0', () => {
    const targets = snapTargets(layers, 5, 2, null);
    expect(editBar([1.5, 2.5], 'move', 0.47, targets, 0.06)).toEqual([2, 3]);
    expect(editBar([1.5, 2.5], 'move', 0.2, targets, 0.06)).toEqual([1.7, 2.7]);
    expect(editBar([1.5, 2.5], 'move', -1.48, targets, 0.06)).toEqual([0, 1]);
    expect(editBar([1.5, 2.5], 'move', -4, targets, 0.06)).toEqual([0, 1]);
  });

  it('trims the start, never past the end less the shortest span, nor before 0', () => {
    const targets = snapTargets(layers, 5, 2, null);
    expect(editBar([1.5, 2.5], 'start', -1.48, targets, 0.06)).toEqual([0, 2.5]);
    expect(editBar([1.5, 2.5], 'start', 5, targets, 0.06)[0]).toBeCloseTo(2.5 - MIN_LAYER_SPAN);
    expect(editBar([1.5, 2.5], 'start', -3, [], 0.06)).toEqual([0, 2.5]);
  });

  it('trims the end, never before the start plus the shortest span; past the scene end is allowed', () => {
    const targets = snapTargets(layers, 5, 2, 4);
    expect(editBar([1.5, 2.5], 'end', 1.47, targets, 0.06)).toEqual([1.5, 4]);
    expect(editBar([1.5, 2.5], 'end', -3, targets, 0.06)[1]).toBeCloseTo(1.5 + MIN_LAYER_SPAN);
    expect(editBar([1.5, 2.5], 'end', 4, targets, 0.06)).toEqual([1.5, 6.5]);
  });
});

describe('trimming a video in cut mode', () => {
  const bar: [number, number] = [1, 4];
  const cut = { start: 2, end: 5 };

  it('moves the cut start with the head, keeping the frames in place', () => {
    expect(cutTrim(bar, [1.5, 4], cut, 10)).toEqual({ span: [1.5, 4], cut: { start: 2.5, end: 5 } });
  });

  it('never reaches before the first frame of the source', () => {
    expect(cutTrim(bar, [0, 4], cut, 10)).toEqual({ span: [0, 4], cut: { start: 1, end: 5 } });
    expect(cutTrim([3, 6], [0, 6], cut, 10)).toEqual({ span: [1, 6], cut: { start: 0, end: 5 } });
  });

  it('moves the cut end with the tail, up to the source duration', () => {
    expect(cutTrim(bar, [1, 3], cut, 10)).toEqual({ span: [1, 3], cut: { start: 2, end: 4 } });
    expect(cutTrim(bar, [1, 12], cut, 10)).toEqual({ span: [1, 9], cut: { start: 2, end: 10 } });
  });

  it('knows no end when the duration is unknown', () => {
    expect(cutTrim(bar, [1, 12], cut, 0)).toEqual({ span: [1, 12], cut: { start: 2, end: 13 } });
  });
});
