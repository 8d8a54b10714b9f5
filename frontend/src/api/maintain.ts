/** The maintenance area's system-library calls (docs/materials.md "System library"): administrators only. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';
import type { Material, MaterialPage, MaterialType } from './material';

/** The starter categories an administrator uploads into, what the editor lists them as, and what files each takes. */
export const SYSTEM_CATEGORIES = [
  { id: 2003, key: 'masks', type: 'picture', accept: '.png,.jpg,.jpeg,.bmp' },
  { id: 3001, key: 'stillBackgrounds', type: 'backgrounds', accept: '.png,.jpg,.jpeg,.bmp' },
  { id: 3002, key: 'movingBackgrounds', type: 'backgrounds', accept: '.gif' },
  { id: 4001, key: 'buttons', type: 'picture', accept: '.png,.jpg,.jpeg,.bmp' },
  { id: 5001, key: 'atmosphere', type: 'specialEffects', accept: '.png,.jpg,.jpeg,.bmp,.gif' },
  { id: 5002, key: 'borders', type: 'specialEffects', accept: '.png,.jpg,.jpeg,.bmp,.gif' },
  { id: 6001, key: 'music', type: 'audio', accept: '.mp3,.aac,.wav,.wma,.m4a' },
] as const satisfies ReadonlyArray<{ id: number; key: string; type: MaterialType; accept: string }>;

/** One of the starter categories. */
export type SystemCategory = (typeof SYSTEM_CATEGORIES)[number];

/** Returns the starter category with this id, if it is one. */
export function systemCategory(id: number): SystemCategory | undefined {
  return SYSTEM_CATEGORIES.find((c) => c.id === id);
}

/** Open states of a system material: offered to every user, or retired (hidden, still resolvable). */
export const SystemState = { offered: 1, retired: 0 } as const;

/** The background style classes 1–8 (spec editor-core §2). */
export const STYLE_IDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** Filter of the maintenance list; absent fields are not sent. */
export interface SystemFilter {
  categoryId?: number;
  openState?: number;
  pageNum: number;
  pageSize: number;
}

/** Fetches one page of the tenant's system materials, retired ones included. */
export async function fetchSystemMaterials(filter: SystemFilter): Promise<MaterialPage> {
  const data = await api.post<Partial<MaterialPage> | undefined>('/maintain/material/list', { ...filter });
  const dataList = Array.isArray(data?.dataList) ? data.dataList : [];
  return { total: data?.total ?? dataList.length, pageNum: data?.pageNum ?? filter.pageNum, pageSize: data?.pageSize ?? filter.pageSize, dataList };
}

/** Returns one page of the system materials; it refreshes while any of them is being probed. */
export function useSystemMaterials(filter: SystemFilter) {
  return useQuery({
    queryKey: queryKeys.maintain.materials.list(filter),
    queryFn: () => fetchSystemMaterials(filter),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.dataList.some((m: Material) => m.state === 'processing') ? 2_000 : false),
  });
}

/** What a system upload carries. */
export interface SystemUpload {
  file: File;
  categoryId: number;
  styleId?: number;
  materialName?: string;
  onProgress?: (percent: number) => void;
}

/** Uploads one system material; answers its id. */
export async function uploadSystemMaterial({ file, categoryId, styleId, materialName, onProgress }: SystemUpload): Promise<string> {
  const form = new FormData();
  form.append('categoryId', String(categoryId));
  if (styleId !== undefined) form.append('styleId', String(styleId));
  if (materialName?.trim()) form.append('materialName', materialName.trim());
  form.append('uploadFile', file, file.name);
  const answer = await api.post<{ id?: string } | undefined>('/maintain/material/upload', form, { onUploadProgress: onProgress, silent: true });
  return answer?.id ?? '';
}

/** What an edit of system materials changes; absent fields stay. */
export interface SystemEdit {
  materialIds: string[];
  materialName?: string;
  categoryId?: number;
  styleId?: number;
  openState?: number;
}

/** Changes system materials; answers how many changed. */
export async function updateSystemMaterials({ materialIds, ...changes }: SystemEdit): Promise<number> {
  const answer = await api.post<{ changed?: number } | undefined>('/maintain/material/update', { materialIds: materialIds.join(','), ...changes }, { silent: true });
  return answer?.changed ?? 0;
}

/** Invalidates what a system change shows in: the maintenance list and every library list. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.maintain.materials.all }),
      client.invalidateQueries({ queryKey: queryKeys.material.lists }),
    ]);
}

/** Uploads a system material; the lists reload. */
export function useUploadSystemMaterial() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: uploadSystemMaterial, onSettled: refresh });
}

/** Edits, retires or restores system materials; the lists reload. */
export function useUpdateSystemMaterials() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: updateSystemMaterials, onSettled: refresh });
}
