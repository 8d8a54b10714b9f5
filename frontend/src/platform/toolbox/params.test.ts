import {
  BUILT_TOOLS,
  builtToolOf,
  compressEstimate,
  cutDurationMs,
  gifHeight,
  gifSizeEstimate,
  inputProblems,
  LIMITS,
  paramProblems,
  speedDurationMs,
  type InputFacts,
} from './params';

const clip: InputFacts = { durationMs: 10_000, bytes: 8 * 1024 ** 2, width: 1280, height: 720, hasAudio: true, kind: 'video' };
const fields = (problems: { field: string; key: string }[]) => problems.map((p) => `${p.field} ${p.key}`);
const NO_LIMITS = { maxInputBytes: 0, maxInputSeconds: 0 };

describe('tool options', () => {
  it('holds the server ranges of docs/toolbox.md in one place', () => {
    expect(LIMITS.gif).toEqual({ fps: { min: 1, max: 30 }, width: { min: 64, max: 1080 } });
    expect(LIMITS.speed).toEqual({ min: 0.25, max: 4 });
    expect(LIMITS.audioFormats).toEqual(['mp3', 'aac', 'wav']);
    expect(LIMITS.qualities).toEqual(['high', 'medium', 'low']);
  });

  it('maps the six pages to their types', () => {
    expect(['extract-audio', 'video-to-gif', 'video-compress', 'speed-video', 'fast-video-cut', 'fast-audio-cut'].map((p) => builtToolOf(p)?.type)).toEqual([
      'EXTRACT_AUDIO',
      'VIDEO_TO_GIF',
      'VIDEO_COMPRESS',
      'VIDEO_SPEEDUP',
      'QUICK_CUT_VIDEO',
      'QUICK_CUT_AUDIO',
    ]);
    expect(builtToolOf('ai-extract-portrait')).toBeNull();
  });

  it('starts every tool with options the checks accept', () => {
    for (const tool of Object.values(BUILT_TOOLS)) {
      const input = { ...clip, kind: tool.input };
      expect([tool.type, paramProblems(tool.type, tool.defaults(input), input)]).toEqual([tool.type, []]);
    }
    expect(BUILT_TOOLS.VIDEO_TO_GIF.defaults({ ...clip, durationMs: 1_500, width: 320 })).toMatchObject({ startMs: 0, endMs: 1_500, width: 320 });
  });

  it('checks the GIF frame rate and width at both ends of their ranges', () => {
    const gif = (fps: number, width: number) => fields(paramProblems('VIDEO_TO_GIF', { startMs: 0, endMs: 2_000, fps, width, loop: true }, clip));
    expect(gif(1, 64)).toEqual([]);
    expect(gif(30, 1080)).toEqual([]);
    expect(gif(0, 1081)).toEqual(['params.fps between', 'params.width between']);
    expect(gif(31, 63)).toEqual(['params.fps between', 'params.width between']);
    expect(gif(2.5, 200)).toEqual(['params.fps between']);
  });

  it('refuses a stretch that is empty, backwards or outside the clip, naming its end', () => {
    const gif = (startMs: number, endMs: number) => fields(paramProblems('VIDEO_TO_GIF', { startMs, endMs, fps: 10, width: 320, loop: false }, clip));
    expect(gif(0, 10_000)).toEqual([]);
    expect(gif(2_000, 2_000)).toEqual(['params.endMs rangeEmpty']);
    expect(gif(3_000, 1_000)).toEqual(['params.endMs rangeEmpty']);
    expect(gif(-1, 1_000)).toEqual(['params.startMs rangeInvalid']);
    expect(gif(0, 10_001)).toEqual(['params.endMs rangeOutside']);
  });

  it('checks the speed from 0.25 to 4', () => {
    const speed = (s: number) => fields(paramProblems('VIDEO_SPEEDUP', { speed: s }, clip));
    expect([0.25, 1, 4].map(speed)).toEqual([[], [], []]);
    expect([0, 0.24, 4.01, Number.NaN].map(speed)).toEqual([['params.speed between'], ['params.speed between'], ['params.speed between'], ['params.speed between']]);
  });

  it('takes exactly one of target size and quality for compression', () => {
    expect(paramProblems('VIDEO_COMPRESS', { targetBytes: 1_000_000 }, clip)).toEqual([]);
    expect(paramProblems('VIDEO_COMPRESS', { quality: 'low' }, clip)).toEqual([]);
    expect(fields(paramProblems('VIDEO_COMPRESS', { targetBytes: 0 }, clip))).toEqual(['params.targetBytes positive']);
    expect(fields(paramProblems('VIDEO_COMPRESS', { targetBytes: 5, quality: 'low' } as never, clip))).toEqual(['params compressOne']);
    expect(fields(paramProblems('VIDEO_COMPRESS', {} as never, clip))).toEqual(['params compressOne']);
    expect(fields(paramProblems('VIDEO_COMPRESS', { quality: 'best' } as never, clip))).toEqual(['params.quality oneOf']);
  });

  it('checks the audio format', () => {
    expect(paramProblems('EXTRACT_AUDIO', { format: 'aac' }, clip)).toEqual([]);
    expect(fields(paramProblems('EXTRACT_AUDIO', { format: 'ogg' } as never, clip))).toEqual(['params.format oneOf']);
  });

  it('checks cut ranges: inside the clip, not overlapping, something left', () => {
    const cut = (mode: 'keep' | 'remove', ranges: [number, number][]) =>
      fields(paramProblems('QUICK_CUT_VIDEO', { mode, ranges: ranges.map(([startMs, endMs]) => ({ startMs, endMs })) }, clip));
    expect(cut('keep', [[0, 1_000], [5_000, 10_000]])).toEqual([]);
    expect(cut('keep', [])).toEqual(['params.ranges noRanges']);
    expect(cut('keep', [[0, 1_000], [2_000, 12_000]])).toEqual(['params.ranges[1].endMs rangeOutside']);
    expect(cut('keep', [[4_000, 6_000], [0, 5_000]])).toEqual(['params.ranges rangesOverlap']);
    expect(cut('remove', [[0, 10_000]])).toEqual(['params.ranges nothingLeft']);
    expect(cut('remove', [[0, 9_000]])).toEqual([]);
  });

  it('checks the input: its kind, its sound and the tool limits', () => {
    const tool = BUILT_TOOLS.EXTRACT_AUDIO;
    expect(inputProblems(tool, clip, NO_LIMITS)).toEqual([]);
    expect(fields(inputProblems(tool, { ...clip, hasAudio: false }, NO_LIMITS))).toEqual(['materialIds noSound']);
    expect(fields(inputProblems(tool, { ...clip, kind: 'audio' }, NO_LIMITS))).toEqual(['materialIds needsVideo']);
    expect(fields(inputProblems(BUILT_TOOLS.QUICK_CUT_AUDIO, clip, NO_LIMITS))).toEqual(['materialIds needsAudio']);
    expect(fields(inputProblems(tool, clip, { maxInputBytes: 1024 ** 2, maxInputSeconds: 0 }))).toEqual(['materialIds tooLarge']);
    expect(fields(inputProblems(tool, clip, { maxInputBytes: 0, maxInputSeconds: 9 }))).toEqual(['materialIds tooLong']);
    expect(inputProblems(tool, clip, { maxInputBytes: clip.bytes, maxInputSeconds: 10 })).toEqual([]);
  });

  it('estimates the GIF from its frames and pixels, keeping the clip aspect', () => {
    expect(gifHeight(480, clip)).toBe(270);
    expect(gifHeight(101, { width: 0, height: 0 })).toBe(57);
    const small = gifSizeEstimate({ startMs: 0, endMs: 2_000, fps: 10, width: 480, loop: true }, clip);
    expect(small).toBe(Math.round(480 * 270 * 20 * 0.15));
    expect(gifSizeEstimate({ startMs: 0, endMs: 2_000, fps: 20, width: 480, loop: true }, clip)).toBe(small * 2);
  });

  it('estimates the compressed size from the target or the quality', () => {
    expect(compressEstimate({ targetBytes: 123_456 }, clip.bytes)).toBe(123_456);
    const sizes = (['high', 'medium', 'low'] as const).map((quality) => compressEstimate({ quality }, clip.bytes));
    expect(sizes[0]).toBeGreaterThan(sizes[1] ?? 0);
    expect(sizes[1]).toBeGreaterThan(sizes[2] ?? 0);
    expect(sizes[0]).toBeLessThan(clip.bytes);
  });

  it('says how long the result of a speed change or a cut is', () => {
    expect(speedDurationMs(10_000, 4)).toBe(2_500);
    expect(speedDurationMs(10_000, 0.25)).toBe(40_000);
    expect(cutDurationMs({ mode: 'keep', ranges: [{ startMs: 0, endMs: 1_000 }, { startMs: 5_000, endMs: 7_000 }] }, 10_000)).toBe(3_000);
    expect(cutDurationMs({ mode: 'remove', ranges: [{ startMs: 0, endMs: 1_000 }] }, 10_000)).toBe(9_000);
  });
});
