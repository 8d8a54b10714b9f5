/** The administrators' users page calls (CONTRACT.md "Manage users"). */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** One row of GET /manage/users. */
export interface ManagedUser {
  userId: string | number;
  mail: string;
  operatorLevel: number;
  role: string;
  disabled: boolean;
  createTime: string;
}

/** A page of users. */
export interface UserPage {
  total: number;
  list: ManagedUser[];
}

/** Page size default (spec platform §9). */
export const USERS_PAGE_SIZE = 10;

/** Fetches one page of the tenant's users matching `keyword`. */
export async function fetchUsers(keyword: string, pageNum: number, pageSize = USERS_PAGE_SIZE): Promise<UserPage> {
  const data = await api.get<UserPage | undefined>('/manage/users', { keyword, pageNum, pageSize });
  return { total: data?.total ?? 0, list: Array.isArray(data?.list) ? data.list : [] };
}

/** Query options for one page of users. */
export function usersQuery(keyword: string, pageNum: number, pageSize = USERS_PAGE_SIZE) {
  return queryOptions({
    queryKey: queryKeys.manageUsers.list(keyword, pageNum, pageSize),
    queryFn: () => fetchUsers(keyword, pageNum, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** Returns one page of users. */
export function useUsers(keyword: string, pageNum: number, pageSize = USERS_PAGE_SIZE) {
  return useQuery(usersQuery(keyword, pageNum, pageSize));
}

/** Changes a user's operator level; the list reloads. */
export function useSetUserLevel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, operatorLevel }: { userId: string | number; operatorLevel: number }) =>
      api.post<null>('/manage/users/level', { userId, operatorLevel }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.manageUsers.all }),
  });
}

/** Disables or enables a user; the list reloads. */
export function useSetUserDisabled() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, disabled }: { userId: string | number; disabled: boolean }) =>
      api.post<null>('/manage/users/disable', { userId, disabled }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.manageUsers.all }),
  });
}
