/**
 * A transition's composite (`model/transition.ts`) written as CSS on the two scene frames: each
 * plane moved by (dx, dy) frame lengths and scaled about the frame's centre, as
 * `compose/transition.rs` places it; its mask as a clip path (rectangles) or a mask image (circle,
 * blinds, wedge) with the same edges; the mosaic approximated by a blur of half its cell; the flash
 * as a coloured layer on top.
 */
import type { CSSProperties } from 'react';
import type { Composite } from '@/editor/model/gen/Composite';
import type { Mask } from '@/editor/model/gen/Mask';
import type { Plane } from '@/editor/model/gen/Plane';

const pct = (v: number) => `${+(v * 100).toFixed(4)}%`;

/** Returns the CSS of a mask on a width × height frame (an inverted mask shows what is outside). */
export function maskCss(mask: Mask, invert: boolean, width: number, height: number): CSSProperties {
  switch (mask.kind) {
    case 'full':
      return invert ? { visibility: 'hidden' } : {};
    case 'rect': {
      const inner = `${pct(mask.x0)} ${pct(mask.y0)}, ${pct(mask.x1)} ${pct(mask.y0)}, ${pct(mask.x1)} ${pct(mask.y1)}, ${pct(mask.x0)} ${pct(mask.y1)}`;
      return { clipPath: invert ? `polygon(evenodd, 0% 0%, 100% 0%, 100% 100%, 0% 100%, 0% 0%, ${pct(mask.x0)} ${pct(mask.y0)}, ${inner})` : `polygon(${inner})` };
    }
    case 'circle': {
      // r is a share of half the frame's diagonal (transition::mask_contains).
      const r = +(mask.r * 0.5 * Math.hypot(width, height)).toFixed(2);
      const [inside, outside] = invert ? ['transparent', '#000'] : ['#000', 'transparent'];
      return withMask(`radial-gradient(circle at ${pct(mask.cx)} ${pct(mask.cy)}, ${inside} ${r}px, ${outside} ${r}px)`);
    }
    case 'blinds': {
      const count = Math.max(mask.count, 1);
      const slat = (mask.axis === 'x' ? width : height) / count;
      const cut = +(slat * mask.fraction).toFixed(3);
      const [on, off] = invert ? ['transparent', '#000'] : ['#000', 'transparent'];
      return withMask(`repeating-linear-gradient(${mask.axis === 'x' ? 'to right' : 'to bottom'}, ${on} 0px, ${on} ${cut}px, ${off} ${cut}px, ${off} ${+slat.toFixed(3)}px)`);
    }
    case 'wedge': {
      // Angles from straight up, clockwise (CSS conic gradients measure the same way).
      const sweep = +mask.sweep.toFixed(3);
      const shown = mask.clockwise ? `#000 0deg, #000 ${sweep}deg, transparent ${sweep}deg` : `transparent 0deg, transparent ${360 - sweep}deg, #000 ${360 - sweep}deg`;
      const gradient = `conic-gradient(from 0deg at 50% 50%, ${shown})`;
      return invert ? withMask(gradient, true) : withMask(gradient);
    }
  }
}

function withMask(image: string, exclude = false): CSSProperties {
  const full = 'linear-gradient(#000, #000)';
  if (exclude) {
    return { maskImage: `${full}, ${image}`, maskComposite: 'exclude', WebkitMaskImage: `${full}, ${image}`, WebkitMaskComposite: 'xor' } as CSSProperties;
  }
  return { maskImage: image, WebkitMaskImage: image };
}

/** Returns the CSS of one plane of a composite on a width × height frame. */
export function planeCss(plane: Plane, width: number, height: number): CSSProperties {
  const moved = plane.dx !== 0 || plane.dy !== 0;
  const scaled = plane.sx !== 1 || plane.sy !== 1;
  const transform = [moved ? `translate(${+(plane.dx * width).toFixed(2)}px, ${+(plane.dy * height).toFixed(2)}px)` : '', scaled ? `scale(${plane.sx}, ${plane.sy})` : ''].filter(Boolean).join(' ');
  return {
    transform: transform || undefined,
    transformOrigin: '50% 50%',
    opacity: plane.alpha < 1 ? plane.alpha : undefined,
    visibility: plane.alpha <= 0 || plane.sx <= 0 || plane.sy <= 0 ? 'hidden' : undefined,
    ...maskCss(plane.mask, plane.invert, width, height),
  };
}

/** Returns the blur (CSS pixels) that stands for the mosaic's cell on a frame this wide. */
export function pixelateBlur(composite: Composite, width: number): number {
  return composite.pixelate > 0 ? (composite.pixelate * width) / 2 : 0;
}
