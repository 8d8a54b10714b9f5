import type { ToolRun, ToolType } from '@/api/toolbox';

/** A tool type as GET /toolbox/types lists it, available and shown unless told otherwise. */
export function toolType(type: string, path: string, change: Partial<ToolType> = {}): ToolType {
  return { type, path, shown: true, available: true, reason: '', reasonCode: '', maxInputBytes: 0, maxInputSeconds: 0, ...change };
}

/** The server's list: the six built tools, one without a model, one hidden. */
export const TOOL_TYPES: ToolType[] = [
  toolType('EXTRACT_AUDIO', 'extract-audio'),
  toolType('VIDEO_TO_GIF', 'video-to-gif'),
  toolType('VIDEO_COMPRESS', 'video-compress'),
  toolType('VIDEO_SPEEDUP', 'speed-video'),
  toolType('QUICK_CUT_VIDEO', 'fast-video-cut'),
  toolType('QUICK_CUT_AUDIO', 'fast-audio-cut'),
  toolType('VIDEO_BEAUTY', 'intelligent-beauty', { available: false, reason: 'this tool is not built yet', reasonCode: 'not_built' }),
  toolType('EXTRACT_PORTRAIT', 'ai-extract-portrait', {
    shown: false,
    available: false,
    reason: 'person matting needs a segmentation model, and none ships in a package on the farm',
    reasonCode: 'no_model',
  }),
];

/** A tool run as the server answers it. */
export function toolRun(id: number, status: number, change: Partial<ToolRun> = {}): ToolRun {
  return {
    id,
    type: 'VIDEO_TO_GIF',
    name: `运行${id}`,
    status,
    percent: status === 10 ? 100 : 0,
    stage: status === 10 ? 'done' : 'queued',
    reason: status === 9 ? '输入没有视频流' : '',
    params: {},
    materialIds: ['42'],
    outputs: [],
    createdMs: 1_795_000_000_000,
    updatedMs: 1_795_000_000_000,
    ...change,
  };
}

/** GET /material/quota of a user with no limits and nothing stored. */
export const NO_QUOTA = { usedBytes: 0, limitBytes: 0, materials: 0, limitMaterials: 0, tenantUsedBytes: 0, tenantLimitBytes: 0, tenantMaterials: 0, tenantLimitMaterials: 0 };
