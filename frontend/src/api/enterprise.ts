/**
 * The enterprise workspace (issue 30, `/workbench/yqx`): the caller's enterprise with the works and
 * materials its members shared; members share their own items, copy a shared work into their works;
 * an enterprise administrator (operator level 2) adds and removes members and takes shares out.
 * Administrators (level 0) keep the tenant's enterprises under `/manage/enterprise/*`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** What a share holds. */
export type ShareKind = 'work' | 'material';

/** A member of an enterprise. */
export interface EnterpriseMember {
  enterpriseId: number;
  userId: string;
  addedBy: string;
  /** 'YYYY-MM-DD HH:mm:ss', server time. */
  addedTime: string;
}

/** An enterprise; `members` only for administrators and its enterprise administrators. */
export interface EnterpriseDto {
  id: number;
  name: string;
  createTime: string;
  memberCount: number;
  members: EnterpriseMember[];
}

/** A work or material shared with the enterprise. */
export interface ShareDto {
  id: number;
  kind: ShareKind;
  /** The task id or the material id. */
  itemId: string;
  name: string;
  /** A work: video; a material: its type. */
  mediaKind: string;
  sharedBy: string;
  sharedTime: string;
  sharedMs: number;
  /** The caller shared it. */
  mine: boolean;
  /** Signed same-origin addresses, '' when there is none. */
  coverUrl: string;
  videoUrl: string;
}

/** GET /enterprise/space: `enterprise` null when the caller is in none. */
export interface EnterpriseSpace {
  enterprise: EnterpriseDto | null;
  admin: boolean;
  shares: ShareDto[];
}

function useEnterpriseMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.enterprise.all }),
  });
}

/** Returns the caller's workspace. */
export function useEnterpriseSpace() {
  return useQuery({
    queryKey: queryKeys.enterprise.space,
    queryFn: async () => {
      const data = await api.get<Partial<EnterpriseSpace> | undefined>('/enterprise/space', undefined, { silent: true });
      return { enterprise: data?.enterprise ?? null, admin: data?.admin === true, shares: Array.isArray(data?.shares) ? data.shares : [] };
    },
  });
}

/** Shares one of the caller's rendered works or materials. Refusals are left to the page to word. */
export function useShareItem() {
  return useEnterpriseMutation((input: { kind: ShareKind; itemId: string }) => api.post<ShareDto>('/enterprise/share', { ...input }, { silent: true }));
}

/** Takes a share out (its sharer, or an enterprise administrator). */
export function useUnshare() {
  return useEnterpriseMutation((shareId: number) => api.post<unknown>('/enterprise/unshare', { shareId }, { silent: true }));
}

/** Copies a shared work into the caller's works; answers the new task's id. */
export function useCopyShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareId: number) => api.post<{ taskId: number }>('/enterprise/copy', { shareId }, { silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}

/** Adds a member by account or mobile number (0 / absent enterprise: the caller's own). */
export function useAddMember() {
  return useEnterpriseMutation((input: { enterpriseId?: number; userId: string }) => api.post<EnterpriseMember>('/enterprise/member/add', { ...input }, { silent: true }));
}

/** Removes a member and what they shared. */
export function useRemoveMember() {
  return useEnterpriseMutation((input: { enterpriseId?: number; userId: string }) => api.post<unknown>('/enterprise/member/remove', { ...input }, { silent: true }));
}

/** Returns the tenant's enterprises with their members (administrators). */
export function useEnterprises() {
  return useQuery({
    queryKey: queryKeys.enterprise.list,
    queryFn: async () => {
      const data = await api.get<EnterpriseDto[] | undefined>('/manage/enterprise/list', undefined, { silent: true });
      return Array.isArray(data) ? data : [];
    },
  });
}

/** Creates (no id) or renames an enterprise (administrators). */
export function useSaveEnterprise() {
  return useEnterpriseMutation((input: { id?: number; name: string }) => api.post<EnterpriseDto>('/manage/enterprise/save', { ...input }, { silent: true }));
}
