/**
 * A shape layer's `shapeCode` painted as the renderer paints it (services/render/src/compose/shape.rs):
 * unless the drawing is multi-colour (`svgStyleType: specialSvg`), a style sheet puts the layer's
 * fill (one colour, or a top-left to bottom-right gradient of `gradientColors`) and stroke on every
 * element (type selectors beat the SVG's presentation attributes), `[fill=none]` and
 * `[stroke=none]` keep deliberate holes and outlines, and the drawing is stretched to the box.
 */
import type { ShapeLayer } from './gen/ShapeLayer';

/** The SVG's own width (its viewBox's, else its width attribute, else 100 as the catalogue draws). */
function svgWidth(svg: string): number {
  const open = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const box = /viewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)/i.exec(open);
  const width = /\swidth\s*=\s*["']\s*([\d.]+)/i.exec(open);
  return Number(box?.[1] ?? width?.[1] ?? 100) || 100;
}

function escapeCss(colour: string): string {
  return colour.replace(/[^#\w\s(),.%-]/g, '');
}

/** The paint rules for a layer, in the SVG's own units; empty when the layer keeps the SVG's paint. */
function sheet(layer: ShapeLayer, svg: string): { css: string; defs: string } {
  let css = '';
  let defs = '';
  const gradient = layer.fillType === 'gradient' ? layer.gradientColors.filter((c) => c.trim() !== '') : [];
  if (gradient.length >= 2) {
    defs =
      '<defs><linearGradient id="reelforge-fill" x1="0" y1="0" x2="1" y2="1">' +
      `<stop offset="0" stop-color="${escapeCss(gradient[0] as string)}"/><stop offset="1" stop-color="${escapeCss(gradient[1] as string)}"/></linearGradient></defs>`;
    css += '* { fill: url(#reelforge-fill) } ';
  } else if (layer.fillType !== 'gradient' && layer.fillType !== 'image' && layer.fill.trim() !== '') {
    css += `* { fill: ${escapeCss(layer.fill)} } `;
  }
  if (layer.stroke.trim() !== '' && layer.strokeWidth > 0) {
    // The stroke width is in editing pixels; the SVG's units are its own.
    const units = (layer.strokeWidth * svgWidth(svg)) / Math.max(1, layer.w);
    css += `* { stroke: ${escapeCss(layer.stroke)}; stroke-width: ${units} } `;
  }
  if (css === '') return { css: '', defs: '' };
  return { css: `${css}[fill=none] { fill: none } [stroke=none] { stroke: none }`, defs };
}

/** The SVG text the stage draws for a shape layer with `shapeCode`, stretched to any box. */
export function paintedShapeSvg(layer: ShapeLayer & { shapeCode: string }): string {
  let svg = layer.shapeCode;
  const open = /<svg\b[^>]*>/i.exec(svg);
  if (!open) return svg;
  let tag = open[0].replace(/\spreserveAspectRatio\s*=\s*("[^"]*"|'[^']*')/i, '');
  if (!/\sxmlns\s*=/.test(tag)) tag = tag.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  tag = tag.replace(/^<svg/i, '<svg preserveAspectRatio="none"');
  const paint = layer.svgStyleType === 'specialSvg' ? { css: '', defs: '' } : sheet(layer, svg);
  const style = paint.css ? `<style>${paint.css}</style>` : '';
  svg = svg.slice(0, open.index) + tag + paint.defs + style + svg.slice(open.index + open[0].length);
  return svg;
}

/** The painted SVG as an image address (its style sheet stays inside the image, not the page). */
export function shapeImageUrl(layer: ShapeLayer & { shapeCode: string }): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(paintedShapeSvg(layer))}`;
}
