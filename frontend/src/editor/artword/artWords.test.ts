import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import { buildLayer, newRule } from '@/editor/state/defaults';
import { ART_WORD_STYLES, artWordPaint, readBorder } from './artWords';

const stage = newRule().resolutionRatio;
const art = (style = ART_WORD_STYLES[0]!) => buildLayer({ kind: 'artWord', style, content: '新品' }, 7, 100, [0, 3], stage) as ArtWordLayer & { type: 'artWord' };

describe('art words', () => {
  it('makes an artWord layer, bold and centred, in the picked style', () => {
    const l = art();
    expect(l).toMatchObject({ type: 'artWord', id: 7, content: '新品', bold: true, alpha: 255, color1: '#fff3b0', color2: '#e0a100', border1: { color: '#7a4a00', width: 2 }, border2: '' });
    expect(l.x + l.w / 2).toBeCloseTo(stage.width / 2);
    expect(l.y + l.h / 2).toBeCloseTo(stage.height / 2);
  });

  it('reads borders as art_border::read does', () => {
    expect(readBorder('#ff0000')).toEqual({ color: '#ff0000', width: 2 });
    expect(readBorder({ color: 'rgb(0, 0, 255)', width: 5 })).toEqual({ color: 'rgb(0, 0, 255)', width: 5 });
    expect(readBorder({ color: '#000', width: ' 3.5 ' })).toEqual({ color: '#000', width: 3.5 });
    expect(readBorder({ color: '#000', width: 'wide' })).toEqual({ color: '#000', width: 2 });
    expect(readBorder({ color: '#000', width: 0 })).toBeNull();
    expect(readBorder('')).toBeNull();
    expect(readBorder(null)).toBeNull();
    expect(readBorder({ color: 'not a colour' })).toBeNull();
  });

  it('paints as the renderer: gradient when both colours read, the outer border at the summed width, widest first', () => {
    const l = { ...art(), border1: { color: '#ffffff', width: 3 }, border2: { color: '#e5242b', width: 2 }, borderWidth: 1, borderColor: '#000000', shadowColor: '#333333', alpha: 128 };
    const p = artWordPaint(l);
    expect(p.fill).toEqual({ gradient: ['#fff3b0', '#e0a100'] });
    expect(p.strokes).toEqual([
      { color: '#e5242b', width: 5 },
      { color: '#ffffff', width: 3 },
      { color: '#000000', width: 1 },
    ]);
    expect(p.shadow).toBe('#333333');
    expect(p.opacity).toBeCloseTo(128 / 255);
  });

  it('falls back to fillColor, then the text colour', () => {
    expect(artWordPaint({ ...art(), color1: '', fillColor: '#123456' }).fill).toEqual({ solid: '#123456' });
    expect(artWordPaint({ ...art(), color1: '', fillColor: '', color: '#abcdef' }).fill).toEqual({ solid: '#abcdef' });
    expect(artWordPaint({ ...art(), color1: '', fillColor: '', color: '#abcdef', reqColor: '#00ff00' }).fill).toEqual({ solid: '#00ff00' });
  });

  it('makes a still effect a specialEffects layer over the whole stage', () => {
    const l = buildLayer({ kind: 'effect', src: '/diyvrbt/material/file/9/original', materialId: '9', name: '光斑' }, 3, 101, [0, 3], stage);
    expect(l).toMatchObject({ type: 'specialEffects', x: 0, y: 0, w: stage.width, h: stage.height, name: '光斑', materialId: '9' });
  });
});
