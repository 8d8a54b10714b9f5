/** Toolbox pages under /tools (spec platform §2), in menu order; `page` is the locale key. */
export const TOOLS = [
  { path: 'audio-to-video', page: 'audioToVideo' },
  { path: 'business-card', page: 'businessCard' },
  { path: 'ai-video-cut', page: 'aiVideoCut' },
  { path: 'ai-extract-portrait', page: 'aiExtractPortrait' },
  { path: 'ai-recover-video', page: 'aiRecoverVideo' },
  { path: 'fast-video-cut', page: 'fastVideoCut' },
  { path: 'fast-audio-cut', page: 'fastAudioCut' },
  { path: 'extract-audio', page: 'extractAudio' },
  { path: 'ai-one-step-video-cut', page: 'aiOneStepVideoCut' },
  { path: 'ai-frame-cut', page: 'aiFrameCut' },
  { path: 'ppt', page: 'ppt' },
  { path: 'speed-video', page: 'speedVideo' },
  { path: 'replace-video-volume', page: 'replaceVideoVolume' },
  { path: 'video-to-gif', page: 'videoToGif' },
  { path: 'video-separation', page: 'videoSeparation' },
  { path: 'smart-watermark-remove', page: 'smartWatermarkRemove' },
  { path: 'remove-captions', page: 'removeCaptions' },
  { path: 'change-screen', page: 'changeScreen' },
  { path: 'video-compress', page: 'videoCompress' },
  { path: 'intelligent-beauty', page: 'intelligentBeauty' },
  { path: 'intelligent-generation', page: 'intelligentGeneration' },
  { path: 'vocal-separate', page: 'vocalSeparate' },
] as const;

export const DEFAULT_TOOL = 'audio-to-video';
