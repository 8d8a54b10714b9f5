import { REST } from '@/editor/model/animation';
import { composite } from '@/editor/model/transition';
import { maskCss, pixelateBlur, planeCss } from './compositeCss';
import { animatedCss, clipInset, previewKeyframe } from './layerCss';
import { fitRect } from './VideoCanvas';
import { backgroundTime, correctionRate, sourceTime } from './useMediaSync';
import { musicGain, musicSourceTime } from './MusicPlayer';
import type { AudioItem } from '@/editor/model/gen/AudioItem';

describe('a transition as CSS', () => {
  it('moves the planes by frame lengths', () => {
    const c = composite('MOVE_LEFT', 0.25);
    expect(planeCss(c.bottom, 640, 360).transform).toBe('translate(-160px, 0px)');
    expect(planeCss(c.top, 640, 360).transform).toBe('translate(480px, 0px)');
  });

  it('masks a wipe with a clip rectangle and an inverted curtain with an even-odd hole', () => {
    expect(planeCss(composite('ERASE_RIGHT', 0.5).top, 640, 360).clipPath).toBe('polygon(0% 0%, 50% 0%, 50% 100%, 0% 100%)');
    expect(maskCss({ kind: 'rect', x0: 0.25, y0: 0, x1: 0.75, y1: 1 }, true, 640, 360).clipPath).toMatch(/^polygon\(evenodd, 0% 0%, 100% 0%/);
  });

  it('opens a circle to the half-diagonal, and turns a wedge from straight up', () => {
    const circle = maskCss({ kind: 'circle', cx: 0.5, cy: 0.5, r: 1 }, false, 300, 400) as { maskImage: string };
    expect(circle.maskImage).toBe('radial-gradient(circle at 50% 50%, #000 250px, transparent 250px)');
    const wedge = maskCss({ kind: 'wedge', sweep: 90, clockwise: true }, false, 640, 360) as { maskImage: string };
    expect(wedge.maskImage).toBe('conic-gradient(from 0deg at 50% 50%, #000 0deg, #000 90deg, transparent 90deg)');
  });

  it('cuts blinds into 10 slats showing the fraction of each', () => {
    const blinds = maskCss({ kind: 'blinds', axis: 'y', count: 10, fraction: 0.5 }, false, 640, 360) as { maskImage: string };
    expect(blinds.maskImage).toBe('repeating-linear-gradient(to bottom, #000 0px, #000 18px, transparent 18px, transparent 36px)');
  });

  it('fades, hides and blurs the mosaic', () => {
    expect(planeCss(composite('OVERLAY', 0.4).top, 640, 360).opacity).toBeCloseTo(0.4);
    expect(planeCss(composite('MOSAIC', 0.2).top, 640, 360).visibility).toBe('hidden');
    expect(pixelateBlur(composite('MOSAIC', 0.5), 640)).toBeCloseTo(20);
  });
});

describe('a layer state as CSS', () => {
  const box = { x: 100, y: 50, w: 200, h: 100, stageW: 640, stageH: 360 };

  it('leaves a layer at rest alone', () => {
    const { outer, inner } = animatedCss(REST, box);
    expect(outer.transform).toBeUndefined();
    expect(outer.opacity).toBeUndefined();
    expect(outer.clipPath).toBeUndefined();
    expect(inner.transform).toBeUndefined();
  });

  it('moves by frame lengths, fades and scales about the box centre', () => {
    const { outer, inner, content } = animatedCss({ ...REST, offsetX: -0.5, offsetY: 0.25, opacity: 0.3, scale: 1.25 }, box);
    expect(outer).toMatchObject({ left: 100, top: 50, width: 200, height: 100, transform: 'translate(-320px, 90px)', opacity: 0.3 });
    // Scaled about the box centre (the default origin of the box-sized wrapper).
    expect(inner.transform).toBe('scale(1.25)');
    expect(inner.transformOrigin).toBeUndefined();
    // The layer places itself in stage pixels: the content wrapper puts the stage origin back.
    expect(content).toMatchObject({ left: -100, top: -50 });
  });

  it('clips to the visible part of the box from its edge', () => {
    expect(clipInset({ ...REST, clip: { edge: 'left', fraction: 0.5 } })).toBe('inset(0 50% 0 0)');
    expect(clipInset({ ...REST, clip: { edge: 'bottom', fraction: 0.25 } })).toBe('inset(75% 0 0 0)');
    expect(clipInset(REST)).toBeUndefined();
  });

  it('writes a preview keyframe keeping the rotation', () => {
    expect(previewKeyframe({ ...REST, offsetX: 0.1, clip: { edge: 'right', fraction: 0.5 } }, 30, 640, 360)).toEqual({
      transform: 'translate(64px, 0px) rotate(30deg) scale(1)',
      opacity: 1,
      clipPath: 'inset(0 0 0 50%)',
    });
  });
});

describe('media in step with the clock', () => {
  it('leaves the rate alone within half a frame and pulls a larger drift back', () => {
    expect(correctionRate(0.01, 30)).toBe(1);
    expect(correctionRate(0.1, 30)).toBeCloseTo(0.6);
    expect(correctionRate(-0.1, 30)).toBeCloseTo(1.4);
    expect(correctionRate(5, 30)).toBe(0.5);
    // A correction under way goes on past half a frame, to a tenth of one.
    expect(correctionRate(-0.01, 30, true)).toBeCloseTo(1.04);
    expect(correctionRate(-0.002, 30, true)).toBe(1);
  });

  it('plays a cut from its start and holds its last frame', () => {
    expect(sourceTime(0.5, 2, 5, 30)).toBe(2.5);
    // The cut's last frame starts a frame before its end: 2 + 89/30 s.
    expect(sourceTime(9, 2, 5, 30)).toBeCloseTo(2 + 89 / 30, 9);
    expect(sourceTime(9, 0, null, 30)).toBe(9);
  });

  const item = { startTime: 2, endTime: 8, start: 1, end: 3, len: 10, isLoop: true, volume: 100, fadeInTime: 1, fadeOutTime: 2 } as AudioItem;

  it('places music on the document, cut and looped', () => {
    expect(musicSourceTime(item, 1, 10)).toBeNull();
    expect(musicSourceTime(item, 2.5, 10)).toBe(1.5);
    expect(musicSourceTime(item, 4.5, 10)).toBe(1.5);
    expect(musicSourceTime(item, 8, 10)).toBeNull();
    expect(musicSourceTime({ ...item, isLoop: false }, 4.5, 10)).toBeNull();
  });

  it('fades music in and out at its volume', () => {
    expect(musicGain(item, 2.5, 10)).toBeCloseTo(0.5);
    expect(musicGain(item, 5, 10)).toBeCloseTo(1);
    expect(musicGain(item, 7.5, 10)).toBeCloseTo(0.25);
    expect(musicGain({ ...item, volume: 50 }, 5, 10)).toBeCloseTo(0.5);
  });
});

describe('a background clip', () => {
  it('plays its range looped, or the whole clip looped', () => {
    expect(backgroundTime([2, 4], 0.5, 10)).toBe(2.5);
    expect(backgroundTime(['2', '4'], 5, 10)).toBe(3);
    expect(backgroundTime(null, 12, 10)).toBe(2);
    expect(backgroundTime([4, 2], 3, 0)).toBe(3);
  });
});

describe('a clip drawn into its box', () => {
  it('fits whole inside, centred, or covers the box', () => {
    expect(fitRect(640, 360, 200, 200, 'contain')).toEqual([0, 43.75, 200, 112.5]);
    expect(fitRect(640, 360, 200, 200, 'cover')).toEqual([-77.77777777777777, 0, 355.55555555555554, 200]);
    expect(fitRect(0, 0, 200, 100, 'contain')).toEqual([0, 0, 200, 100]);
  });
});
