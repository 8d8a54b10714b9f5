/** Service-provider applications (docs/auth.md "Service providers"): a user's application and the template managers' review. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** Where an application stands. */
export const APPLICATION_STATES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

/** Rows of the review queue. */
export const APPLICATIONS_PAGE_SIZE = 10;

/** One application, as GET /service/applications and /manage/service/… answer it. */
export interface ProviderApplication {
  id: number;
  userId: string;
  name: string;
  contact: string;
  intro: string;
  state: ApplicationState;
  reason: string;
  reviewedBy: string;
  createTime: string;
  reviewTime: string;
}

/** What an applicant sends. */
export interface ApplicationForm {
  name: string;
  contact: string;
  intro: string;
}

/** A page of the review queue. */
export interface ApplicationPage {
  total: number;
  list: ProviderApplication[];
}

/** Longest fields, as the auth service checks them. */
export const APPLICATION_LIMITS = { name: 40, contact: 60, intro: 500, reason: 200 } as const;

const keys = {
  all: ['provider'] as const,
  mine: ['provider', 'mine'] as const,
  queue: (state: ApplicationState, pageNum: number) => ['provider', 'queue', state, pageNum] as const,
  one: (id: number) => ['provider', 'one', id] as const,
};

export function isApplicationState(value: string | null | undefined): value is ApplicationState {
  return (APPLICATION_STATES as readonly string[]).includes(value ?? '');
}

/** Returns the caller's applications, newest first. */
export function useMyApplications() {
  return useQuery({
    queryKey: keys.mine,
    queryFn: async () => {
      const data = await api.get<ProviderApplication[] | undefined>('/service/applications');
      return Array.isArray(data) ? data : [];
    },
  });
}

/** Sends the caller's application. */
export function useApply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ApplicationForm) => api.post<ProviderApplication>('/service/apply', form, { silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Returns one page of the tenant's applications in `state` (template managers). */
export function useApplicationQueue(state: ApplicationState, pageNum: number) {
  return useQuery({
    queryKey: keys.queue(state, pageNum),
    queryFn: async () => {
      const data = await api.get<Partial<ApplicationPage> | undefined>('/manage/service/list', { state, pageNum, pageSize: APPLICATIONS_PAGE_SIZE });
      return { total: data?.total ?? 0, list: Array.isArray(data?.list) ? data.list : [] };
    },
    placeholderData: keepPreviousData,
  });
}

/** Returns one of the tenant's applications (template managers). */
export function useApplication(id: number) {
  return useQuery({ queryKey: keys.one(id), queryFn: () => api.get<ProviderApplication>(`/manage/service/${id}`), enabled: id > 0 });
}

/** Approves an application, or rejects it with a reason. */
export function useDecideApplication() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (d: { id: number; approve: boolean; reason?: string }) => api.post<ProviderApplication>('/manage/service/decide', d, { silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
