/**
 * The AI smart task (spec platform §7 "AI and toolbox", editor-core's AI state `smartTask`): the
 * tenant's industry categories, a smart task of one video (its liveliest scenes, each its own clip;
 * an INTELLIGENT_TASK run of the toolbox) and the task read back until its clips are my materials.
 * Query keys are local to this module: nothing else reads or invalidates them.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TaskVideoCategory } from './category';
import { api } from './client';

/** A smart task as `POST /aitask/get` answers it. */
export interface SmartTask {
  id: number;
  industryId: number;
  state: 'waiting' | 'running' | 'done' | 'failed' | 'cancelled';
  status: number;
  progress: number;
  reason: string;
  materialIds: string[];
  /** The clips as my materials, in time order, once done. */
  aiCutedIds: string[];
  /** The stretches of the video each clip is, ms. */
  ranges: { startMs: number; endMs: number }[];
  src: string;
  cover: string;
}

export interface SmartClipsInput {
  materialIds: string[];
  industryId: number;
  targetMs: number;
}

/** How often a smart task that has not ended is read again, ms. */
export const SMART_TASK_POLL_MS = 1_000;

const ENDED = ['done', 'failed', 'cancelled'];

/** The tenant's industry categories a smart task is filed under. */
export function useIndustries() {
  return useQuery({
    queryKey: ['aitask', 'categories'],
    queryFn: async () => (await api.get<{ dataList?: TaskVideoCategory[] | null } | undefined>('/aitask/getCategory'))?.dataList ?? [],
    staleTime: 5 * 60_000,
  });
}

/** Queues a smart task; answers its id. Refusals come back to the caller (they name their field). The body is form-encoded (spec editor-core §6), the ids joined by commas. */
export function useSmartClips() {
  return useMutation({
    mutationFn: (input: SmartClipsInput) => api.post<{ id: number }>('/aitask/smartClips', { ...input, materialIds: input.materialIds.join(',') }, { silent: true }),
  });
}

/** A smart task, read again every second until it has ended. */
export function useSmartTask(id: number | null) {
  return useQuery({
    queryKey: ['aitask', 'task', id],
    queryFn: () => api.post<SmartTask>('/aitask/get', { id }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && ENDED.includes(query.state.data.state) ? false : SMART_TASK_POLL_MS),
  });
}
