import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import { layerBox, safeZoneHits, zonesOf } from './safeZones';

const FRAME = { width: 540, height: 960 };
const QS = { top: 22, bottom: 24 };

/** A layer of `type` with a box; only the fields the function reads matter. */
const layer = (id: number, type: Layer['type'], x: number, y: number, w: number, h: number, rotate = 0): Layer =>
  ({ id, type, x, y, w, h, rotate, z: 100, content: `文字${id}` }) as unknown as Layer;

const doc = (...scenes: Layer[][]): Pick<Rule, 'scenes' | 'resolutionRatio'> =>
  ({
    resolutionRatio: { name: '9:16', ...FRAME, ratio: 9 / 16, sizeId: 50, targetWidth: 1080 },
    scenes: scenes.map((layers) => ({ layers, timeLength: 5 })),
  }) as unknown as Pick<Rule, 'scenes' | 'resolutionRatio'>;

describe('zonesOf', () => {
  // qs: the top band ends at 22 % of 960 = 211.2 px, the bottom band starts at 76 % = 729.6 px.
  it('finds a box in the top band, the bottom band, both or neither', () => {
    expect(zonesOf({ left: 10, top: 100, right: 200, bottom: 150 }, FRAME, QS)).toEqual(['top']);
    expect(zonesOf({ left: 10, top: 700, right: 200, bottom: 800 }, FRAME, QS)).toEqual(['bottom']);
    expect(zonesOf({ left: 0, top: 0, right: 540, bottom: 960 }, FRAME, QS)).toEqual(['top', 'bottom']);
    expect(zonesOf({ left: 10, top: 300, right: 200, bottom: 600 }, FRAME, QS)).toEqual([]);
  });

  it('does not count a box that only touches a band edge', () => {
    expect(zonesOf({ left: 10, top: 211.2, right: 200, bottom: 729.6 }, FRAME, QS)).toEqual([]);
    expect(zonesOf({ left: 10, top: 211.1, right: 200, bottom: 300 }, FRAME, QS)).toEqual(['top']);
  });

  it('ignores a box wholly outside the frame', () => {
    expect(zonesOf({ left: -300, top: 10, right: -10, bottom: 50 }, FRAME, QS)).toEqual([]);
    expect(zonesOf({ left: 10, top: -80, right: 100, bottom: -1 }, FRAME, QS)).toEqual([]);
    expect(zonesOf({ left: 10, top: 970, right: 100, bottom: 1000 }, FRAME, QS)).toEqual([]);
  });

  it('has no band when the profile names none', () => {
    expect(zonesOf({ left: 0, top: 0, right: 540, bottom: 960 }, FRAME, { top: 0, bottom: 0 })).toEqual([]);
  });

  it('follows the profile: cu bands (20 / 22) are narrower than migu (25 / 26)', () => {
    const box = { left: 10, top: 200, right: 100, bottom: 230 };
    expect(zonesOf(box, FRAME, { top: 20, bottom: 22 })).toEqual([]);
    expect(zonesOf(box, FRAME, { top: 25, bottom: 26 })).toEqual(['top']);
  });
});

describe('layerBox', () => {
  it('is the box itself without rotation', () => {
    expect(layerBox({ x: 10, y: 20, w: 100, h: 50, rotate: 0 })).toEqual({ left: 10, top: 20, right: 110, bottom: 70 });
  });

  it('covers the rotated corners', () => {
    const box = layerBox({ x: 0, y: 300, w: 200, h: 20, rotate: 90 });
    expect(box.left).toBeCloseTo(90);
    expect(box.right).toBeCloseTo(110);
    expect(box.top).toBeCloseTo(210);
    expect(box.bottom).toBeCloseTo(410);
  });
});

describe('safeZoneHits', () => {
  it('names the text, art-word and picture layers in a band, scene by scene', () => {
    const hits = safeZoneHits(
      doc(
        [layer(1, 'word', 20, 40, 300, 60), layer(2, 'shape', 0, 0, 540, 960), layer(3, 'picture', 100, 400, 100, 100), layer(4, 'artWord', 20, 800, 300, 80)],
        [layer(5, 'video', 0, 0, 540, 960), layer(6, 'gif', 0, 900, 50, 50), layer(7, 'dynamicWord', 0, 0, 540, 960)],
      ),
      QS,
    );
    expect(hits.map((h) => [h.sceneIndex, h.layer.id, h.zones])).toEqual([
      [0, 1, ['top']],
      [0, 4, ['bottom']],
      [1, 6, ['bottom']],
      [1, 7, ['top', 'bottom']],
    ]);
  });

  it('finds nothing in a document that keeps clear of the bands', () => {
    expect(safeZoneHits(doc([layer(1, 'word', 20, 300, 300, 60)]), QS)).toEqual([]);
  });

  it('catches a rotated layer whose corners reach a band', () => {
    expect(safeZoneHits(doc([layer(1, 'word', 0, 300, 200, 20, 90)]), QS).map((h) => h.zones)).toEqual([['top']]);
  });
});
