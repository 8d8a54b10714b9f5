import { stageMargin, stageScale } from './Stage';

const FIT = { fit: true, zoom: 1 };

describe('the fitted stage', () => {
  it.each([
    [{ width: 360, height: 640 }, { width: 246, height: 410 }],
    [{ width: 640, height: 360 }, { width: 652, height: 382 }],
    [{ width: 640, height: 480 }, { width: 536, height: 410 }],
    [{ width: 640, height: 640 }, { width: 1001, height: 690 }],
  ])('of a %o document in a %o frame is a whole number of pixels each way', (doc, frame) => {
    const scale = stageScale(FIT, frame, doc);
    const [w, h] = [doc.width * scale, doc.height * scale];
    expect(Math.abs(w - Math.round(w))).toBeLessThan(1e-9);
    expect(Math.abs(h - Math.round(h))).toBeLessThan(1e-9);
    expect(w).toBeLessThanOrEqual(frame.width - 32);
    expect(h).toBeLessThanOrEqual(frame.height - 32);
    // At most one ratio unit narrower than the exact fit.
    const exact = Math.min((frame.width - 32) / doc.width, (frame.height - 32) / doc.height);
    expect(doc.width * exact - w).toBeLessThan(doc.width / 40 + 1e-9);
  });

  it('keeps the zoom the user chose', () => {
    expect(stageScale({ fit: false, zoom: 1.37 }, { width: 500, height: 500 }, { width: 360, height: 640 })).toBe(1.37);
  });

  it('sits on whole pixels, centred', () => {
    expect(stageMargin({ width: 411, height: 700 }, { width: 369, height: 656 })).toBe('22px 0 0 21px');
    expect(stageMargin({ width: 300, height: 300 }, { width: 400, height: 400 })).toBe('0px 0 0 0px');
  });
});
