import {
  byScenes,
  splitPieces,
  type BuiltToolType,
  type CaptionParams,
  type CompressParams,
  type CutParams,
  type ExtractAudioParams,
  type GifParams,
  type HighlightsParams,
  type HToVParams,
  type InputFacts,
  type PictureVideoParams,
  type ReplaceAudioParams,
  type SpeedParams,
  type SplitParams,
  type TimeRange,
  type ToolParams,
  type VocalsParams,
  type WatermarkParams,
  type SlidesParams,
  type BeautyParams,
  type UpscaleParams,
  type KeyFramesParams,
} from '../params';
import type { RangeTone } from '../InputPreview';
import { CompressOptions } from './CompressOptions';
import { CutOptions } from './CutOptions';
import { CaptionOptions, WatermarkOptions } from './EraseOptions';
import { ExtractAudioOptions } from './ExtractAudioOptions';
import { GifOptions } from './GifOptions';
import { HToVOptions } from './HToVOptions';
import { KeyFramesOptions } from './KeyFramesOptions';
import { BeautyOptions, SlidesOptions, UpscaleOptions } from './LookOptions';
import { PictureVideoOptions } from './PictureVideoOptions';
import { ReplaceAudioOptions } from './ReplaceAudioOptions';
import { HighlightsOptions, VocalsOptions } from './SceneOptions';
import { SpeedOptions } from './SpeedOptions';
import { SplitOptions } from './SplitOptions';

export interface ToolOptionsProps {
  type: BuiltToolType;
  params: ToolParams[BuiltToolType];
  onChange: (params: ToolParams[BuiltToolType]) => void;
  input: InputFacts;
  /** The preview's playhead, ms. */
  currentMs: number;
  /** The chosen input's address, for the options drawn on one of its frames. */
  frameUrl: string;
}

/** The options form of a built tool. */
export function ToolOptions({ type, params, onChange, input, currentMs, frameUrl }: ToolOptionsProps) {
  switch (type) {
    case 'EXTRACT_AUDIO':
      return <ExtractAudioOptions value={params as ExtractAudioParams} onChange={onChange} />;
    case 'VIDEO_TO_GIF':
      return <GifOptions value={params as GifParams} onChange={onChange} input={input} currentMs={currentMs} />;
    case 'VIDEO_COMPRESS':
      return <CompressOptions value={params as CompressParams} onChange={onChange} input={input} />;
    case 'VIDEO_SPEEDUP':
      return <SpeedOptions value={params as SpeedParams} onChange={onChange} input={input} />;
    case 'QUICK_CUT_VIDEO':
    case 'QUICK_CUT_AUDIO':
      return <CutOptions value={params as CutParams} onChange={onChange} input={input} currentMs={currentMs} />;
    case 'VIDEO_REPLACE_AUDIO':
      return <ReplaceAudioOptions value={params as ReplaceAudioParams} onChange={onChange} />;
    case 'PRE_PICTURE_VIDEO':
      return <PictureVideoOptions value={params as PictureVideoParams} onChange={onChange} />;
    case 'VIDEO_H_TO_V':
      return <HToVOptions value={params as HToVParams} onChange={onChange} input={input} />;
    case 'VIDEO_SPLIT':
      return <SplitOptions value={params as SplitParams} onChange={onChange} input={input} currentMs={currentMs} />;
    case 'INTELLIGENT_TASK':
      return <HighlightsOptions value={params as HighlightsParams} onChange={onChange} input={input} />;
    case 'EXTRACT_PERSON_AUDIO':
      return <VocalsOptions value={params as VocalsParams} onChange={onChange} />;
    case 'VIDEO_REMOVE_WATERMARK':
      return <WatermarkOptions value={params as WatermarkParams} onChange={onChange} input={input} frameUrl={frameUrl} currentMs={currentMs} />;
    case 'VIDEO_REMOVE_SUBTITLE':
      return <CaptionOptions value={params as CaptionParams} onChange={onChange} input={input} frameUrl={frameUrl} currentMs={currentMs} />;
    case 'PPT_CONVERTER':
      return <SlidesOptions value={params as SlidesParams} onChange={onChange} />;
    case 'VIDEO_BEAUTY':
      return <BeautyOptions value={params as BeautyParams} onChange={onChange} />;
    case 'INCREASE_RESOLUTION':
      return <UpscaleOptions value={params as UpscaleParams} onChange={onChange} input={input} />;
    case 'VIDEO_KEY_FRAMES':
      return <KeyFramesOptions value={params as KeyFramesParams} onChange={onChange} input={input} />;
  }
}

/** The stretches a tool's options pick, to draw over the input (none for tools that take it whole). */
export function previewRanges(type: BuiltToolType, params: ToolParams[BuiltToolType], durationMs: number): { ranges: TimeRange[]; tone: RangeTone } {
  if (type === 'VIDEO_TO_GIF') {
    const p = params as GifParams;
    return { ranges: [{ startMs: p.startMs, endMs: p.endMs }], tone: 'use' };
  }
  if (type === 'QUICK_CUT_VIDEO' || type === 'QUICK_CUT_AUDIO') {
    const p = params as CutParams;
    return { ranges: p.ranges, tone: p.mode };
  }
  const split = params as SplitParams;
  if (type === 'VIDEO_SPLIT' && durationMs > 0 && !byScenes(split)) {
    // Every other clip drawn: the bar shows where the cuts fall.
    return { ranges: splitPieces(split, durationMs).filter((_, i) => i % 2 === 0), tone: 'use' };
  }
  return { ranges: [], tone: 'use' };
}
