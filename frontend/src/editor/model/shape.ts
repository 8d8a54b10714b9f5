/**
 * The outline of a shape drawn without its SVG, as `services/timeline/src/shape.rs` says (the
 * renderer draws the same; shared vectors `shape_outline.json`).
 */

/** What a basic shape kind draws in its box. */
export type Outline = { kind: 'ellipse' } | { kind: 'line' } | { kind: 'polygon'; points: [number, number][] } | { kind: 'rect' };

/** A regular polygon (or a star of `n` points, inner radius 0.45) inscribed in the box's ellipse, its first vertex at the top. */
function regular(n: number, w: number, h: number, star: boolean): Outline {
  const count = star ? n * 2 : n;
  const points = Array.from({ length: count }, (_, i): [number, number] => {
    const a = (2 * Math.PI * i) / count - Math.PI / 2;
    const r = star && i % 2 === 1 ? 0.45 : 1;
    return [w / 2 + (Math.cos(a) * r * w) / 2, h / 2 + (Math.sin(a) * r * h) / 2];
  });
  return { kind: 'polygon', points };
}

/** Returns the outline of a basic shape kind in a `w`×`h` box. */
export function shapeOutline(kind: string, w: number, h: number): Outline {
  switch (kind) {
    case 'circle':
    case 'face':
    case 'sun':
    case 'simple-sun':
    case 'no-border-smile':
      return { kind: 'ellipse' };
    case 'line':
    case 'wave-line':
    case 'poly-line':
    case 'divide_line1':
    case 'divide_line2':
    case 'divide_line3':
      return { kind: 'line' };
    case 'equilateral-triangle':
    case 'isosceles-triangle':
      return regular(3, w, h, false);
    case 'right-triangle':
      return { kind: 'polygon', points: [[0, 0], [0, h], [w, h]] };
    case 'hexagon':
      return regular(6, w, h, false);
    case 'octagon':
      return regular(8, w, h, false);
    case 'simple-star':
    case 'star':
    case 'more-angle-pic':
    case 'min-snow':
    case 'complex-snow':
      return regular(5, w, h, true);
    default:
      return { kind: 'rect' };
  }
}

/** Rounded to two decimals and written shortest, as the renderer writes numbers into a drawing. */
function short(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/**
 * The drawing a catalogue rectangle is painted from, in place of its `shapeCode`: the box at the
 * layer's size with its corner radius (at most half the shorter side), so the radius rounds it
 * however the box is stretched (`services/timeline/src/shape.rs` `rect_drawing`; shared vectors).
 */
function rectDrawing(w: number, h: number, radius: number): string {
  const [bw, bh] = [Math.max(1, w), Math.max(1, h)];
  const r = Math.min(Math.max(0, radius), Math.min(bw, bh) / 2);
  const [sw, sh, sr] = [short(bw), short(bh), short(r)];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${sw} ${sh}" width="${sw}" height="${sh}" fill="currentColor"><rect width="${sw}" height="${sh}" rx="${sr}"/></svg>`;
}

/**
 * What a shape layer is painted from: null draws the basic outline (no `shapeCode`), a rectangle
 * that takes the layer's paint is its `rectDrawing`, anything else its own `shapeCode`
 * (`services/timeline/src/shape.rs` `shape_drawing`; shared vectors).
 */
export function shapeDrawing(kind: string, code: string, svgStyleType: string, w: number, h: number, radius: number): string | null {
  if (code.trim() === '') return null;
  if (kind === 'rect' && svgStyleType !== 'specialSvg') return rectDrawing(w, h, radius);
  return code;
}
