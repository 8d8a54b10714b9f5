import { boxForCrop, clampCrop, coverCrop, MIN_CROP_PX } from './crop';

describe('crop maths', () => {
  it('starts from what the box shows: the centred crop of its ratio, as the renderer draws it', () => {
    expect(coverCrop(1000, 500, 200, 200)).toEqual({ x: 250, y: 0, w: 500, h: 500 });
    expect(coverCrop(400, 800, 200, 100)).toEqual({ x: 0, y: 300, w: 400, h: 200 });
    expect(coverCrop(640, 360, 320, 180)).toEqual({ x: 0, y: 0, w: 640, h: 360 });
  });

  it('keeps a crop inside the picture, whole pixels, not below the minimum', () => {
    expect(clampCrop({ x: -10, y: 5.4, w: 100.6, h: 50 }, 400, 300)).toEqual({ x: 0, y: 5, w: 101, h: 50 });
    expect(clampCrop({ x: 390, y: 290, w: 100, h: 100 }, 400, 300)).toEqual({ x: 300, y: 200, w: 100, h: 100 });
    expect(clampCrop({ x: 0, y: 0, w: 1, h: 1 }, 400, 300)).toEqual({ x: 0, y: 0, w: MIN_CROP_PX, h: MIN_CROP_PX });
  });

  it('gives the layer the crop\'s ratio, keeping its width and centre', () => {
    expect(boxForCrop({ x: 10, y: 10, w: 200, h: 130 }, { x: 0, y: 0, w: 400, h: 100 })).toEqual({ x: 10, y: 50, w: 200, h: 50 });
  });
});
