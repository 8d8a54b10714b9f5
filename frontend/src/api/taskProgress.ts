/**
 * Follows a task's render: the SSE stream GET /videotask/events read with fetch() (auth
 * headers, resumes with Last-Event-ID), falling back to polling GET /videotask/state every 2 s
 * when the stream cannot be had.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type StreamOptions } from './client';
import { ApiError } from './errors';
import { queryKeys } from './keys';
import { createSseParser, readSse } from './sse';
import { fetchTaskState, isFinished, type TaskState } from './videoTask';

/** Polling interval of the fallback (issue 11 brief: every 2 s). */
export const POLL_INTERVAL_MS = 2_000;
/** Wait before reopening a stream that ended or broke. */
export const RECONNECT_DELAY_MS = 1_000;
/** Consecutive stream failures after which polling takes over. */
export const MAX_STREAM_FAILURES = 3;

/** Events after which the stream has nothing more to say. */
const TERMINAL_EVENTS = new Set(['done', 'error', 'cancelled']);

/** How progress currently arrives. */
export type ProgressMode = 'stream' | 'polling';

/** What the watcher needs from outside; tests pass their own. */
export interface ProgressDeps {
  stream(url: string, options: StreamOptions): Promise<ReadableStream<Uint8Array>>;
  poll(taskId: number): Promise<TaskState>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const DEFAULT_DEPS: ProgressDeps = {
  stream: (url, options) => api.stream(url, options),
  poll: fetchTaskState,
  sleep: abortableSleep,
};

/** True for failures that mean the stream will not work by retrying (not found, refused, not a stream). */
function streamUnavailable(err: unknown): boolean {
  return err instanceof ApiError && (err.kind === 'business' || err.kind === 'http');
}

function isAuthFailure(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'auth';
}

export interface WatchHandlers {
  onState(state: TaskState): void;
  onMode?(mode: ProgressMode): void;
}

async function pollUntilFinished(taskId: number, handlers: WatchHandlers, signal: AbortSignal, deps: ProgressDeps): Promise<void> {
  handlers.onMode?.('polling');
  while (!signal.aborted) {
    try {
      const state = await deps.poll(taskId);
      if (signal.aborted) return;
      handlers.onState(state);
      if (isFinished(state.status)) return;
    } catch (err) {
      if (isAuthFailure(err)) return;
    }
    await deps.sleep(POLL_INTERVAL_MS, signal);
  }
}

/**
 * Watches a task until it finishes or `signal` aborts: each state goes to `onState`.
 * Resolves when watching ends.
 */
export async function watchTaskProgress(
  taskId: number,
  handlers: WatchHandlers,
  signal: AbortSignal,
  deps: ProgressDeps = DEFAULT_DEPS,
): Promise<void> {
  let lastEventId = '';
  let failures = 0;
  handlers.onMode?.('stream');
  while (!signal.aborted) {
    let finished = false;
    try {
      const body = await deps.stream('/videotask/events', { params: { taskId }, lastEventId, signal, silent: true });
      failures = 0;
      const parser = createSseParser((event) => {
        let state: TaskState;
        try {
          state = JSON.parse(event.data) as TaskState;
        } catch {
          return;
        }
        handlers.onState(state);
        if (TERMINAL_EVENTS.has(event.event) || isFinished(state.status)) finished = true;
      }, lastEventId);
      await readSse(body, parser, signal);
      lastEventId = parser.lastEventId();
      if (finished) return;
    } catch (err) {
      if (signal.aborted || isAuthFailure(err)) return;
      failures += 1;
      if (streamUnavailable(err) || failures >= MAX_STREAM_FAILURES) {
        await pollUntilFinished(taskId, handlers, signal, deps);
        return;
      }
    }
    await deps.sleep(RECONNECT_DELAY_MS, signal);
  }
}

/** How a caller watches a run (the farm's progress stream by default; tests pass their own). */
export type WatchRun = (taskId: number, handlers: WatchHandlers, signal: AbortSignal) => Promise<void>;

/**
 * Watches a farm run until it ends and answers its last state (null when none came), each state
 * going to `onState` on the way; an AbortError naming `what` when `signal` stops the watching.
 * One reading of "how did the run end" for the jobs a page starts and waits for (a dubbing, a
 * recognition, an audit).
 */
export async function followToEnd(taskId: number, onState: (state: TaskState) => void, signal: AbortSignal, watch: WatchRun, what: string): Promise<TaskState | null> {
  let last: TaskState | null = null;
  await watch(
    taskId,
    {
      onState: (state) => {
        last = state;
        onState(state);
      },
    },
    signal,
  );
  if (signal.aborted) throw new DOMException(`the ${what} was stopped`, 'AbortError');
  return last;
}

/**
 * Follows a task's progress while `active`, keeping the latest state in the query cache under
 * the state key (so any view of the task reads it) and reloading my tasks when it finishes.
 */
export function useTaskProgress(taskId: number, active: boolean): ProgressMode | null {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<ProgressMode | null>(null);
  useEffect(() => {
    if (!active) return undefined;
    const controller = new AbortController();
    void watchTaskProgress(
      taskId,
      {
        onState: (state) => {
          queryClient.setQueryData(queryKeys.videoTask.state(taskId), state);
          if (isFinished(state.status)) void queryClient.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all });
        },
        onMode: setMode,
      },
      controller.signal,
    ).finally(() => {
      if (!controller.signal.aborted) setMode(null);
    });
    return () => controller.abort();
  }, [active, queryClient, taskId]);
  return mode;
}
