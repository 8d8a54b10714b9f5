import { decorationThickness, textBoxStyle } from './textBoxStyle';

const layer = { fontSize: 70, lineHeight: 1.2, bold: false, italic: false, underline: true, strikeThrough: false, textAlign: 'center', letterSpacing: 0 };

describe('textBoxStyle', () => {
  it("puts the underline where the renderer draws it: its top 0.12 em below the baseline, size/14 thick", () => {
    const css = textBoxStyle(layer, 0.5, 'Noto Sans CJK SC');
    expect(css.textDecoration).toBe('underline');
    expect(css.textUnderlineOffset).toBe('0.12em');
    expect(css.textDecorationThickness).toBeCloseTo(2.5);
  });

  it('keeps a line at least one video pixel thick', () => {
    expect(decorationThickness(7)).toBe(1);
    expect(decorationThickness(140)).toBeCloseTo(10);
    expect(textBoxStyle({ ...layer, fontSize: 7 }, 2, 'x').textDecorationThickness).toBe(2);
  });
});
