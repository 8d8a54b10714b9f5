/** Material calls of CONTRACT.md "Materials": listing, upload with progress, rename, delete, move, state. */
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from './client';
import { scaleBytes } from './bytes';
import { uploadResumable } from './resumableUpload';
import { ApiError, UNSUPPORTED_FILE_TYPE } from './errors';
import { materialTypeOf } from './uploadFormats';
import { queryKeys } from './keys';

/** Wire names of material kinds (the material service's MaterialKind). */
export type MaterialType =
  | 'picture'
  | 'gif'
  | 'video'
  | 'audio'
  | 'pptx'
  | 'shape'
  | 'materialGroup'
  | 'specialEffects'
  | 'artWord'
  | 'backgrounds'
  | 'dynamicWord';

/** Where a material is in its life: probing after upload, usable, or rejected by probing. */
export type MaterialState = 'processing' | 'ready' | 'failed';

/** A material as the server describes it; media URLs are already signed. */
export interface Material {
  id: string;
  materialName: string;
  type: MaterialType | string;
  categoryId: number;
  styleId: number;
  /** 0 private, 1 open, 2 pending audit, 3 rejected. */
  openState: number;
  reasonsForFailureOfAudit: string;
  state: MaterialState | string;
  failReason: string;
  /** Bytes. */
  fileSize: number;
  /** 'WxH' or ''. */
  size: string;
  width: number;
  height: number;
  /** Seconds; 0 for stills. */
  duration: number;
  frameRate: number;
  rotation: number;
  hasAudio: boolean;
  codec: string;
  /** 1 landscape or square, 2 portrait. */
  horizontalOrVertical: number;
  url: string;
  coverUrl: string;
  filmstripUrl: string;
  waveformUrl: string;
  previewUrl: string;
  createTime: string;
}

/** A page of materials. */
export interface MaterialPage {
  total: number;
  pageNum: number;
  pageSize: number;
  dataList: Material[];
}

/** horizontalOrVertical values (spec: horizontal 0, vertical 1). */
export const Orientation = { landscape: 0, portrait: 1 } as const;
export type OrientationValue = (typeof Orientation)[keyof typeof Orientation];
/** The orientation filter's "every orientation" choice: not a wire value, the filter is then not sent. */
export const ANY_ORIENTATION = 'all';
/** A choice of the orientation filter. */
export type OrientationChoice = typeof ANY_ORIENTATION | OrientationValue;

/** Sort orders of a material listing. */
export type MaterialOrder = 'newest' | 'hottest';

/** Default workbench material category (spec platform §9): the route's default, listing every category. */
export const DEFAULT_MATERIAL_CATEGORY = 1200;
/** Every category (the ofuser default). */
export const ALL_CATEGORIES = -1;
/** Page size of the infinite lists. */
export const MATERIAL_PAGE_SIZE = 30;

/** What a material list shows: the caller's own materials (ofuser) or the tenant's system ones (ofdefault). */
export interface MaterialFilter {
  source: 'user' | 'default';
  categoryId: number;
  type?: MaterialType;
  horizontalOrVertical?: OrientationValue;
  orderType?: MaterialOrder;
  pageSize?: number;
  /** A background style class (1–8, spec editor-core §2); absent: any. */
  styleId?: number;
}

/** Body of /material/ofuser and /material/ofdefault for one page; absent filters are not sent. */
export function materialListBody(filter: MaterialFilter, pageNum: number): Record<string, unknown> {
  return {
    pageNum,
    pageSize: filter.pageSize ?? MATERIAL_PAGE_SIZE,
    categoryId: filter.categoryId,
    type: filter.type,
    horizontalOrVertical: filter.horizontalOrVertical,
    orderType: filter.orderType,
    styleId: filter.styleId,
  };
}

/** Fetches one page of a material list. */
export async function fetchMaterialPage(filter: MaterialFilter, pageNum: number): Promise<MaterialPage> {
  const url = filter.source === 'user' ? '/material/ofuser' : '/material/ofdefault';
  const data = await api.post<Partial<MaterialPage> | undefined>(url, materialListBody(filter, pageNum));
  const dataList = Array.isArray(data?.dataList) ? data.dataList : [];
  return { total: data?.total ?? dataList.length, pageNum: data?.pageNum ?? pageNum, pageSize: data?.pageSize ?? dataList.length, dataList };
}

/** Returns the page number after `pages`, or undefined once everything is loaded. */
export function nextMaterialPage(pages: MaterialPage[]): number | undefined {
  const last = pages[pages.length - 1];
  if (!last || last.dataList.length === 0) return undefined;
  const loaded = pages.reduce((n, p) => n + p.dataList.length, 0);
  return loaded < last.total ? last.pageNum + 1 : undefined;
}

/** Returns a material list, a page at a time (infinite scroll). */
export function useMaterials(filter: MaterialFilter, enabled = true) {
  return useInfiniteQuery({
    queryKey: queryKeys.material.list(filter),
    queryFn: ({ pageParam }) => fetchMaterialPage(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (_last, pages) => nextMaterialPage(pages),
    enabled,
  });
}

/** Query options for one material. */
export function materialInfoQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.material.info(id),
    queryFn: () => api.post<Material>(`/material/info/${encodeURIComponent(id)}`),
  });
}

/** Returns one material. */
export function useMaterialInfo(id: string | null) {
  return useQuery({ ...materialInfoQuery(id ?? ''), enabled: id !== null });
}

/** Answer of /material/getVideoState. */
export interface MaterialStateAnswer {
  state: MaterialState | string;
  failReason: string;
}

/** How often a processing material's state is asked for. */
export const STATE_POLL_MS = 3_000;

/**
 * Returns cached list pages with material `id` carrying the probe's end state, or the same pages
 * when no row changes: a list row decides whether a card can be picked, so it must not stay
 * "processing" while its badge already says ready and the reload is still on its way.
 */
export function settleListed(data: InfiniteData<MaterialPage> | undefined, id: string, answer: MaterialStateAnswer) {
  if (!data || !Array.isArray(data.pages)) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.dataList.some((m) => m.id === id && m.state !== answer.state)) return page;
    changed = true;
    return { ...page, dataList: page.dataList.map((m) => (m.id === id ? { ...m, state: answer.state, failReason: answer.failReason } : m)) };
  });
  return changed ? { ...data, pages } : data;
}

/**
 * Follows a processing material until probing ends; then its rows in the cached lists take the end
 * state at once and the lists reload so the row carries its cover, size and duration.
 */
export function useMaterialState(id: string, processing: boolean) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.material.state(id),
    queryFn: async () => {
      const answer = await api.post<MaterialStateAnswer>('/material/getVideoState', { id }, { silent: true });
      if (answer.state !== 'processing') {
        client.setQueriesData<InfiniteData<MaterialPage>>({ queryKey: queryKeys.material.lists }, (data) => settleListed(data, id, answer));
        void client.invalidateQueries({ queryKey: queryKeys.material.lists });
      }
      return answer;
    },
    enabled: processing,
    refetchInterval: (query) => (query.state.data && query.state.data.state !== 'processing' ? false : STATE_POLL_MS),
  });
}

/** Returns a material's loudness in dB; the server refuses silence (below −96 dB) with code 3000. */
export function fetchVolumeDb(materialId: string): Promise<number> {
  return api.post<number>('/material/getVolumeDB', { materialId });
}

/** Returns the loudness of an audio or video material. */
export function useVolumeDb(materialId: string | null) {
  return useQuery({
    queryKey: ['material', 'volumeDb', materialId ?? ''] as const,
    queryFn: () => fetchVolumeDb(materialId ?? ''),
    enabled: materialId !== null,
    retry: false,
  });
}

export { materialTypeOf, UPLOAD_ACCEPT } from './uploadFormats';

const UPLOADED_PREFIX = 'UPLOADED - ';

/** Returns the material id of an upload answer 'UPLOADED - {id}', or null. */
export function parseUploadedId(answer: unknown): string | null {
  if (typeof answer !== 'string' || !answer.startsWith(UPLOADED_PREFIX)) return null;
  const id = answer.slice(UPLOADED_PREFIX.length).trim();
  return id === '' ? null : id;
}

/** Who uploads, and where to. */
export interface UploadTarget {
  userId: string;
  categoryId?: number;
}

/**
 * Uploads one file as a material (POST /upload/material, multipart, the file the last part) and
 * returns the new material's id. A file of an unknown type is refused before anything is sent
 * (`data.reason` unsupported_file_type, as the gateway words it). Aborting `signal` cancels the
 * upload (an ApiError of kind 'cancelled'); the gateway keeps nothing of a body it did not get whole.
 */
export async function uploadMaterial(file: File, target: UploadTarget, onProgress?: (percent: number) => void, signal?: AbortSignal): Promise<string> {
  const url = '/upload/material';
  const type = materialTypeOf(file.name);
  if (!type) throw new ApiError({ kind: 'business', url, desc: 'unsupported file type', message: 'unsupported file type', data: { reason: UNSUPPORTED_FILE_TYPE } });
  const form = new FormData();
  form.append('userId', target.userId);
  form.append('type', type);
  form.append('expireDay', '1000');
  form.append('categoryId', String(target.categoryId ?? ALL_CATEGORIES));
  form.append('styleId', '-1');
  form.append('materialState', '0');
  form.append('uploadFile', file, file.name);
  // A transport failure (a dropped connection, a gateway's 502/503) is tried again before anyone is told.
  const answer = await api.post<unknown>(url, form, { onUploadProgress: onProgress, retry: true, signal });
  const id = parseUploadedId(answer);
  if (!id) throw new ApiError({ kind: 'business', url, desc: String(answer), message: `${url}: unexpected answer` });
  return id;
}

/** One upload: the file, where it goes, and what the uploader is told as it goes. */
export interface UploadVars {
  file: File;
  target: UploadTarget;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Sent in parts that survive an interruption (`/upload/resumable`; the target's category is not used there). */
  resumable?: boolean;
  /** A resumable upload went on from this byte of an earlier, unfinished one. */
  onResumed?: (fromByte: number) => void;
}

/** Uploads a material (in one request, or resumably); the lists and the quota reload. */
export function useUploadMaterial() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, target, onProgress, signal, resumable, onResumed }: UploadVars) =>
      resumable
        ? uploadResumable(
            file,
            ({ percent, resumedFrom }) => {
              if (resumedFrom !== undefined) onResumed?.(resumedFrom);
              onProgress?.(percent);
            },
            signal,
          )
        : uploadMaterial(file, target, onProgress, signal),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.material.lists }),
        client.invalidateQueries({ queryKey: queryKeys.material.quota }),
      ]),
  });
}

function useMaterialMutation<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.material.all }),
  });
}

/** Renames a material. */
export function useRenameMaterial() {
  return useMaterialMutation(({ materialId, materialName }: { materialId: string; materialName: string }) =>
    api.post('/material/updatename', { materialId, materialName }),
  );
}

/** Deletes a material. */
export function useDeleteMaterial() {
  return useMaterialMutation((materialId: string) => api.post('/material/delete', { materialId }));
}

/** Deletes several materials. */
export function useBatchDeleteMaterials() {
  return useMaterialMutation((materialIds: string[]) => api.post('/material/batchDelete', { materialIds: materialIds.join(',') }));
}

/** Moves materials into categories. */
export function useMoveMaterials() {
  return useMaterialMutation(({ materialIds, categoryIds }: { materialIds: string[]; categoryIds: number[] }) =>
    api.post('/material/updateMaterialCategory', { materialIds: materialIds.join(','), categoryIds: categoryIds.join(',') }),
  );
}

const SIZE_UNITS = ['B', 'K', 'M', 'G', 'P', 'T'];

/** Returns a byte count in steps of 1024 with the units of spec platform §9 (B, K, M, G, P, T, in that order). */
export function formatFileSize(bytes: number): string {
  return scaleBytes(bytes, SIZE_UNITS, '');
}

/** True for kinds that play over time (a duration is shown). */
export function isTimed(type: string): boolean {
  return type === 'video' || type === 'audio';
}
