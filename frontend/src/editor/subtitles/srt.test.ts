import { MIN_SUBTITLE_S, parseSrt, placeSubtitles, SrtError } from './srt';

const FILE = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\n你好，<i>世界</i>\r\n第二行\r\n\r\n2\r\n00:00:03.2 --> 00:00:05,000 X1:10\r\nSecond\r\n';

describe('parseSrt', () => {
  it('reads cues with commas or dots, BOM, CRLF, several lines and tags removed', () => {
    expect(parseSrt(FILE)).toEqual([
      { start: 1, end: 2.5, text: '你好，世界\n第二行' },
      { start: 3.2, end: 5, text: 'Second' },
    ]);
  });

  it('reads cues without index lines and sorts them', () => {
    expect(parseSrt('00:00:05,000 --> 00:00:06,000\nB\n\n00:00:01,000 --> 00:00:02,000\nA\n').map((c) => c.text)).toEqual(['A', 'B']);
  });

  it('names the line of what is wrong', () => {
    const fail = (text: string) => {
      try {
        parseSrt(text);
      } catch (e) {
        return e instanceof SrtError ? e.message : `not an SrtError: ${String(e)}`;
      }
      return 'no error';
    };
    expect(fail('1\n00:00:01,000 -> 00:00:02,000\nx')).toBe('line 1: expected a timing line "start --> end"');
    expect(fail('1\n00:00:02,000 --> 00:00:01,000\nx')).toBe('line 2: the cue ends before it starts');
    expect(fail('00:00:01 --> 00:00:02,000\nx')).toMatch(/^line 1: "00:00:01" is not a time/);
    expect(fail('')).toBe('line 1: no subtitle found');
  });

  it('answers cues or an SrtError for any input (fuzz)', () => {
    // A fixed-seed generator: the same inputs on every run.
    let seed = 42;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = ['0', '1', '9', ':', ',', '.', '-', '>', ' ', '\n', '\r', '\uFEFF', 'a', '字', '<', '>', '{', '\\', '}', '-->'];
    for (let round = 0; round < 3000; round += 1) {
      let text = FILE.split('');
      const edits = 1 + rand(8);
      for (let e = 0; e < edits; e += 1) {
        const at = rand(text.length + 1);
        if (rand(2) === 0) text.splice(at, 1 + rand(3));
        else text.splice(at, 0, alphabet[rand(alphabet.length)] as string);
      }
      if (round % 10 === 0) text = Array.from({ length: rand(200) }, () => alphabet[rand(alphabet.length)] as string);
      try {
        for (const cue of parseSrt(text.join(''))) {
          expect(Number.isFinite(cue.start) && Number.isFinite(cue.end) && cue.end > cue.start && cue.start >= 0).toBe(true);
          expect(cue.text.length).toBeGreaterThan(0);
        }
      } catch (e) {
        expect(e).toBeInstanceOf(SrtError);
      }
    }
  });
});

describe('placeSubtitles', () => {
  it('shaves 50 ms, splits at a scene end and drops what is past the document', () => {
    const { placed, dropped } = placeSubtitles(
      [3, 3],
      [
        { start: 0.5, end: 2, text: 'a' },
        { start: 2, end: 4, text: 'b' },
        { start: 5.5, end: 9, text: 'c' },
        { start: 6, end: 7, text: 'gone' },
      ],
    );
    expect(placed).toEqual([
      { scene: 0, start: 0.5, end: 1.95, text: 'a' },
      { scene: 0, start: 2, end: 3, text: 'b' },
      { scene: 1, start: 0, end: 0.95, text: 'b' },
      { scene: 1, start: 2.5, end: 3, text: 'c' },
    ]);
    expect(dropped).toBe(1);
  });

  it('places no sliver shorter than the minimum', () => {
    const { placed } = placeSubtitles([3, 3], [{ start: 2.95, end: 4, text: 'x' }]);
    expect(placed.every((p) => p.end - p.start >= MIN_SUBTITLE_S)).toBe(true);
    expect(placed).toHaveLength(1);
  });
});
