import { buildLayer } from '@/editor/state/defaults';
import { newRule } from '@/editor/state/defaults';
import type { ShapeLayer } from './gen/ShapeLayer';
import { paintedShapeSvg, shapeImageUrl } from './shapeSvg';

const CODE = '<svg viewBox="0 0 100 100" width="100" height="100"><path d="M0 0L100 0L50 100Z" fill="currentColor"/><circle cx="50" cy="50" r="5" fill="none"/></svg>';

function shape(changes: Partial<ShapeLayer> = {}): ShapeLayer & { shapeCode: string } {
  const layer = buildLayer({ kind: 'shape', shape: 'rect', shapeCode: CODE }, 1, 100, [0, 3], newRule().resolutionRatio) as ShapeLayer;
  return { ...layer, shapeCode: CODE, ...changes };
}

describe('paintedShapeSvg', () => {
  it('puts the layer fill on every element, keeps [fill=none] holes and stretches the drawing', () => {
    const svg = paintedShapeSvg(shape({ fill: '#ff0000', w: 200 }));
    expect(svg).toMatch(/^<svg preserveAspectRatio="none" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox/);
    expect(svg).toContain('<style>* { fill: #ff0000 } [fill=none] { fill: none } [stroke=none] { stroke: none }</style>');
  });

  it('gives the stroke in the SVG units, as the renderer does', () => {
    // 4 editing pixels over a 200 px wide box of a 100-unit drawing: 2 units.
    const svg = paintedShapeSvg(shape({ fill: '', stroke: '#00ff00', strokeWidth: 4, w: 200 }));
    expect(svg).toContain('* { stroke: #00ff00; stroke-width: 2 }');
    expect(svg).not.toContain('fill: #');
  });

  it('fills a gradient from top left to bottom right', () => {
    const svg = paintedShapeSvg(shape({ fillType: 'gradient', gradientColors: ['#111111', '#222222'] }));
    expect(svg).toContain('<linearGradient id="reelforge-fill" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#111111"/>');
    expect(svg).toContain('* { fill: url(#reelforge-fill) }');
  });

  it('keeps a multi-colour drawing as it is', () => {
    const svg = paintedShapeSvg(shape({ svgStyleType: 'specialSvg', fill: '#ff0000' }));
    expect(svg).not.toContain('<style>');
  });

  it('makes a data address', () => {
    expect(shapeImageUrl(shape())).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  });
});
