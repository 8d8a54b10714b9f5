/** Render-farm calls of CONTRACT.md "Farm": save, one task, my tasks, run, state, cancel, media tickets. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** Task status codes (spec editor-core §4; 11 is cancelled). */
export const TaskStatus = { new: -1, wait: 0, executing: 1, error: 9, success: 10, cancelled: 11 } as const;
export type TaskStatusName = keyof typeof TaskStatus;

/** Returns the name of a status code, or null for a code the spec does not name. */
export function statusName(code: number): TaskStatusName | null {
  const found = (Object.entries(TaskStatus) as [TaskStatusName, number][]).find(([, value]) => value === code);
  return found ? found[0] : null;
}

/** True while a render is queued or running. */
export function isActive(status: number): boolean {
  return status === TaskStatus.wait || status === TaskStatus.executing;
}

/** True once a render has ended (success, error or cancelled). */
export function isFinished(status: number): boolean {
  return status === TaskStatus.success || status === TaskStatus.error || status === TaskStatus.cancelled;
}

/** One of my tasks as GET /videotask/mine lists it (the ofone shape). */
export interface TaskSummary {
  id: number;
  taskName: string;
  status: number;
  reason: string;
  /** '/diyvrbt/videotask/download?taskId=N' when done, else ''. */
  videoUrl: string;
  /** '/diyvrbt/videotask/cover?taskId=N' when done, else ''. */
  coverUrl: string;
  createTime?: string;
  updateTime?: string;
  /** Seconds. */
  duration?: number;
  /** The last render's loudness (EBU R128 integrated), LUFS; null before a render with sound. */
  loudness?: number | null;
  sizeCategoryId?: number;
  usedFor?: string;
  version?: number;
}

/** A page of my tasks. */
export interface TaskPage {
  total: number;
  list: TaskSummary[];
}

/** Render stages the farm reports. */
export const STAGES = ['queued', 'fetching', 'rendering', 'encoding', 'uploading', 'done', 'error', 'cancelled'] as const;
export type Stage = (typeof STAGES)[number];

/** Answer of GET /videotask/state and the data of each progress event. */
export interface TaskState {
  taskId: number;
  status: number;
  percent: number;
  stage: Stage | string;
  framesDone: number;
  framesTotal: number;
  etaSeconds: number;
  videoRelativePath: string;
  reason: string;
}

/**
 * The state of a render just started (POST /videotask/runtask answered): queued with `status`,
 * nothing done yet. Written over a task's cached state when it runs, so the state of its last
 * render (done, with its video) never stands for the new one, and the views follow the new one.
 */
export function queuedState(taskId: number, status: number = TaskStatus.wait): TaskState {
  return { taskId, status, percent: 0, stage: 'queued', framesDone: 0, framesTotal: 0, etaSeconds: 0, videoRelativePath: '', reason: '' };
}

/** Answer of POST /videotask/runtask. */
export interface RunAnswer {
  jobId: string;
  status: number;
}

/** Answer of POST /videotask/mediaTicket. */
export interface MediaTicket {
  ticket: string;
  expiresInSeconds: number;
}

/** Page size default (spec platform §9). */
export const TASKS_PAGE_SIZE = 10;
/** Tickets live 600 s; they are renewed well before that. */
export const TICKET_REFRESH_MS = 8 * 60_000;

/**
 * Fetches one page of the caller's tasks; a non-empty `name` filters by name. `usedFor` (null: any)
 * lists only tasks of that use ('' for DIY works); the server filters, so totals and pages are right.
 */
export async function fetchMyTasks(pageNum: number, pageSize = TASKS_PAGE_SIZE, name = '', usedFor: string | null = null, taskState: readonly number[] = []): Promise<TaskPage> {
  const params: Record<string, unknown> = { pageNum, pageSize };
  if (name !== '') params.name = name;
  if (usedFor !== null) params.usedFor = usedFor;
  if (taskState.length > 0) params.taskState = taskState.join(',');
  const data = await api.get<TaskPage | undefined>('/videotask/mine', params);
  const list = Array.isArray(data?.list) ? data.list : [];
  return { total: data?.total ?? 0, list };
}

/** Fetches a task's render state; quiet, because it is polled. */
export function fetchTaskState(taskId: number): Promise<TaskState> {
  return api.get<TaskState>('/videotask/state', { taskId }, { silent: true });
}

/** Asks for a short-lived ticket that lets <video>, <img> and links fetch this task's media. */
export function fetchMediaTicket(taskId: number): Promise<MediaTicket> {
  return api.post<MediaTicket>('/videotask/mediaTicket', { taskId });
}

/** Returns a media path with the ticket appended (`&ticket=`; tokens never go in URLs). */
export function withTicket(path: string, ticket: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket)}`;
}

/** Query options for one page of my tasks. */
export function myTasksQuery(pageNum: number, pageSize = TASKS_PAGE_SIZE, name = '', usedFor: string | null = null, taskState: readonly number[] = []) {
  return queryOptions({
    queryKey: [...queryKeys.videoTask.mine.page(pageNum, pageSize, name), { usedFor, taskState }],
    queryFn: () => fetchMyTasks(pageNum, pageSize, name, usedFor, taskState),
    placeholderData: keepPreviousData,
  });
}

/** Returns one page of my tasks (of one use when `usedFor` is not null; in those states when `taskState` names any). */
export function useMyTasks(pageNum: number, pageSize = TASKS_PAGE_SIZE, name = '', usedFor: string | null = null, taskState: readonly number[] = []) {
  return useQuery(myTasksQuery(pageNum, pageSize, name, usedFor, taskState));
}

/**
 * Returns the latest known render state of a task. The progress watcher writes it; nothing
 * fetches it on its own.
 */
export function useTaskState(taskId: number) {
  return useQuery({
    queryKey: queryKeys.videoTask.state(taskId),
    queryFn: () => fetchTaskState(taskId),
    enabled: false,
    staleTime: Infinity,
  });
}

/** Returns a media ticket for a finished task, renewed before it expires. */
export function useMediaTicket(taskId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.videoTask.mediaTicket(taskId),
    queryFn: () => fetchMediaTicket(taskId),
    enabled,
    staleTime: TICKET_REFRESH_MS,
    refetchInterval: enabled ? TICKET_REFRESH_MS : false,
    retry: false,
  });
}

/** Runs a task; my tasks reload. */
export function useRunTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (taskId: number) => api.post<RunAnswer>('/videotask/runtask', { taskId }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}

/** Cancels tasks; my tasks reload. */
export function useCancelTasks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (taskIds: number[]) => api.post<{ cancelled: number[] }>('/v2/videotask/cancelTask', { taskIds: taskIds.join(',') }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}

function useTaskMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}

/** Renames a task; my tasks reload. */
export function useRenameTask() {
  return useTaskMutation(({ id, name }: { id: number; name: string }) => api.post<TaskSummary>('/videotask/updateOneTask', { id, name }));
}

/** Deletes a task with its render output; my tasks reload. */
export function useDeleteTask() {
  return useTaskMutation((taskId: number) => api.post('/videotask/delete', { taskId }));
}

/** Copies a task (named '{name} 副本'); answers the new task's id; my tasks reload. */
export function useDuplicateTask() {
  return useTaskMutation((taskId: number) => api.post<number>('/videotask/duplicate', { taskId }));
}

/** A task as GET /videotask/ofone/{id} answers: the summary plus the document. */
export interface TaskDetail extends TaskSummary {
  /** The rule as a JSON string (the taskInfo last saved). */
  videoCreateInfo: string;
  sizeCategoryId: number;
  usedFor: string;
}

/** What POST /videotask/save takes; taskId -1 makes a new task. */
export interface SaveTaskInput {
  taskId: number;
  name: string;
  /** The rule as a JSON string. */
  taskInfo: string;
  sizeCategoryId: number;
  usedFor: string;
  /** The stored version the document is based on; a newer stored one refuses the save as stale. Absent: no check. */
  version?: number;
}

/** One problem the server found in a document. */
export interface DocumentProblem {
  /** Where, as the server names it (`scenes[0].layers[1].w`), or '' when it names no place. */
  path: string;
  message: string;
}

/** Fetches one of my tasks with its document. */
export function fetchTask(taskId: number): Promise<TaskDetail> {
  return api.get<TaskDetail>(`/videotask/ofone/${taskId}`);
}

/**
 * Saves a task and returns its id. Quiet: a refused document answers 3000 with its problems in
 * `desc`, which the editor shows next to what they name.
 */
export function saveTask(input: SaveTaskInput): Promise<number> {
  return api.post<number>('/videotask/save', input, { silent: true });
}

/** Splits the server's `path: message; path: message; and N more` into problems. */
export function parseProblems(desc: string): DocumentProblem[] {
  return desc
    .split('; ')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf(': ');
      return at > 0 && !/\s/.test(part.slice(0, at)) ? { path: part.slice(0, at), message: part.slice(at + 2) } : { path: '', message: part };
    });
}

/** Returns one of my tasks with its document; off while `taskId` is null. */
export function useTask(taskId: number | null) {
  return useQuery({
    queryKey: queryKeys.videoTask.one(taskId ?? -1),
    queryFn: () => fetchTask(taskId ?? -1),
    enabled: taskId !== null,
    staleTime: Infinity,
    retry: false,
  });
}

/** Saves a task; my tasks and the task's cached document reload (the next open reads the saved one). */
export function useSaveTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveTask,
    onSettled: (taskId) => {
      if (taskId !== undefined) void client.invalidateQueries({ queryKey: queryKeys.videoTask.one(Number(taskId)) });
      return client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all });
    },
  });
}
