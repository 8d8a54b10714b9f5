/**
 * The catalogue's filters as CSS filter functions, so the stage shows what the renderer draws
 * (`services/render/src/compose/filter.rs`). The catalogue's operations are the CSS Filter Effects
 * ones and the renderer builds each with the matrix that specification gives, so the functions
 * written in the catalogue's order draw the same colours; the renderer clamps once after the whole
 * matrix where the browser clamps after each function, which differs only for colours an
 * operation pushes past white. Blurs are the renderer's Gaussian of σ = half the radius.
 */
import { findFilter } from './catalogue';
import type { FilterOp } from './gen/FilterOp';

/** A CSS blur of a renderer blur radius given in screen pixels (σ = radius / 2). */
export function blurCss(radiusPx: number): string | undefined {
  return radiusPx > 0 ? `blur(${radiusPx / 2}px)` : undefined;
}

function opCss(op: FilterOp): string | undefined {
  switch (op.op) {
    case 'brightness':
      return `brightness(${op.amount})`;
    case 'contrast':
      return `contrast(${op.amount})`;
    case 'saturate':
      return `saturate(${op.amount})`;
    case 'grayscale':
      return `grayscale(${op.amount})`;
    case 'sepia':
      return `sepia(${op.amount})`;
    case 'invert':
      return `invert(${op.amount})`;
    case 'hueRotate':
      return `hue-rotate(${op.amount}deg)`;
    case 'blur':
      return undefined;
  }
  return undefined;
}

/**
 * The CSS filter of a catalogue filter named by key or id ("" and unknown names: none).
 * `blurPx` turns the filter's blur radius into screen pixels: the renderer applies the colour
 * matrix first, then the blur.
 */
export function catalogueFilterCss(name: string, blurPx: number): string[] {
  const f = findFilter(name);
  if (!f) return [];
  const colour = f.ops.map(opCss).filter((c): c is string => c !== undefined);
  const radius = f.ops.reduce((sum, op) => (op.op === 'blur' ? sum + op.amount : sum), 0);
  const blur = blurCss(radius * blurPx);
  return blur ? [...colour, blur] : colour;
}

/** A video's brightness, contrast and saturation percentages (100 leaves it as it is), clamped as the renderer clamps them. */
export function adjustmentsCss(brightness: number, contrast: number, saturation: number): string[] {
  const pct = (v: number) => Math.min(200, Math.max(0, v)) / 100;
  const out: string[] = [];
  if (Math.abs(brightness - 100) > 0.01) out.push(`brightness(${pct(brightness)})`);
  if (Math.abs(contrast - 100) > 0.01) out.push(`contrast(${pct(contrast)})`);
  if (Math.abs(saturation - 100) > 0.01) out.push(`saturate(${pct(saturation)})`);
  return out;
}

/** Joins filter functions into a CSS `filter` value, undefined for none. */
export function joinFilters(parts: ReadonlyArray<string | undefined>): string | undefined {
  const kept = parts.filter((p): p is string => Boolean(p));
  return kept.length > 0 ? kept.join(' ') : undefined;
}
