import { boxForCrop, clampCrop, coverCrop, MIN_CROP_PX, MIN_VIDEO_CROP_PX, toSourceBox, toVideoBox, uprightSize } from './crop';

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

  it('takes a video crop\'s minimum side when told', () => {
    expect(clampCrop({ x: 0, y: 0, w: 4, h: 4 }, 320, 180, MIN_VIDEO_CROP_PX)).toEqual({ x: 0, y: 0, w: 16, h: 16 });
  });
});

describe('the box in the picture\'s own pixels', () => {
  it('is the library\'s size when it is the one shown, the shown one when the library has none', () => {
    expect(uprightSize({ w: 4000, h: 3000 }, { w: 4000, h: 3000 })).toEqual({ w: 4000, h: 3000 });
    expect(uprightSize(null, { w: 640, h: 480 })).toEqual({ w: 640, h: 480 });
    expect(uprightSize({ w: 0, h: 0 }, { w: 640, h: 480 })).toEqual({ w: 640, h: 480 });
  });

  it('turns a stored sideways size (EXIF orientation the library did not read) to the upright one the browser shows', () => {
    // A phone photo stored 4000×3000, EXIF orientation 6: the browser shows it 3000×4000.
    expect(uprightSize({ w: 4000, h: 3000 }, { w: 3000, h: 4000 })).toEqual({ w: 3000, h: 4000 });
    // Shown as a smaller preview of the same orientation: not turned.
    expect(uprightSize({ w: 3000, h: 4000 }, { w: 480, h: 640 })).toEqual({ w: 3000, h: 4000 });
    // A square picture has nothing to turn.
    expect(uprightSize({ w: 500, h: 500 }, { w: 500, h: 500 })).toEqual({ w: 500, h: 500 });
  });

  it('scales a box picked on the shown picture to the picture\'s own pixels, whole and inside it', () => {
    expect(toSourceBox({ x: 10, y: 20, w: 100, h: 50 }, { w: 400, h: 300 }, { w: 400, h: 300 })).toEqual({ x: 10, y: 20, w: 100, h: 50 });
    // A preview a quarter of the picture's size.
    expect(toSourceBox({ x: 10, y: 20, w: 100, h: 50 }, { w: 400, h: 300 }, { w: 1600, h: 1200 })).toEqual({ x: 40, y: 80, w: 400, h: 200 });
    expect(toSourceBox({ x: 399.6, y: 0, w: 10, h: 10 }, { w: 400, h: 300 }, { w: 400, h: 300 })).toEqual({ x: 400, y: 0, w: 1, h: 10 });
  });

  it('keeps the EXIF-turned picture\'s box as the user saw it: its lower half stays its lower half', () => {
    // Stored 48×32 on its side (orientation 6), shown 32×48: the lower half shown is y 24–48, past
    // the stored height, which the server's upright picture holds.
    const shown = { w: 32, h: 48 };
    const source = uprightSize({ w: 48, h: 32 }, shown);
    expect(toSourceBox({ x: 0, y: 24, w: 32, h: 24 }, shown, source)).toEqual({ x: 0, y: 24, w: 32, h: 24 });
  });
});

describe('the box of a video crop', () => {
  it('is even, at least 16 a side and inside the video, in the video\'s own pixels', () => {
    expect(toVideoBox({ x: 41, y: 21, w: 161, h: 101 }, { w: 320, h: 180 }, { w: 320, h: 180 })).toEqual({ x: 40, y: 20, w: 160, h: 100 });
    expect(toVideoBox({ x: 0, y: 0, w: 5, h: 5 }, { w: 320, h: 180 }, { w: 320, h: 180 })).toEqual({ x: 0, y: 0, w: 16, h: 16 });
    expect(toVideoBox({ x: 310, y: 170, w: 16, h: 16 }, { w: 320, h: 180 }, { w: 320, h: 180 })).toEqual({ x: 304, y: 164, w: 16, h: 16 });
    // The frame played at half the video's size.
    expect(toVideoBox({ x: 10, y: 5, w: 100, h: 50 }, { w: 640, h: 360 }, { w: 1280, h: 720 })).toEqual({ x: 20, y: 10, w: 200, h: 100 });
    // An odd-sized video: the box stays inside its even part.
    expect(toVideoBox({ x: 0, y: 0, w: 321, h: 181 }, { w: 321, h: 181 }, { w: 321, h: 181 })).toEqual({ x: 0, y: 0, w: 320, h: 180 });
  });
});
