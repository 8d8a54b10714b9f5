import { CATALOGUE } from './gen/catalogue';
import { adjustmentsCss, blurCss, catalogueFilterCss, joinFilters } from './filterCss';

describe('catalogue filters as CSS', () => {
  it('writes every catalogue filter with its operations in order', () => {
    for (const f of CATALOGUE.filters) expect(catalogueFilterCss(f.key, 1).length).toBe(f.ops.length);
    expect(catalogueFilterCss('blackWhite', 1)).toEqual(['grayscale(1)']);
    expect(catalogueFilterCss('warm', 1)).toEqual(['sepia(0.3)', 'saturate(1.3)', 'hue-rotate(-10deg)']);
    expect(catalogueFilterCss('cool', 1)).toEqual(['hue-rotate(20deg)', 'saturate(0.9)', 'brightness(1.05)']);
    expect(catalogueFilterCss('invert', 1)).toEqual(['invert(1)']);
  });

  it('names a filter by key or numeric id, nothing for "" or an unknown one', () => {
    expect(catalogueFilterCss('1', 1)).toEqual(['grayscale(1)']);
    expect(catalogueFilterCss('', 1)).toEqual([]);
    expect(catalogueFilterCss('none', 1)).toEqual([]);
    expect(catalogueFilterCss('sparkle', 1)).toEqual([]);
  });

  it('blurs as the renderer does: a Gaussian of σ = half the radius, after the colours', () => {
    // The catalogue's blur: radius 4 editing pixels, at 1.5 screen pixels each.
    expect(catalogueFilterCss('blur', 1.5)).toEqual(['blur(3px)']);
    expect(blurCss(0)).toBeUndefined();
    expect(blurCss(10)).toBe('blur(5px)');
  });

  it('writes a video’s adjustments only when they change something, clamped to 0–200 %', () => {
    expect(adjustmentsCss(100, 100, 100)).toEqual([]);
    expect(adjustmentsCss(150, 50, 300)).toEqual(['brightness(1.5)', 'contrast(0.5)', 'saturate(2)']);
    expect(joinFilters([])).toBeUndefined();
    expect(joinFilters(['grayscale(1)', undefined, 'blur(2px)'])).toBe('grayscale(1) blur(2px)');
  });
});
