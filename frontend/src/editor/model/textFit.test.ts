import { estimateMeasure, fittedTextBox, lineCount } from './textFit';

const stage = { width: 640, height: 360 };
const at34 = estimateMeasure(34);
// The default TOP text box: 10/10, half the stage wide, one line of 34 px at 1.5 plus 10 above and below.
const box = { x: 10, y: 10, w: 320, h: 71, fontSize: 34, lineHeight: 1.5 };

describe('a text box that holds its text', () => {
  it('leaves a box that already holds its text as it is', () => {
    expect(fittedTextBox({ ...box, content: '双击编辑文字' }, at34, stage)).toBeNull();
  });

  it('widens the box to the whole title rather than breaking it inside a word (铃/声), about its centre and on the stage', () => {
    const fitted = fittedTextBox({ ...box, x: 160, content: '新年手机铃声限时大促销活动' }, at34, stage);
    // 13 characters of 34 px, 4 % spare and 4 px either side.
    expect(fitted).toEqual({ x: 86, y: 10, w: 468, h: 71 });
    expect(lineCount('新年手机铃声限时大促销活动', 468 - 8, (t) => at34(t) * 1.04)).toBe(1);
    expect(fittedTextBox({ ...box, content: '新年手机铃声限时大促销活动' }, at34, stage)).toMatchObject({ x: 0, w: 468 });
  });

  it('stops at the stage width and grows as high as the lines then need', () => {
    const long = '新年手机铃声限时大促销活动'.repeat(2);
    const fitted = fittedTextBox({ ...box, y: 200, content: long }, at34, stage);
    expect(fitted).toMatchObject({ x: 0, w: 640 });
    // Two lines of 51 px and 10 above and below, grown about the centre.
    expect(fitted).toMatchObject({ h: 122, y: 175 });
  });

  it('counts its own lines, and breaks Latin text between words only', () => {
    expect(lineCount('一行\n两行', 1000, at34)).toBe(2);
    const m = estimateMeasure(10);
    // "Double-click " is 13 characters of 6 px; "to edit text" 12.
    expect(lineCount('Double-click to edit text', 100, m)).toBe(2);
    expect(lineCount('Double-click to edit text', 200, m)).toBe(1);
  });
});
