/** The manage area's calls (docs/materials.md "Manage area"): the index's counts, the review queues, the music library. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { queryKeys } from '@/api/keys';
import type { Material, MaterialPage } from '@/api/material';

/** The review queues of users' submissions, as the pages' addresses name them. */
export const REVIEW_QUEUES = ['chartlet', 'artfont', 'dynamicword'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];

/** The audit states a queue is shown by (the pages' `:type`). */
export const REVIEW_STATES = ['pending', 'passed', 'rejected'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** Open states of a user's material: private, approved into the tenant's library, submitted, rejected. */
export const OpenState = { private: 0, approved: 1, submitted: 2, rejected: 3 } as const;

/** Rows of a review or music page. */
export const MANAGE_PAGE_SIZE = 20;

/** One count of the manage index. */
export interface QueueCount {
  queue: 'template' | ReviewQueue | 'service';
  pending: number;
}

/** The manage index: what waits for review, and the music library's size. */
export interface Overview {
  queues: QueueCount[];
  musicTracks: number;
}

const keys = {
  all: ['manage'] as const,
  overview: ['manage', 'overview'] as const,
  queue: (queue: ReviewQueue, state: ReviewState, pageNum: number) => ['manage', 'queue', queue, state, pageNum] as const,
  music: (pageNum: number) => ['manage', 'music', pageNum] as const,
};

function page(data: Partial<MaterialPage> | undefined, pageNum: number): MaterialPage {
  const dataList = Array.isArray(data?.dataList) ? data.dataList : [];
  return { total: data?.total ?? dataList.length, pageNum: data?.pageNum ?? pageNum, pageSize: data?.pageSize ?? MANAGE_PAGE_SIZE, dataList };
}

/** Returns the manage index's counts. */
export function useOverview() {
  return useQuery({
    queryKey: keys.overview,
    queryFn: async () => {
      const data = await api.get<Partial<Overview> | undefined>('/manage/overview');
      return { queues: Array.isArray(data?.queues) ? data.queues : [], musicTracks: data?.musicTracks ?? 0 };
    },
  });
}

/** Returns one page of a review queue in one audit state. */
export function useReviewQueue(queue: ReviewQueue, state: ReviewState, pageNum: number) {
  return useQuery({
    queryKey: keys.queue(queue, state, pageNum),
    queryFn: async () => page(await api.post<Partial<MaterialPage>>('/manage/review/list', { queue, state, pageNum, pageSize: MANAGE_PAGE_SIZE }), pageNum),
    placeholderData: keepPreviousData,
  });
}

/** A decision on submitted materials: approve, or reject with the reason their owner reads. */
export interface Decision {
  materialIds: string[];
  approve: boolean;
  reason?: string;
}

/** Invalidates what a manage change shows in: the manage pages and every library list. */
function useRefresh() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: keys.all }), client.invalidateQueries({ queryKey: queryKeys.material.lists })]);
}

/** Approves or rejects; the queues, the counts and the libraries reload. */
export function useDecide() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (d: Decision) => api.post<{ changed?: number }>('/manage/review/decide', { ...d }, { silent: true }),
    onSettled: refresh,
  });
}

/** Returns one page of the music library; it refreshes while a track is being probed. */
export function useMusic(pageNum: number) {
  return useQuery({
    queryKey: keys.music(pageNum),
    queryFn: async () => page(await api.post<Partial<MaterialPage>>('/manage/music/list', { pageNum, pageSize: MANAGE_PAGE_SIZE }), pageNum),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.dataList.some((m: Material) => m.state === 'processing') ? 2_000 : false),
  });
}

/** Uploads one track into the music library; answers its id. */
export function useUploadMusic() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ file, materialName }: { file: File; materialName?: string }) => {
      const form = new FormData();
      if (materialName?.trim()) form.append('materialName', materialName.trim());
      form.append('uploadFile', file, file.name);
      const answer = await api.post<{ id?: string } | undefined>('/manage/music/upload', form, { silent: true });
      return answer?.id ?? '';
    },
    onSettled: refresh,
  });
}

/** What an edit of tracks changes; absent fields stay. */
export interface MusicEdit {
  materialIds: string[];
  materialName?: string;
  openState?: number;
}

/** Renames, offers or withdraws tracks; the lists reload. */
export function useUpdateMusic() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ materialIds, ...changes }: MusicEdit) => api.post('/manage/music/update', { materialIds: materialIds.join(','), ...changes }, { silent: true }),
    onSettled: refresh,
  });
}

/** Submits the caller's own materials to the tenant's library (open state 2), or takes them back (0). */
export function useSubmitMaterials() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ materialIds, submit }: { materialIds: string[]; submit: boolean }) =>
      api.post('/material/batchUpdateOpenState', { materialIds: materialIds.join(','), openState: submit ? OpenState.submitted : OpenState.private }, { silent: true }),
    onSettled: refresh,
  });
}
