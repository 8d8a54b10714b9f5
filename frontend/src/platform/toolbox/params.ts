/**
 * The options of the built tools (docs/toolbox.md "Parameters"): their shapes, the server's ranges
 * (in one place: `LIMITS`), their defaults, the checks a page runs before it asks the server (the
 * server checks them again and stays the judge), and the size estimates the pages show.
 */
import type { ToolType, ToolTypeName } from '@/api/toolbox';

/** The server's ranges of docs/toolbox.md "Parameters". */
export const LIMITS = {
  audioFormats: ['mp3', 'aac', 'wav'],
  gif: { fps: { min: 1, max: 30 }, width: { min: 64, max: 1080 } },
  qualities: ['high', 'medium', 'low'],
  speed: { min: 0.25, max: 4 },
  cutModes: ['keep', 'remove'],
  soundModes: ['replace', 'mix', 'gain'],
  gainDb: { min: -30, max: 20 },
  mixDb: { min: -30, max: 10 },
  loudnessLufs: { min: -30, max: -10 },
  visuals: ['picture', 'waveform'],
  /** Audio-to-video frames the page offers (each side 160–1920, even, on the server). */
  videoSizes: [
    { width: 1280, height: 720 },
    { width: 720, height: 1280 },
    { width: 1080, height: 1080 },
  ],
  aspects: ['9:16', '1:1'],
  /** change-screen: the picture across over a blurred fill (the server's default), or a crop that follows the subject. */
  reframes: ['blur', 'follow'],
  split: { maxTimes: 99, minPieceMs: 100 },
  splitModes: ['times', 'scenes'],
  /** Scene detection: the cut threshold is 1 − sensitivity / 100 of the colour histograms' distance. */
  sensitivity: { min: 1, max: 99 },
  minSceneMs: { min: 100, max: 60_000 },
  targetMs: { min: 1_000, max: 3_600_000 },
  eraseMethods: ['blur', 'inpaint'],
  bandModes: ['band', 'detect'],
  /** ppt: seconds a page shows, the crossfade into the next (ms, shorter than a page), the frame. */
  pageSeconds: { min: 0.5, max: 60 },
  crossfadeMs: { min: 0, max: 2_000 },
  slideResolutions: ['720p', '1080p'],
  /** intelligent-beauty: smoothing 0–100, the skin's brightness and warmth −100–100. */
  strength: { min: 0, max: 100 },
  tone: { min: -100, max: 100 },
  /** ai-recover-video: the output's size (2×, or the shorter side 1080 / 2160; at most 3840×2160) and the sharpening. */
  upscaleTargets: ['2x', '1080p', '2160p'],
  sharpen: { min: 0, max: 100 },
  maxUpscale: { long: 3_840, short: 2_160 },
  /** ai-frame-cut: one picture per scene, or one every `everyMs` (ms); at most `maxPictures` a run. */
  keyFrameModes: ['scenes', 'interval'],
  everyMs: { min: 500, max: 600_000 },
  maxPictures: 100,
} as const;

export type AudioFormat = (typeof LIMITS.audioFormats)[number];
export type Quality = (typeof LIMITS.qualities)[number];
export type CutMode = (typeof LIMITS.cutModes)[number];
export type SoundMode = (typeof LIMITS.soundModes)[number];
export type Visual = (typeof LIMITS.visuals)[number];
export type Aspect = (typeof LIMITS.aspects)[number];
export type Reframe = (typeof LIMITS.reframes)[number];
export type EraseMethod = (typeof LIMITS.eraseMethods)[number];

/** The loudness a replaced or mixed sound is brought to unless changed, LUFS (the server's default). */
export const DEFAULT_LOUDNESS_LUFS = -16;

/** A stretch of the input, ms. */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

export interface ExtractAudioParams {
  format: AudioFormat;
}

export interface GifParams extends TimeRange {
  fps: number;
  width: number;
  loop: boolean;
}

/** Exactly one of the two: a target size in bytes, or a quality. */
export type CompressParams = { targetBytes: number } | { quality: Quality };

export interface SpeedParams {
  speed: number;
}

export interface CutParams {
  mode: CutMode;
  ranges: TimeRange[];
}

/**
 * replace-video-volume: replace (a second material's sound, brought to a loudness), mix (the second
 * sound `gainDb` against the video's, the mix brought to a loudness) or gain (the video's own sound).
 */
export type ReplaceAudioParams =
  | { mode: 'replace'; loudnessLufs: number }
  | { mode: 'mix'; gainDb: number; loudnessLufs: number }
  | { mode: 'gain'; gainDb: number };

/** audio-to-video: a picture (the second material) or the sound's waveform, in a frame of this size. */
export interface PictureVideoParams {
  visual: Visual;
  width: number;
  height: number;
}

/** change-screen: the frame a landscape video is turned into, and how the picture goes into it. */
export interface HToVParams {
  aspect: Aspect;
  mode: Reframe;
}

/** video-separation by times: the split points, ms, ascending. */
export interface SplitTimesParams {
  times: number[];
}

/** Scene detection's options (the server's defaults: 60 and 1000 ms). */
export interface SceneDetectParams {
  sensitivity: number;
  minSceneMs: number;
}

/** video-separation: at given times, or one clip per detected scene. */
export type SplitParams = SplitTimesParams | ({ mode: 'scenes' } & SceneDetectParams);

export type SplitMode = (typeof LIMITS.splitModes)[number];

/** The scene detection the pages start from (the server's defaults). */
export const DEFAULT_DETECT: SceneDetectParams = { sensitivity: 60, minSceneMs: 1_000 };

/** ai-video-cut: the scenes found, the liveliest kept (at least `minKeepMs` each) up to `targetMs` in all. */
export interface HighlightsParams extends SceneDetectParams {
  minKeepMs: number;
  targetMs: number;
}

/** vocal-separate: the voice, and the accompaniment too if asked. */
export interface VocalsParams {
  accompaniment: boolean;
}

/** ai-frame-cut: the sharpest frame of each detected scene, or the frame every `everyMs`. */
export type KeyFramesParams = ({ mode: 'scenes' } & SceneDetectParams) | { mode: 'interval'; everyMs: number };

/** How many pictures an interval makes of a clip of `durationMs` (the server's rule: one at 0, `everyMs`, … before the end). */
export function intervalPictures(everyMs: number, durationMs: number): number {
  return everyMs > 0 ? Math.ceil(durationMs / everyMs) : 0;
}

/** True for a split by detected scenes. */
export function byScenes(params: SplitParams): params is { mode: 'scenes' } & SceneDetectParams {
  return 'mode' in params && params.mode === 'scenes';
}
/** A box of the picture, source pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** smart-watermark-remove: the box to erase, and how (a feathered blur, or a fill from around the box). */
export interface WatermarkParams extends PixelBox {
  method: EraseMethod;
}

/** remove-captions: a band the user gives (rows, the whole width), or one the server finds in the video. */
export type CaptionParams = { mode: 'band'; y: number; height: number; method: EraseMethod } | { mode: 'detect'; method: EraseMethod };

/** ppt: each page for `secondsPerPage`, crossfading into the next over `crossfadeMs` (0: a cut), fitted in a 720p or 1080p frame. */
export interface SlidesParams {
  secondsPerPage: number;
  crossfadeMs: number;
  resolution: (typeof LIMITS.slideResolutions)[number];
}

/** intelligent-beauty: skin smoothing (0–100) and the skin's tone (−100–100 each). */
export interface BeautyParams {
  strength: number;
  brightness: number;
  warmth: number;
}

export type UpscaleTarget = (typeof LIMITS.upscaleTargets)[number];

/** ai-recover-video: a classical upscale (Lanczos) to `target`, then an unsharp mask of `sharpen`. */
export interface UpscaleParams {
  target: UpscaleTarget;
  sharpen: number;
}

/** The options of each built tool, by its type. */
export interface ToolParams {
  EXTRACT_AUDIO: ExtractAudioParams;
  VIDEO_TO_GIF: GifParams;
  VIDEO_COMPRESS: CompressParams;
  VIDEO_SPEEDUP: SpeedParams;
  QUICK_CUT_VIDEO: CutParams;
  QUICK_CUT_AUDIO: CutParams;
  VIDEO_REPLACE_AUDIO: ReplaceAudioParams;
  PRE_PICTURE_VIDEO: PictureVideoParams;
  VIDEO_H_TO_V: HToVParams;
  VIDEO_SPLIT: SplitParams;
  INTELLIGENT_TASK: HighlightsParams;
  EXTRACT_PERSON_AUDIO: VocalsParams;
  VIDEO_REMOVE_WATERMARK: WatermarkParams;
  VIDEO_REMOVE_SUBTITLE: CaptionParams;
  PPT_CONVERTER: SlidesParams;
  VIDEO_BEAUTY: BeautyParams;
  INCREASE_RESOLUTION: UpscaleParams;
  VIDEO_KEY_FRAMES: KeyFramesParams;
}

/** The types this frontend has a page form for. */
export type BuiltToolType = keyof ToolParams;

/** What a tool takes as its input (a material of this kind). */
export type InputKind = 'video' | 'audio' | 'picture' | 'pptx';

/** A built tool: its type, page, input and options' starting values. */
export interface BuiltTool<T extends BuiltToolType = BuiltToolType> {
  type: T;
  path: string;
  input: InputKind;
  /** The input must carry sound (extract-audio). */
  needsSound: boolean;
  defaults: (input: InputFacts) => ToolParams[T];
  /** The kind of the second material the options ask for (`materialIds[1]`), or null when they take one. */
  second?(params: ToolParams[T]): InputKind | null;
}

/** What the checks and defaults need to know about the chosen input. */
export interface InputFacts {
  /** 0 while not known (still being probed). */
  durationMs: number;
  /** Bytes; 0 while not known. */
  bytes: number;
  width: number;
  height: number;
  hasAudio: boolean;
  kind: string;
}

/** Default GIF length from the start of the clip, ms (a long GIF is large). */
export const GIF_DEFAULT_MS = 3_000;
/** Default GIF width, px (or the clip's own when narrower). */
export const GIF_DEFAULT_WIDTH = 480;

function firstStretch(input: InputFacts, ms: number): TimeRange {
  return { startMs: 0, endMs: input.durationMs > 0 ? Math.min(input.durationMs, ms) : ms };
}

/** The built tools of docs/toolbox.md, by page. */
export const BUILT_TOOLS: { [T in BuiltToolType]: BuiltTool<T> } = {
  EXTRACT_AUDIO: { type: 'EXTRACT_AUDIO', path: 'extract-audio', input: 'video', needsSound: true, defaults: () => ({ format: 'mp3' }) },
  VIDEO_TO_GIF: {
    type: 'VIDEO_TO_GIF',
    path: 'video-to-gif',
    input: 'video',
    needsSound: false,
    defaults: (input) => ({
      ...firstStretch(input, GIF_DEFAULT_MS),
      fps: 10,
      width: input.width > 0 ? Math.max(LIMITS.gif.width.min, Math.min(GIF_DEFAULT_WIDTH, input.width)) : GIF_DEFAULT_WIDTH,
      loop: true,
    }),
  },
  VIDEO_COMPRESS: { type: 'VIDEO_COMPRESS', path: 'video-compress', input: 'video', needsSound: false, defaults: () => ({ quality: 'medium' }) },
  VIDEO_SPEEDUP: { type: 'VIDEO_SPEEDUP', path: 'speed-video', input: 'video', needsSound: false, defaults: () => ({ speed: 2 }) },
  QUICK_CUT_VIDEO: {
    type: 'QUICK_CUT_VIDEO',
    path: 'fast-video-cut',
    input: 'video',
    needsSound: false,
    defaults: (input) => ({ mode: 'keep', ranges: [firstStretch(input, 5_000)] }),
  },
  QUICK_CUT_AUDIO: {
    type: 'QUICK_CUT_AUDIO',
    path: 'fast-audio-cut',
    input: 'audio',
    needsSound: true,
    defaults: (input) => ({ mode: 'keep', ranges: [firstStretch(input, 5_000)] }),
  },
  VIDEO_REPLACE_AUDIO: {
    type: 'VIDEO_REPLACE_AUDIO',
    path: 'replace-video-volume',
    input: 'video',
    needsSound: false,
    defaults: () => ({ mode: 'replace', loudnessLufs: DEFAULT_LOUDNESS_LUFS }),
    second: (params) => (params.mode === 'gain' ? null : 'audio'),
  },
  PRE_PICTURE_VIDEO: {
    type: 'PRE_PICTURE_VIDEO',
    path: 'audio-to-video',
    input: 'audio',
    needsSound: true,
    defaults: () => ({ visual: 'picture', width: 1280, height: 720 }),
    second: (params) => (params.visual === 'picture' ? 'picture' : null),
  },
  VIDEO_H_TO_V: { type: 'VIDEO_H_TO_V', path: 'change-screen', input: 'video', needsSound: false, defaults: () => ({ aspect: '9:16', mode: 'blur' }) },
  VIDEO_SPLIT: {
    type: 'VIDEO_SPLIT',
    path: 'video-separation',
    input: 'video',
    needsSound: false,
    defaults: (input) => ({ times: [input.durationMs > 0 ? Math.round(input.durationMs / 2) : 1_000] }),
  },
  INTELLIGENT_TASK: {
    type: 'INTELLIGENT_TASK',
    path: 'ai-video-cut',
    input: 'video',
    needsSound: false,
    defaults: (input) => ({
      ...DEFAULT_DETECT,
      minKeepMs: 1_500,
      // Half the clip, between 2 and 30 s.
      targetMs: Math.min(30_000, Math.max(2_000, Math.round((input.durationMs || 4_000) / 2 / 100) * 100)),
    }),
  },
  EXTRACT_PERSON_AUDIO: { type: 'EXTRACT_PERSON_AUDIO', path: 'vocal-separate', input: 'audio', needsSound: true, defaults: () => ({ accompaniment: true }) },
  VIDEO_REMOVE_WATERMARK: {
    type: 'VIDEO_REMOVE_WATERMARK',
    path: 'smart-watermark-remove',
    input: 'video',
    needsSound: false,
    defaults: (input) => ({ ...cornerBox(input), method: 'inpaint' }),
  },
  VIDEO_REMOVE_SUBTITLE: {
    type: 'VIDEO_REMOVE_SUBTITLE',
    path: 'remove-captions',
    input: 'video',
    needsSound: false,
    defaults: (input) => ({ mode: 'band', ...lowBand(input), method: 'inpaint' }),
  },
  PPT_CONVERTER: {
    type: 'PPT_CONVERTER',
    path: 'ppt',
    input: 'pptx',
    needsSound: false,
    defaults: () => ({ secondsPerPage: 3, crossfadeMs: 0, resolution: '720p' }),
  },
  VIDEO_BEAUTY: { type: 'VIDEO_BEAUTY', path: 'intelligent-beauty', input: 'video', needsSound: false, defaults: () => ({ strength: 60, brightness: 0, warmth: 0 }) },
  INCREASE_RESOLUTION: { type: 'INCREASE_RESOLUTION', path: 'ai-recover-video', input: 'video', needsSound: false, defaults: () => ({ target: '2x', sharpen: 50 }) },
  VIDEO_KEY_FRAMES: { type: 'VIDEO_KEY_FRAMES', path: 'ai-frame-cut', input: 'video', needsSound: false, defaults: () => ({ mode: 'scenes', ...DEFAULT_DETECT }) },
};

/** The upscale's output size for the input (the server's rule: even sides), or null where it would not grow or would pass 4K. */
export function upscaleSize(target: UpscaleTarget, input: Pick<InputFacts, 'width' | 'height'>): { width: number; height: number } | null {
  if (!(input.width > 0 && input.height > 0)) return null;
  const scale = target === '2x' ? 2 : (target === '1080p' ? 1_080 : 2_160) / Math.min(input.width, input.height);
  const even = (n: number) => Math.max(2, Math.ceil(n / 2) * 2);
  const size = { width: even(Math.round(input.width * scale)), height: even(Math.round(input.height * scale)) };
  if (size.width <= input.width || size.height <= input.height) return null;
  if (Math.max(size.width, size.height) > LIMITS.maxUpscale.long || Math.min(size.width, size.height) > LIMITS.maxUpscale.short) return null;
  return size;
}

/** Where a logo usually sits, to start from: a box in the top right corner, a fifth of the width wide. */
export function cornerBox(input: Pick<InputFacts, 'width' | 'height'>): PixelBox {
  const w = input.width > 0 ? input.width : 1280;
  const h = input.height > 0 ? input.height : 720;
  const width = Math.max(1, Math.round(w / 5));
  const height = Math.max(1, Math.round(h / 8));
  return { x: Math.max(0, w - width - Math.round(w / 40)), y: Math.round(h / 40), width, height };
}

/** Where captions usually sit, to start from: a band a ninth of the height high, near the bottom. */
export function lowBand(input: Pick<InputFacts, 'height'>): { y: number; height: number } {
  const h = input.height > 0 ? input.height : 720;
  const height = Math.max(1, Math.round(h / 9));
  return { y: Math.max(0, h - height - Math.round(h / 20)), height };
}

/** A box drawn between two points of the picture, kept inside it (source pixels, whole, at least 1 each way). */
export function boxBetween(a: { x: number; y: number }, b: { x: number; y: number }, input: Pick<InputFacts, 'width' | 'height'>): PixelBox {
  const clampX = (v: number) => Math.min(input.width, Math.max(0, Math.round(v)));
  const clampY = (v: number) => Math.min(input.height, Math.max(0, Math.round(v)));
  const [x0, x1] = [clampX(Math.min(a.x, b.x)), clampX(Math.max(a.x, b.x))];
  const [y0, y1] = [clampY(Math.min(a.y, b.y)), clampY(Math.max(a.y, b.y))];
  const x = Math.min(x0, Math.max(0, input.width - 1));
  const y = Math.min(y0, Math.max(0, input.height - 1));
  return { x, y, width: Math.max(1, x1 - x), height: Math.max(1, y1 - y) };
}

/** What is wrong with a box against the picture, each problem naming the value as the server does. */
function boxProblems(box: PixelBox, method: EraseMethod, input: InputFacts, band: boolean): Problem[] {
  const whole = (v: number) => Number.isInteger(v) && v >= 0;
  const named: [keyof PixelBox, number][] = band ? [['y', box.y], ['height', box.height]] : [['x', box.x], ['y', box.y], ['width', box.width], ['height', box.height]];
  for (const [key, v] of named) {
    if (!whole(v) || ((key === 'width' || key === 'height') && v < 1)) return [{ field: `params.${key}`, key: key === 'width' || key === 'height' ? 'boxEmpty' : 'rangeInvalid' }];
  }
  if (!(LIMITS.eraseMethods as readonly string[]).includes(method)) return [{ field: 'params.method', key: 'oneOf', values: { list: LIMITS.eraseMethods.join(', ') } }];
  if (!(input.width > 0 && input.height > 0)) return [];
  const size = { width: input.width, height: input.height };
  if (box.x >= input.width) return [{ field: 'params.x', key: 'boxOutside', values: size }];
  if (box.y >= input.height) return [{ field: 'params.y', key: 'boxOutside', values: size }];
  if (box.x + box.width > input.width) return [{ field: 'params.width', key: 'boxOutside', values: size }];
  if (box.y + box.height > input.height) return [{ field: 'params.height', key: 'boxOutside', values: size }];
  if (method === 'inpaint' && box.width === input.width && box.height === input.height) return [{ field: band ? 'params.height' : 'params.width', key: 'boxWhole' }];
  return [];
}

/** The kind of the second material a tool's options ask for, or null. */
export function secondInputOf<T extends BuiltToolType>(tool: BuiltTool<T>, params: ToolParams[T]): InputKind | null {
  return tool.second ? tool.second(params) : null;
}

/** The output's size when a `width`×`height` landscape video is turned to `aspect` (as wide as it is high; the server's rule). */
export function hToVSize(aspect: Aspect, input: Pick<InputFacts, 'width' | 'height'>): { width: number; height: number } {
  const even = (n: number) => Math.max(2, Math.ceil(n / 2) * 2);
  const width = even(input.height);
  return { width, height: aspect === '9:16' ? even(Math.round((width * 16) / 9)) : width };
}

/** The window a crop that follows the subject takes of each `width`×`height` frame: the output's shape at full height (the server's rule). */
export function followWindow(aspect: Aspect, input: Pick<InputFacts, 'width' | 'height'>): { width: number; height: number } {
  const out = hToVSize(aspect, input);
  const even = (n: number) => Math.max(2, Math.ceil(n / 2) * 2);
  return { width: Math.min(even(Math.round((input.height * out.width) / out.height)), input.width), height: input.height };
}

/** The clips a split at times makes of a video of `durationMs`. */
export function splitPieces(params: SplitTimesParams, durationMs: number): TimeRange[] {
  const pieces: TimeRange[] = [];
  let from = 0;
  for (const t of params.times) {
    pieces.push({ startMs: from, endMs: t });
    from = t;
  }
  pieces.push({ startMs: from, endMs: Math.max(from, durationMs) });
  return pieces;
}

/** The built tool of a page, or null when this frontend has no form for it. */
export function builtToolOf(path: string): BuiltTool | null {
  return (Object.values(BUILT_TOOLS) as BuiltTool[]).find((tool) => tool.path === path) ?? null;
}

/** True for a type this frontend has a form for. */
export function isBuilt(type: ToolTypeName | string): type is BuiltToolType {
  return Object.prototype.hasOwnProperty.call(BUILT_TOOLS, type);
}

/** One thing wrong with the options or the input: the parameter (as the server names it) and why (a locale key under `toolbox.problem.`). */
export interface Problem {
  field: string;
  key: string;
  values?: Record<string, string | number>;
}

const within = (v: number, r: { min: number; max: number }) => Number.isFinite(v) && v >= r.min && v <= r.max;

/** What is wrong with a stretch of the input; `start` and `end` name its two ends as the server does. */
function rangeProblems(start: string, end: string, range: TimeRange, durationMs: number): Problem[] {
  if (!Number.isInteger(range.startMs) || range.startMs < 0) return [{ field: start, key: 'rangeInvalid' }];
  if (!Number.isInteger(range.endMs) || range.endMs <= range.startMs) return [{ field: end, key: 'rangeEmpty' }];
  if (durationMs > 0 && range.endMs > durationMs) return [{ field: end, key: 'rangeOutside', values: { seconds: (durationMs / 1000).toFixed(1) } }];
  return [];
}

function cutProblems(params: CutParams, durationMs: number): Problem[] {
  if (!(LIMITS.cutModes as readonly string[]).includes(params.mode)) return [{ field: 'params.mode', key: 'oneOf', values: { list: LIMITS.cutModes.join(', ') } }];
  if (params.ranges.length === 0) return [{ field: 'params.ranges', key: 'noRanges' }];
  const problems = params.ranges.flatMap((r, i) => rangeProblems(`params.ranges[${i}].startMs`, `params.ranges[${i}].endMs`, r, durationMs));
  if (problems.length > 0) return problems;
  const sorted = [...params.ranges].sort((a, b) => a.startMs - b.startMs);
  for (let i = 1; i < sorted.length; i += 1) {
    if ((sorted[i]?.startMs ?? 0) < (sorted[i - 1]?.endMs ?? 0)) return [{ field: 'params.ranges', key: 'rangesOverlap' }];
  }
  if (params.mode === 'remove' && durationMs > 0) {
    const removed = sorted.reduce((sum, r) => sum + (r.endMs - r.startMs), 0);
    if (removed >= durationMs) return [{ field: 'params.ranges', key: 'nothingLeft' }];
  }
  return [];
}

/** Returns what is wrong with a built tool's options for this input ([] when nothing). */
export function paramProblems<T extends BuiltToolType>(type: T, params: ToolParams[T], input: InputFacts): Problem[] {
  switch (type) {
    case 'EXTRACT_AUDIO': {
      const p = params as ExtractAudioParams;
      return (LIMITS.audioFormats as readonly string[]).includes(p.format) ? [] : [{ field: 'params.format', key: 'oneOf', values: { list: LIMITS.audioFormats.join(', ') } }];
    }
    case 'VIDEO_TO_GIF': {
      const p = params as GifParams;
      const problems = rangeProblems('params.startMs', 'params.endMs', p, input.durationMs);
      if (!Number.isInteger(p.fps) || !within(p.fps, LIMITS.gif.fps)) problems.push({ field: 'params.fps', key: 'between', values: LIMITS.gif.fps });
      if (!Number.isInteger(p.width) || !within(p.width, LIMITS.gif.width)) problems.push({ field: 'params.width', key: 'between', values: LIMITS.gif.width });
      return problems;
    }
    case 'VIDEO_COMPRESS': {
      const p = params as Partial<{ targetBytes: number; quality: string }>;
      const hasTarget = p.targetBytes !== undefined;
      const hasQuality = p.quality !== undefined;
      if (hasTarget === hasQuality) return [{ field: 'params', key: 'compressOne' }];
      if (hasTarget) return Number.isInteger(p.targetBytes) && (p.targetBytes ?? 0) > 0 ? [] : [{ field: 'params.targetBytes', key: 'positive' }];
      return (LIMITS.qualities as readonly string[]).includes(p.quality ?? '') ? [] : [{ field: 'params.quality', key: 'oneOf', values: { list: LIMITS.qualities.join(', ') } }];
    }
    case 'VIDEO_SPEEDUP': {
      const p = params as SpeedParams;
      return within(p.speed, LIMITS.speed) ? [] : [{ field: 'params.speed', key: 'between', values: LIMITS.speed }];
    }
    case 'QUICK_CUT_VIDEO':
    case 'QUICK_CUT_AUDIO':
      return cutProblems(params as CutParams, input.durationMs);
    case 'VIDEO_REPLACE_AUDIO': {
      const p = params as ReplaceAudioParams;
      if (!(LIMITS.soundModes as readonly string[]).includes(p.mode)) return [{ field: 'params.mode', key: 'oneOf', values: { list: LIMITS.soundModes.join(', ') } }];
      const problems: Problem[] = [];
      if (p.mode !== 'replace') {
        const range = p.mode === 'gain' ? LIMITS.gainDb : LIMITS.mixDb;
        if (!within(p.gainDb, range)) problems.push({ field: 'params.gainDb', key: 'between', values: range });
      }
      if (p.mode !== 'gain' && !within(p.loudnessLufs, LIMITS.loudnessLufs)) problems.push({ field: 'params.loudnessLufs', key: 'between', values: LIMITS.loudnessLufs });
      if (p.mode !== 'replace' && !input.hasAudio && input.kind === 'video') problems.push({ field: p.mode === 'gain' ? 'materialIds' : 'materialIds[0]', key: 'noSoundToChange' });
      return problems;
    }
    case 'PRE_PICTURE_VIDEO':
      return [];
    case 'VIDEO_H_TO_V': {
      const p = params as HToVParams;
      if (!(LIMITS.reframes as readonly string[]).includes(p.mode)) return [{ field: 'params.mode', key: 'oneOf', values: { list: LIMITS.reframes.join(', ') } }];
      return input.width > 0 && input.height > 0 && input.width <= input.height ? [{ field: 'materialIds', key: 'notLandscape' }] : [];
    }
    case 'VIDEO_SPLIT': {
      const split = params as SplitParams;
      if (byScenes(split)) {
        const problems = detectProblems(split);
        if (problems.length === 0 && input.durationMs > 0 && split.minSceneMs * 2 > input.durationMs) {
          problems.push({ field: 'params.minSceneMs', key: 'twoScenes', values: { seconds: (input.durationMs / 1000).toFixed(1) } });
        }
        return problems;
      }
      const p = split;
      if (p.times.length === 0 || p.times.length > LIMITS.split.maxTimes) return [{ field: 'params.times', key: 'splitCount', values: { max: LIMITS.split.maxTimes } }];
      let from = 0;
      for (let i = 0; i < p.times.length; i += 1) {
        const t = p.times[i] ?? 0;
        if (!Number.isInteger(t) || t < from + LIMITS.split.minPieceMs) return [{ field: `params.times[${i}]`, key: 'splitOrder', values: { ms: LIMITS.split.minPieceMs } }];
        from = t;
      }
      if (input.durationMs > 0 && from + LIMITS.split.minPieceMs > input.durationMs) {
        return [{ field: `params.times[${p.times.length - 1}]`, key: 'rangeOutside', values: { seconds: (input.durationMs / 1000).toFixed(1) } }];
      }
      return [];
    }
    case 'INTELLIGENT_TASK': {
      const p = params as HighlightsParams;
      const problems = detectProblems(p);
      if (!Number.isInteger(p.targetMs) || !within(p.targetMs, LIMITS.targetMs)) {
        problems.push({ field: 'params.targetMs', key: 'betweenSeconds', values: { min: LIMITS.targetMs.min / 1000, max: LIMITS.targetMs.max / 1000 } });
      }
      if (!Number.isInteger(p.minKeepMs) || !within(p.minKeepMs, LIMITS.minSceneMs)) {
        problems.push({ field: 'params.minKeepMs', key: 'betweenSeconds', values: { min: LIMITS.minSceneMs.min / 1000, max: LIMITS.minSceneMs.max / 1000 } });
      } else if (p.minKeepMs > p.targetMs) {
        problems.push({ field: 'params.minKeepMs', key: 'keepOverTarget' });
      } else if (input.durationMs > 0 && p.minKeepMs > input.durationMs) {
        problems.push({ field: 'params.minKeepMs', key: 'rangeOutside', values: { seconds: (input.durationMs / 1000).toFixed(1) } });
      }
      return problems;
    }
    case 'EXTRACT_PERSON_AUDIO':
      return [];
    case 'VIDEO_KEY_FRAMES': {
      const p = params as KeyFramesParams;
      if (!(LIMITS.keyFrameModes as readonly string[]).includes(p.mode)) return [{ field: 'params.mode', key: 'oneOf', values: { list: LIMITS.keyFrameModes.join(', ') } }];
      if (p.mode === 'scenes') return detectProblems(p);
      if (!Number.isInteger(p.everyMs) || !within(p.everyMs, LIMITS.everyMs)) {
        return [{ field: 'params.everyMs', key: 'betweenSeconds', values: { min: LIMITS.everyMs.min / 1000, max: LIMITS.everyMs.max / 1000 } }];
      }
      if (intervalPictures(p.everyMs, input.durationMs) > LIMITS.maxPictures) {
        return [{ field: 'params.everyMs', key: 'toolboxFrames.problem.tooManyPictures', values: { max: LIMITS.maxPictures, seconds: Math.ceil(input.durationMs / LIMITS.maxPictures / 100) / 10 } }];
      }
      return [];
    }
    case 'VIDEO_REMOVE_WATERMARK': {
      const p = params as WatermarkParams;
      return boxProblems(p, p.method, input, false);
    }
    case 'VIDEO_REMOVE_SUBTITLE': {
      const p = params as CaptionParams;
      if (!(LIMITS.bandModes as readonly string[]).includes(p.mode)) return [{ field: 'params.mode', key: 'oneOf', values: { list: LIMITS.bandModes.join(', ') } }];
      if (p.mode === 'detect') {
        return (LIMITS.eraseMethods as readonly string[]).includes(p.method) ? [] : [{ field: 'params.method', key: 'oneOf', values: { list: LIMITS.eraseMethods.join(', ') } }];
      }
      return boxProblems({ x: 0, y: p.y, width: input.width, height: p.height }, p.method, input, true);
    }
    case 'PPT_CONVERTER': {
      const p = params as SlidesParams;
      const problems: Problem[] = [];
      if (!within(p.secondsPerPage, LIMITS.pageSeconds)) problems.push({ field: 'params.secondsPerPage', key: 'between', values: LIMITS.pageSeconds });
      if (!Number.isInteger(p.crossfadeMs) || !within(p.crossfadeMs, LIMITS.crossfadeMs)) problems.push({ field: 'params.crossfadeMs', key: 'between', values: LIMITS.crossfadeMs });
      else if (p.crossfadeMs >= p.secondsPerPage * 1000) problems.push({ field: 'params.crossfadeMs', key: 'toolboxLooks.problem.fadeOverPage' });
      return problems;
    }
    case 'VIDEO_BEAUTY': {
      const p = params as BeautyParams;
      const problems: Problem[] = [];
      if (!Number.isInteger(p.strength) || !within(p.strength, LIMITS.strength)) problems.push({ field: 'params.strength', key: 'between', values: LIMITS.strength });
      for (const key of ['brightness', 'warmth'] as const) {
        if (!Number.isInteger(p[key]) || !within(p[key], LIMITS.tone)) problems.push({ field: `params.${key}`, key: 'between', values: LIMITS.tone });
      }
      return problems;
    }
    case 'INCREASE_RESOLUTION': {
      const p = params as UpscaleParams;
      if (!(LIMITS.upscaleTargets as readonly string[]).includes(p.target)) return [{ field: 'params.target', key: 'oneOf', values: { list: LIMITS.upscaleTargets.join(', ') } }];
      if (!Number.isInteger(p.sharpen) || !within(p.sharpen, LIMITS.sharpen)) return [{ field: 'params.sharpen', key: 'between', values: LIMITS.sharpen }];
      if (input.width > 0 && input.height > 0 && !upscaleSize(p.target, input)) return [{ field: 'params.target', key: 'toolboxLooks.problem.noUpscale', values: { size: `${input.width}×${input.height}` } }];
      return [];
    }
    default:
      return [];
  }
}

/** What is wrong with scene detection's options. */
function detectProblems(p: SceneDetectParams): Problem[] {
  const problems: Problem[] = [];
  if (!Number.isInteger(p.sensitivity) || !within(p.sensitivity, LIMITS.sensitivity)) problems.push({ field: 'params.sensitivity', key: 'between', values: LIMITS.sensitivity });
  if (!Number.isInteger(p.minSceneMs) || !within(p.minSceneMs, LIMITS.minSceneMs)) {
    problems.push({ field: 'params.minSceneMs', key: 'betweenSeconds', values: { min: LIMITS.minSceneMs.min / 1000, max: LIMITS.minSceneMs.max / 1000 } });
  }
  return problems;
}

/** What is wrong with the second material for this tool: its kind, and sound where a sound is asked for. */
export function secondInputProblems(kind: InputKind, input: InputFacts): Problem[] {
  const field = 'materialIds[1]';
  if (input.kind !== kind) return [{ field, key: kind === 'audio' ? 'needsAudio' : kind === 'picture' ? 'needsPicture' : 'needsVideo' }];
  if (kind === 'audio' && !input.hasAudio) return [{ field, key: 'noSound' }];
  return [];
}

/** Returns what is wrong with the input for this tool: its kind, its sound, the tool's size and length limits. */
export function inputProblems(tool: BuiltTool, input: InputFacts, limits: Pick<ToolType, 'maxInputBytes' | 'maxInputSeconds'>, field = 'materialIds'): Problem[] {
  if (input.kind !== tool.input) return [{ field, key: tool.input === 'audio' ? 'needsAudio' : tool.input === 'pptx' ? 'toolboxLooks.problem.needsPptx' : 'needsVideo' }];
  if (tool.needsSound && tool.input === 'video' && !input.hasAudio) return [{ field, key: 'noSound' }];
  if (limits.maxInputBytes > 0 && input.bytes > limits.maxInputBytes) return [{ field, key: 'tooLarge', values: { mb: Math.floor(limits.maxInputBytes / 1024 ** 2) } }];
  if (limits.maxInputSeconds > 0 && input.durationMs > limits.maxInputSeconds * 1000) return [{ field, key: 'tooLong', values: { seconds: limits.maxInputSeconds } }];
  return [];
}

/**
 * Bytes a GIF frame takes per pixel after the palette and LZW, on camera video: measured GIFs of
 * such clips lie around 0.1–0.2; the estimate is said to be one ("about").
 */
export const GIF_BYTES_PER_PIXEL = 0.15;

/** The GIF's height for a width, keeping the clip's aspect (even, as the encoder scales). */
export function gifHeight(width: number, input: Pick<InputFacts, 'width' | 'height'>): number {
  if (!(input.width > 0 && input.height > 0)) return Math.round((width * 9) / 16);
  return Math.max(2, Math.round((width * input.height) / input.width / 2) * 2);
}

/** About how large the GIF will be, bytes. */
export function gifSizeEstimate(params: GifParams, input: Pick<InputFacts, 'width' | 'height'>): number {
  const frames = Math.max(1, Math.ceil(((params.endMs - params.startMs) / 1000) * params.fps));
  return Math.round(params.width * gifHeight(params.width, input) * frames * GIF_BYTES_PER_PIXEL);
}

/** The share of the input's size each quality keeps, roughly (the encoder's rate factor decides). */
export const QUALITY_SHARE: Record<Quality, number> = { high: 0.6, medium: 0.35, low: 0.2 };

/** About how large the compressed video will be, bytes: the target itself, or the quality's share of the input. */
export function compressEstimate(params: CompressParams, inputBytes: number): number {
  if ('targetBytes' in params) return params.targetBytes;
  return Math.round(inputBytes * QUALITY_SHARE[params.quality]);
}

/** The output's length after a speed change, ms. */
export function speedDurationMs(durationMs: number, speed: number): number {
  return speed > 0 ? Math.round(durationMs / speed) : 0;
}

/** The output's length after a cut, ms. */
export function cutDurationMs(params: CutParams, durationMs: number): number {
  const chosen = params.ranges.reduce((sum, r) => sum + Math.max(0, Math.min(r.endMs, durationMs) - Math.max(0, r.startMs)), 0);
  return params.mode === 'keep' ? chosen : Math.max(0, durationMs - chosen);
}
