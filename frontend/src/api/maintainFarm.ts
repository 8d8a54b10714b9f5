/** The maintenance area's farm calls (docs/maintain.md): task search and requeue, audit trail, maintenance mode, migrations, settings. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** Query keys of these calls; every mutation invalidates the whole farm. */
export const farmKeys = {
  all: ['maintainFarm'] as const,
  tasks: (filter: object) => ['maintainFarm', 'tasks', filter] as const,
  attempts: (taskId: number) => ['maintainFarm', 'attempts', taskId] as const,
  audit: (item: string) => ['maintainFarm', 'audit', item] as const,
  farm: ['maintainFarm', 'farm'] as const,
  migrations: ['maintainFarm', 'migrations'] as const,
  config: ['maintainFarm', 'config'] as const,
};

/** Task status codes (spec editor-core: -1 new, 0 waiting, 1 rendering, 9 failed, 10 done, 11 cancelled). */
export const TASK_STATUSES = [-1, 0, 1, 9, 10, 11] as const;
/** The failed status: the only one an administrator requeues. */
export const FAILED = 9;

/** One row of GET /maintain/task/list. */
export interface AdminTask {
  id: number;
  taskName: string;
  userId: string;
  status: number;
  reason: string;
  toolType: string;
  createTime: string;
  updateTime: string;
}

/** The search filters; blank ones are not sent. */
export interface TaskFilter {
  taskId?: string;
  userId?: string;
  status?: number;
  pageNum: number;
  pageSize: number;
}

/** Fetches one page of the tenant's tasks. */
export async function fetchAdminTasks(filter: TaskFilter): Promise<{ total: number; list: AdminTask[] }> {
  const params: Record<string, string | number> = { pageNum: filter.pageNum, pageSize: filter.pageSize };
  if (filter.taskId?.trim()) params.taskId = filter.taskId.trim();
  if (filter.userId?.trim()) params.userId = filter.userId.trim();
  if (filter.status !== undefined) params.status = filter.status;
  const data = await api.get<{ total: number; list: AdminTask[] } | undefined>('/maintain/task/list', params);
  return { total: data?.total ?? 0, list: Array.isArray(data?.list) ? data.list : [] };
}

/** Returns one page of the search. */
export function useAdminTasks(filter: TaskFilter) {
  return useQuery({ queryKey: farmKeys.tasks(filter), queryFn: () => fetchAdminTasks(filter), placeholderData: keepPreviousData });
}

/** One render attempt. */
export interface Attempt {
  jobId: string;
  attempt: number;
  state: string;
  queuedTime: string;
  startedTime: string;
  endedTime: string;
  error: string;
}

/** Returns the render attempts of task `taskId`, newest first. */
export function useAttempts(taskId: number) {
  return useQuery({
    queryKey: farmKeys.attempts(taskId),
    queryFn: async () => (await api.get<Attempt[] | undefined>(`/maintain/task/attempts/${taskId}`)) ?? [],
  });
}

/** Requeues a failed task's render. */
export function useRequeue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (taskId: number) => api.post<{ jobId: string }>('/maintain/task/requeue', { taskId }),
    onSettled: () => client.invalidateQueries({ queryKey: farmKeys.all }),
  });
}

/** One recorded administrator action. */
export interface AuditEntry {
  actor: string;
  action: string;
  item: string;
  before: string;
  after: string;
  time: string;
}

/** Returns the audit trail of `item` (`task:17`, `config:…`, `farm:maintenance`). */
export function useAudit(item: string) {
  return useQuery({
    queryKey: farmKeys.audit(item),
    queryFn: async () => (await api.get<AuditEntry[] | undefined>('/maintain/audit', { item })) ?? [],
  });
}

/** The tenant's farm. */
export interface Farm {
  maintenance: boolean;
  changedBy: string;
  changedTime: string;
  queued: number;
  running: number;
  version: string;
}

/** Returns the farm; it refreshes every 2 s while maintenance drains it. */
export function useFarm() {
  return useQuery({
    queryKey: farmKeys.farm,
    queryFn: () => api.get<Farm>('/maintain/farm'),
    refetchInterval: (query) => (query.state.data?.maintenance && query.state.data.queued + query.state.data.running > 0 ? 2_000 : false),
  });
}

/** One database migration of a service (GET /maintain/migrations). */
export interface Migration {
  service: string;
  name: string;
  applied: boolean;
  /** Empty while pending. */
  appliedTime: string;
  /** False: applied by a newer version, which the running one does not carry. */
  known: boolean;
}

/** Every service's migrations, each service's in the order it applies them. */
export function useMigrations() {
  return useQuery({ queryKey: farmKeys.migrations, queryFn: async () => (await api.get<Migration[] | undefined>('/maintain/migrations')) ?? [] });
}

/** A service's migrations summed up: how many it carries, which are pending, which are newer than the build, and the last applied. */
export interface ServiceMigrations {
  service: string;
  total: number;
  pending: string[];
  newer: string[];
  last: Migration | undefined;
}

/** Groups the migrations by service, in the order they are listed. */
export function byService(list: ReadonlyArray<Migration>): ServiceMigrations[] {
  const out: ServiceMigrations[] = [];
  for (const m of list) {
    let s = out.find((x) => x.service === m.service);
    if (!s) {
      s = { service: m.service, total: 0, pending: [], newer: [], last: undefined };
      out.push(s);
    }
    if (!m.known) s.newer.push(m.name);
    else {
      s.total += 1;
      if (!m.applied) s.pending.push(m.name);
      else s.last = m;
    }
  }
  return out;
}

/** Switches maintenance mode. */
export function useSetMaintenance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (maintenance: boolean) => api.post<Farm>('/maintain/farm/maintenance', { maintenance }),
    onSettled: () => client.invalidateQueries({ queryKey: farmKeys.all }),
  });
}

/** A run-time setting with its range. */
export interface Setting {
  key: string;
  value: string;
  kind: 'switch' | 'number';
  min: number;
  max: number;
  defaultValue: string;
}

/** Returns the tenant's settings. */
export function useSettings() {
  return useQuery({ queryKey: farmKeys.config, queryFn: async () => (await api.get<Setting[] | undefined>('/maintain/config')) ?? [] });
}

/** Changes one setting. */
export function useSetSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => api.post<Setting>('/maintain/config', { key, value }, { silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: farmKeys.all }),
  });
}
