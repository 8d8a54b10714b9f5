import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { ApiError } from './errors';
import { queryKeys } from './keys';

/** A task-video (template) category; first-level entries carry their second level in `children`. */
export interface TaskVideoCategory {
  categoryId: number;
  categoryName: string;
  /** industry, use, size or IVVR. */
  dimension: string | number;
  higherUpId: number;
  push: boolean | number;
  children?: TaskVideoCategory[] | null;
}

interface CategoryList {
  dataList?: TaskVideoCategory[] | null;
}

/** Fetches the template category tree; succeeds only on code 2000 and reads data.dataList. */
export async function fetchTaskVideoCategories(): Promise<TaskVideoCategory[]> {
  const url = '/category/taskvideo';
  const data = await api.get<CategoryList | undefined>(url);
  if (!data) throw new ApiError({ kind: 'business', url, message: `${url}: empty answer` });
  return Array.isArray(data.dataList) ? data.dataList : [];
}

export const taskVideoCategoriesQuery = queryOptions({
  queryKey: queryKeys.category.taskVideo,
  queryFn: fetchTaskVideoCategories,
  staleTime: 5 * 60_000,
  retry: false,
});

/** Returns the template category tree query. */
export function useTaskVideoCategories() {
  return useQuery(taskVideoCategoriesQuery);
}

/** The dimensions a category classifies by (the category service's wire names). */
export const CATEGORY_DIMENSIONS = ['industry', 'use', 'size', 'ivvr', 'audio'] as const;
export type CategoryDimension = (typeof CATEGORY_DIMENSIONS)[number];

/** Fetches the category tree of one dimension. */
export async function fetchCategoryTree(dimension: CategoryDimension): Promise<TaskVideoCategory[]> {
  const url = '/category/taskvideo';
  const data = await api.get<CategoryList | undefined>(url, { dimension });
  if (!data) throw new ApiError({ kind: 'business', url, message: `${url}: empty answer` });
  return Array.isArray(data.dataList) ? data.dataList : [];
}

/** Returns the category tree of one dimension (the maintenance area's category page). */
export function useCategoryTree(dimension: CategoryDimension) {
  return useQuery({ queryKey: queryKeys.category.tree(dimension), queryFn: () => fetchCategoryTree(dimension) });
}

/** What changes a category: create (under `higherUpId`, -1 first level), rename, delete or push. */
export type CategoryChange =
  | { op: 'create'; categoryName: string; dimension: CategoryDimension; higherUpId: number }
  | { op: 'rename'; categoryId: number; categoryName: string }
  | { op: 'delete'; categoryId: number }
  | { op: 'push'; ids: number[]; push: boolean };

/** Sends one category change; failures are the caller's to word (no toast). */
export function changeCategory(change: CategoryChange): Promise<unknown> {
  const silent = { silent: true };
  switch (change.op) {
    case 'create':
      return api.post('/category/taskvideo', { categoryName: change.categoryName, dimension: change.dimension, higherUpId: change.higherUpId }, silent);
    case 'rename':
      return api.post('/category/updatename', { categoryId: change.categoryId, categoryName: change.categoryName }, silent);
    case 'delete':
      return api.post('/category/taskvideo/delete', { categoryId: change.categoryId }, silent);
    case 'push':
      return api.post('/category/setPush', { ids: change.ids.join(','), push: change.push }, silent);
  }
}

/** Changes a category; every category tree reloads. */
export function useChangeCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeCategory,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.category.taskVideo }),
  });
}
