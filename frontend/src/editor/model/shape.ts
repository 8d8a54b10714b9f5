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
