/**
 * A dubbing from text (docs/ai.md, "Text to speech"): queued on the render farm, followed to its
 * end over the task's progress stream, its WAV made my material ("use": copied into my library and
 * probed as an upload is) and waited for, so that the editor places it with its measured length.
 * A run that fails leaves no material.
 */
import { textToVoice, type SpeechInput } from '@/api/ai';
import type { Material } from '@/api/material';
import { followToEnd, watchTaskProgress, type WatchHandlers } from '@/api/taskProgress';
import { toolOutputToMaterial } from '@/api/toolbox';
import { TaskStatus, type TaskState } from '@/api/videoTask';
import { readyMaterial } from './readyMaterial';

/** The run ended without its sound: failed (the farm's reason) or cancelled. */
export class DubbingFailed extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason || `dubbing ended with status ${status}`);
  }
}

/** What a dubbing calls; tests pass their own. */
export interface DubbingDeps {
  start(input: SpeechInput): Promise<{ taskId: number }>;
  watch(taskId: number, handlers: WatchHandlers, signal: AbortSignal): Promise<void>;
  use(taskId: number, index: number): Promise<{ materialId: number | string }>;
  ready(materialId: string): Promise<Material>;
}

const DEFAULT_DEPS: DubbingDeps = {
  start: textToVoice,
  watch: (taskId, handlers, signal) => watchTaskProgress(taskId, handlers, signal),
  use: toolOutputToMaterial,
  ready: (id) => readyMaterial(id),
};

/**
 * Speaks `input` and answers the material it became. `onStarted` hears the run's task id (for a
 * cancel), `onState` each progress report. Throws the server's refusal as it came (its `data.field`
 * names the field), `DubbingFailed` when the run ends otherwise than done, an AbortError when
 * `signal` stops the following.
 */
export async function dub(
  input: SpeechInput,
  handlers: { onStarted(taskId: number): void; onState(state: TaskState): void },
  signal: AbortSignal,
  deps: DubbingDeps = DEFAULT_DEPS,
): Promise<Material> {
  const { taskId } = await deps.start(input);
  handlers.onStarted(taskId);
  const end = await followToEnd(taskId, handlers.onState, signal, deps.watch, 'dubbing');
  if (!end || end.status !== TaskStatus.success) throw new DubbingFailed(end?.status ?? TaskStatus.error, end?.reason ?? '');
  // The run's row (with its output) is stored before its end is announced, so it can be used now.
  const { materialId } = await deps.use(taskId, 0);
  return deps.ready(String(materialId));
}
