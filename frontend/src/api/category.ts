import { queryOptions, useQuery } from '@tanstack/react-query';
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
