import {
  boxBetween,
  BUILT_TOOLS,
  builtToolOf,
  compressEstimate,
  cutDurationMs,
  followWindow,
  gifHeight,
  gifSizeEstimate,
  hToVSize,
  inputProblems,
  LIMITS,
  paramProblems,
  secondInputOf,
  secondInputProblems,
  speedDurationMs,
  splitPieces,
  type InputFacts,
  type ReplaceAudioParams,
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

  it('maps the built pages to their types', () => {
    expect(['extract-audio', 'video-to-gif', 'video-compress', 'speed-video', 'fast-video-cut', 'fast-audio-cut'].map((p) => builtToolOf(p)?.type)).toEqual([
      'EXTRACT_AUDIO',
      'VIDEO_TO_GIF',
      'VIDEO_COMPRESS',
      'VIDEO_SPEEDUP',
      'QUICK_CUT_VIDEO',
      'QUICK_CUT_AUDIO',
    ]);
    expect(['replace-video-volume', 'audio-to-video', 'change-screen', 'video-separation'].map((p) => builtToolOf(p)?.type)).toEqual([
      'VIDEO_REPLACE_AUDIO',
      'PRE_PICTURE_VIDEO',
      'VIDEO_H_TO_V',
      'VIDEO_SPLIT',
    ]);
    expect(builtToolOf('ai-extract-portrait')).toBeNull();
  });

  it('asks for a second material where the options take one', () => {
    const replace = BUILT_TOOLS.VIDEO_REPLACE_AUDIO;
    expect(secondInputOf(replace, { mode: 'replace', loudnessLufs: -16 })).toBe('audio');
    expect(secondInputOf(replace, { mode: 'mix', gainDb: -6, loudnessLufs: -16 })).toBe('audio');
    expect(secondInputOf(replace, { mode: 'gain', gainDb: 3 })).toBeNull();
    const picture = BUILT_TOOLS.PRE_PICTURE_VIDEO;
    expect(secondInputOf(picture, { visual: 'picture', width: 1280, height: 720 })).toBe('picture');
    expect(secondInputOf(picture, { visual: 'waveform', width: 1280, height: 720 })).toBeNull();
    expect(secondInputOf(BUILT_TOOLS.VIDEO_SPEEDUP, { speed: 2 })).toBeNull();
    const song = { ...clip, kind: 'audio' };
    expect(fields(secondInputProblems('audio', song))).toEqual([]);
    expect(fields(secondInputProblems('audio', { ...song, hasAudio: false }))).toEqual(['materialIds[1] noSound']);
    expect(fields(secondInputProblems('picture', song))).toEqual(['materialIds[1] needsPicture']);
  });

  it('checks the sound options by mode, naming the field the server names', () => {
    const sound = (p: ReplaceAudioParams, input = clip) => fields(paramProblems('VIDEO_REPLACE_AUDIO', p, input));
    expect(sound({ mode: 'mix', gainDb: 10, loudnessLufs: -30 })).toEqual([]);
    expect(sound({ mode: 'mix', gainDb: 11, loudnessLufs: -9 })).toEqual(['params.gainDb between', 'params.loudnessLufs between']);
    expect(sound({ mode: 'gain', gainDb: 20 })).toEqual([]);
    expect(sound({ mode: 'gain', gainDb: -31 })).toEqual(['params.gainDb between']);
    expect(sound({ mode: 'gain', gainDb: 3 }, { ...clip, hasAudio: false })).toEqual(['materialIds noSoundToChange']);
    expect(sound({ mode: 'mix', gainDb: 0, loudnessLufs: -16 }, { ...clip, hasAudio: false })).toEqual(['materialIds[0] noSoundToChange']);
    expect(sound({ mode: 'replace', loudnessLufs: -16 }, { ...clip, hasAudio: false })).toEqual([]);
  });

  it('turns a landscape frame as the server does and refuses a portrait one', () => {
    expect(hToVSize('9:16', { width: 1920, height: 1080 })).toEqual({ width: 1080, height: 1920 });
    expect(hToVSize('1:1', { width: 320, height: 180 })).toEqual({ width: 180, height: 180 });
    expect(fields(paramProblems('VIDEO_H_TO_V', { aspect: '9:16', mode: 'blur' }, { ...clip, width: 720, height: 1280 }))).toEqual(['materialIds notLandscape']);
  });

  it('offers the blurred fill by default and a crop that follows the subject, its window as the server takes it', () => {
    expect(BUILT_TOOLS.VIDEO_H_TO_V.defaults(clip)).toEqual({ aspect: '9:16', mode: 'blur' });
    expect(LIMITS.reframes).toEqual(['blur', 'follow']);
    expect(fields(paramProblems('VIDEO_H_TO_V', { aspect: '9:16', mode: 'follow' }, clip))).toEqual([]);
    expect(fields(paramProblems('VIDEO_H_TO_V', { aspect: '9:16', mode: 'track' } as never, clip))).toEqual(['params.mode oneOf']);
    expect(followWindow('9:16', { width: 1920, height: 1080 })).toEqual({ width: 608, height: 1080 });
    expect(followWindow('9:16', { width: 320, height: 180 })).toEqual({ width: 102, height: 180 });
    expect(followWindow('1:1', { width: 1920, height: 1080 })).toEqual({ width: 1080, height: 1080 });
  });

  it('splits into the clips between its points and refuses points out of order or past the end', () => {
    expect(splitPieces({ times: [1_000, 2_600] }, 4_000)).toEqual([
      { startMs: 0, endMs: 1_000 },
      { startMs: 1_000, endMs: 2_600 },
      { startMs: 2_600, endMs: 4_000 },
    ]);
    const split = (times: number[]) => fields(paramProblems('VIDEO_SPLIT', { times }, clip));
    expect(split([5_000])).toEqual([]);
    expect(split([])).toEqual(['params.times splitCount']);
    expect(split([3_000, 3_050])).toEqual(['params.times[1] splitOrder']);
    expect(split([3_000, 9_950])).toEqual(['params.times[1] rangeOutside']);
  });

  it('checks a split by scenes and an AI video cut, naming the field the server names', () => {
    const scenes = (sensitivity: number, minSceneMs: number, input = clip) => fields(paramProblems('VIDEO_SPLIT', { mode: 'scenes', sensitivity, minSceneMs }, input));
    expect(scenes(60, 1_000)).toEqual([]);
    expect(scenes(0, 1_000)).toEqual(['params.sensitivity between']);
    expect(scenes(60, 50)).toEqual(['params.minSceneMs betweenSeconds']);
    expect(scenes(60, 6_000)).toEqual(['params.minSceneMs twoScenes']);
    const cut = (p: Partial<{ sensitivity: number; minSceneMs: number; minKeepMs: number; targetMs: number }>) =>
      fields(paramProblems('INTELLIGENT_TASK', { sensitivity: 60, minSceneMs: 1_000, minKeepMs: 1_500, targetMs: 5_000, ...p }, clip));
    expect(cut({})).toEqual([]);
    expect(cut({ targetMs: 500 })).toEqual(['params.targetMs betweenSeconds', 'params.minKeepMs keepOverTarget']);
    expect(cut({ minKeepMs: 12_000, targetMs: 20_000 })).toEqual(['params.minKeepMs rangeOutside']);
    expect(cut({ sensitivity: 100 })).toEqual(['params.sensitivity between']);
    expect(['ai-video-cut', 'vocal-separate'].map((p) => builtToolOf(p)?.type)).toEqual(['INTELLIGENT_TASK', 'EXTRACT_PERSON_AUDIO']);
    expect(BUILT_TOOLS.INTELLIGENT_TASK.defaults({ ...clip, durationMs: 60_000 })).toMatchObject({ targetMs: 30_000, sensitivity: 60 });
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

  it('keeps a watermark box or a caption band inside the picture, naming the value past it', () => {
    const box = BUILT_TOOLS.VIDEO_REMOVE_WATERMARK.defaults(clip);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(paramProblems('VIDEO_REMOVE_WATERMARK', box, clip)).toEqual([]);
    const mark = (p: Partial<typeof box>) => fields(paramProblems('VIDEO_REMOVE_WATERMARK', { ...box, ...p }, clip));
    expect(mark({ x: 1280 })).toEqual(['params.x boxOutside']);
    expect(mark({ x: 1200, width: 100 })).toEqual(['params.width boxOutside']);
    expect(mark({ y: 700, height: 30 })).toEqual(['params.height boxOutside']);
    expect(mark({ width: 0 })).toEqual(['params.width boxEmpty']);
    expect(mark({ x: 0, y: 0, width: 1280, height: 720, method: 'inpaint' })).toEqual(['params.width boxWhole']);
    expect(mark({ x: 0, y: 0, width: 1280, height: 720, method: 'blur' })).toEqual([]);
    const band = BUILT_TOOLS.VIDEO_REMOVE_SUBTITLE.defaults(clip);
    expect(band.mode === 'band' && band.y + band.height <= 720).toBe(true);
    expect(paramProblems('VIDEO_REMOVE_SUBTITLE', band, clip)).toEqual([]);
    expect(fields(paramProblems('VIDEO_REMOVE_SUBTITLE', { mode: 'band', y: 700, height: 40, method: 'blur' }, clip))).toEqual(['params.height boxOutside']);
    expect(paramProblems('VIDEO_REMOVE_SUBTITLE', { mode: 'detect', method: 'inpaint' }, clip)).toEqual([]);
    expect(builtToolOf('smart-watermark-remove')?.type).toBe('VIDEO_REMOVE_WATERMARK');
    expect(builtToolOf('remove-captions')?.type).toBe('VIDEO_REMOVE_SUBTITLE');
  });

  it('draws a box between two points of the frame either way, kept inside it', () => {
    expect(boxBetween({ x: 300, y: 200 }, { x: 100.4, y: 50 }, clip)).toEqual({ x: 100, y: 50, width: 200, height: 150 });
    expect(boxBetween({ x: -20, y: -5 }, { x: 1400, y: 900 }, clip)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
    expect(boxBetween({ x: 10, y: 10 }, { x: 10, y: 10 }, clip)).toEqual({ x: 10, y: 10, width: 1, height: 1 });
  });
});
