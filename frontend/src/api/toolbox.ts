/**
 * Toolbox calls of docs/toolbox.md "The contract": the tool types, a tool run (a task of its
 * toolbox task type), my tool runs, one run, its outputs (bytes with a media ticket) and "use in the
 * editor". Progress, cancel and delete are the render farm's own calls (`taskProgress.ts`, `videoTask.ts`).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_BASE, api } from './client';
import { ApiError } from './errors';
import { queryKeys } from './keys';
import { isActive } from './videoTask';

/** A toolbox task type (spec platform §9 "Toolbox task types"). */
export type ToolTypeName =
  | 'VIDEO_SPLIT'
  | 'PPT_CONVERTER'
  | 'ONE_CLICK_FILMING'
  | 'EXTRACT_AUDIO'
  | 'PRE_PICTURE_VIDEO'
  | 'QUICK_CUT_VIDEO'
  | 'QUICK_CUT_AUDIO'
  | 'VIDEO_TO_GIF'
  | 'VIDEO_REPLACE_AUDIO'
  | 'VIDEO_COMPRESS'
  | 'INTELLIGENT_TASK'
  | 'EXTRACT_PERSON_AUDIO'
  | 'VIDEO_BEAUTY'
  | 'EXTRACT_PORTRAIT'
  | 'INCREASE_RESOLUTION'
  | 'VIDEO_CROP'
  | 'IVVR'
  | 'VIDEO_REMOVE_WATERMARK'
  | 'VIDEO_REMOVE_SUBTITLE'
  | 'VIDEO_H_TO_V'
  | 'VIDEO_SPEEDUP'
  | 'BUSINESS_CARD'
  | 'VIDEO_KEY_FRAMES'
  // The AI abilities' runs (docs/ai.md "Media abilities"), asked for from their ability pages.
  | 'VIDEO_COVER'
  | 'AUDIO_DENOISE'
  | 'AUDIO_ECHO_CANCEL'
  | 'AUDIO_GAIN_CONTROL';

/** A tool as GET /toolbox/types describes it. */
export interface ToolType {
  type: ToolTypeName | string;
  /** The page under `/tools/` (`video-compress`). */
  path: string;
  /** Listed in the catalogue (§9's shown types; hidden ones only by configuration). */
  shown: boolean;
  available: boolean;
  /** Why the tool is not available, in the server's English words; '' when it is. */
  reason: string;
  /** Why the tool is not available as a stable code (`no_model`, `not_built`) the page words in its language; '' when it is. */
  reasonCode?: string;
  /** The largest input the tool takes, bytes; 0: no limit of its own. */
  maxInputBytes: number;
  /** The longest input the tool takes, seconds; 0: no limit of its own. */
  maxInputSeconds: number;
}

/** What a tool output is. */
export type ToolOutputKind = 'video' | 'audio' | 'gif' | 'picture';

/** One output of a finished run. */
export interface ToolOutput {
  index: number;
  kind: ToolOutputKind | string;
  name: string;
  /** Bytes. */
  size: number;
  durationMs: number;
  width: number;
  height: number;
  /** The stretches of the input it was made of, ms, in its order (a split's clip, the scenes an AI video cut kept); empty: all of it. */
  ranges?: { startMs: number; endMs: number }[];
}

/** A tool run as GET /toolbox/run/{id} and /toolbox/mine answer it. */
export interface ToolRun {
  id: number;
  type: ToolTypeName | string;
  name: string;
  /** As `/videotask/state` (`TaskStatus`). */
  status: number;
  percent: number;
  stage: string;
  reason: string;
  params: Record<string, unknown>;
  materialIds: string[];
  /** Empty until the run is done. */
  outputs: ToolOutput[];
  createdMs: number;
  updatedMs: number;
}

/** A page of my tool runs. */
export interface ToolRunPage {
  total: number;
  dataList: ToolRun[];
}

/** What POST /toolbox/run takes. */
export interface RunToolInput {
  type: ToolTypeName;
  materialIds: string[];
  params: object;
}

/** Answer of POST /toolbox/run. */
export interface RunToolAnswer {
  taskId: number;
  jobId: string;
}

/** Which of my runs a list shows; `type` '' lists every type. */
export interface ToolRunFilter {
  pageNum: number;
  pageSize: number;
  type: string;
}

/** Page size of "my tools" (the contract's default). */
export const TOOL_RUNS_PAGE_SIZE = 20;
/** How often a list holding a queued or running tool run is asked again, ms. */
export const TOOL_RUNS_POLL_MS = 3_000;

/** Returns the query of GET /toolbox/mine; `type` only when set. */
export function toolRunsParams(filter: ToolRunFilter): Record<string, unknown> {
  const params: Record<string, unknown> = { pageNum: filter.pageNum, pageSize: filter.pageSize };
  if (filter.type !== '') params.type = filter.type;
  return params;
}

/**
 * The parameter a refusal names (`data.field`: `params.speed`, `materialIds`, …), or null when it
 * names none.
 */
export function refusedField(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const data = err.data;
  if (typeof data !== 'object' || data === null) return null;
  const field = (data as { field?: unknown }).field;
  return typeof field === 'string' && field !== '' ? field : null;
}

/**
 * The address of a run's output for `<video>`, `<img>`, `<audio>` and links: the media ticket goes
 * in the query (tokens never go in addresses); `download` asks for an attachment.
 */
export function toolFileUrl(taskId: number, index: number, ticket: string, download = false): string {
  const query = new URLSearchParams({ ticket });
  if (download) query.set('download', '1');
  return `${API_BASE}/toolbox/file/${taskId}/${index}?${query.toString()}`;
}

/** True while a list holds a run that is queued or running. */
export function anyRunActive(page: ToolRunPage | undefined): boolean {
  return (page?.dataList ?? []).some((run) => isActive(run.status));
}

export async function fetchToolTypes(): Promise<ToolType[]> {
  const data = await api.get<{ dataList?: ToolType[] } | undefined>('/toolbox/types');
  return Array.isArray(data?.dataList) ? data.dataList : [];
}

/** Starts a run; quiet: the tool page words a refusal next to the parameter it names. */
export const runTool = (input: RunToolInput): Promise<RunToolAnswer> => api.post<RunToolAnswer>('/toolbox/run', input, { silent: true });

export async function fetchMyToolRuns(filter: ToolRunFilter): Promise<ToolRunPage> {
  const data = await api.get<Partial<ToolRunPage> | undefined>('/toolbox/mine', toolRunsParams(filter));
  const dataList = Array.isArray(data?.dataList) ? data.dataList : [];
  return { total: data?.total ?? dataList.length, dataList };
}

export const fetchToolRun = (id: number): Promise<ToolRun> => api.get<ToolRun>(`/toolbox/run/${id}`);

/** Makes a run's output the caller's material; answers its id. */
export const toolOutputToMaterial = (taskId: number, index: number): Promise<{ materialId: number }> =>
  api.post<{ materialId: number }>('/toolbox/use', { taskId, index });

/** Returns every tool type (they change only with the configuration). */
export function useToolTypes() {
  return useQuery({ queryKey: queryKeys.toolbox.types, queryFn: fetchToolTypes, staleTime: 5 * 60_000 });
}

/** How often a run whose end the stream announced is read again until the read shows that end, ms. */
export const RUN_REREAD_MS = 500;

/**
 * Returns one tool run; off while `id` is null. `endedAs` is the end status the progress stream
 * announced (null while it has not): until the run as read shows it (with its outputs), the run is
 * read again every RUN_REREAD_MS, so a read that raced the end is never the last one.
 */
export function useToolRun(id: number | null, endedAs: number | null = null) {
  return useQuery({
    queryKey: queryKeys.toolbox.run(id ?? -1),
    queryFn: () => fetchToolRun(id ?? -1),
    enabled: id !== null,
    retry: false,
    refetchInterval: (query) => (endedAs !== null && query.state.data?.status !== endedAs ? RUN_REREAD_MS : false),
  });
}

/** Returns one page of my tool runs, asked again every few seconds while one is queued or running. */
export function useMyToolRuns(filter: ToolRunFilter) {
  return useQuery({
    queryKey: queryKeys.toolbox.mine.page(filter),
    queryFn: () => fetchMyToolRuns(filter),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyRunActive(query.state.data) ? TOOL_RUNS_POLL_MS : false),
  });
}

function useToolboxMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.toolbox.all }) });
}

/** Starts a tool run; my tool runs reload. */
export function useRunTool() {
  return useToolboxMutation(runTool);
}

/** Puts an output in the caller's materials ("use in the editor"); the material lists reload. */
export function useUseToolOutput() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, index }: { taskId: number; index: number }) => toolOutputToMaterial(taskId, index),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.material.all }),
  });
}

/** Cancels a queued or running tool run (the farm's cancel); my tool runs reload. */
export function useCancelToolRun() {
  return useToolboxMutation((taskId: number) => api.post<{ cancelled: number[] }>('/v2/videotask/cancelTask', { taskIds: String(taskId) }));
}

/** Deletes a tool run with its outputs (the farm's delete); my tool runs reload. */
export function useDeleteToolRun() {
  return useToolboxMutation((taskId: number) => api.post('/videotask/delete', { taskId }));
}
