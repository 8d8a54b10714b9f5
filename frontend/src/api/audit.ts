/**
 * Video auditing (docs/ai.md, "Video auditing"): one of my video materials or works queued on the
 * farm (`POST /ai/audit`), followed with the render's progress, and its report read back (the run's
 * output 0, JSON served as a file); the frames it flags are the outputs the report names.
 */
import { api } from './client';
import { followToEnd, watchTaskProgress, type WatchHandlers } from './taskProgress';
import { TaskStatus, type TaskState } from './videoTask';

/** The ability key of video auditing. */
export const VIDEO_AUDITING = 'video-auditing';

/** A box on a frame, pixels of the frame as the report's `frameWidth × frameHeight`. */
export interface AuditBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One listed word found: on a frame (time, box, picture) or in a text layer (its id). */
export interface AuditHit {
  word: string;
  source: 'frame' | 'text';
  timeMs?: number;
  bbox?: AuditBox;
  layerId?: string;
  /** The line read off the frame, or the layer's text. */
  text: string;
  /** The run's output holding the frame's picture. */
  frameOutput?: number;
}

/** An audit's result. */
export interface AuditReport {
  verdict: 'pass' | 'flagged';
  source: 'material' | 'work';
  framesRead: number;
  layersRead: number;
  frameWidth: number;
  frameHeight: number;
  hits: AuditHit[];
}

/** What is audited: one of my video materials, or one of my works (its text, and its video once rendered). */
export type AuditTarget = { materialId: string } | { taskId: number };

/** Queues an audit (quiet: the page words a refusal). */
export const startAudit = (target: AuditTarget): Promise<{ taskId: number; jobId: string }> =>
  api.post<{ taskId: number; jobId: string }>('/ai/audit', target, { silent: true });

/** Reads a finished audit's report (its output 0). */
export async function fetchAuditReport(taskId: number): Promise<AuditReport> {
  const blob = await api.get<Blob>(`/toolbox/file/${taskId}/0`, undefined, { responseType: 'blob' });
  // FileReader rather than Blob.text(): every browser and the test DOM have it.
  const text = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the report could not be read'));
    reader.readAsText(blob);
  });
  const parsed = JSON.parse(text) as Partial<AuditReport>;
  return {
    verdict: parsed.verdict === 'flagged' ? 'flagged' : 'pass',
    source: parsed.source === 'work' ? 'work' : 'material',
    framesRead: parsed.framesRead ?? 0,
    layersRead: parsed.layersRead ?? 0,
    frameWidth: parsed.frameWidth ?? 0,
    frameHeight: parsed.frameHeight ?? 0,
    hits: Array.isArray(parsed.hits) ? parsed.hits : [],
  };
}

/** The run ended without its report: failed (the farm's reason) or cancelled. */
export class AuditFailed extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason || `the audit ended with status ${status}`);
  }
}

/** What an audit calls; tests pass their own. */
export interface AuditDeps {
  start(target: AuditTarget): Promise<{ taskId: number }>;
  watch(taskId: number, handlers: WatchHandlers, signal: AbortSignal): Promise<void>;
  report(taskId: number): Promise<AuditReport>;
}

const DEFAULT_DEPS: AuditDeps = {
  start: startAudit,
  watch: (taskId, handlers, signal) => watchTaskProgress(taskId, handlers, signal),
  report: fetchAuditReport,
};

/**
 * Audits `target` on the farm and answers the report with the run's task id. `onStarted` hears the
 * task id (for a cancel), `onState` each progress report. Throws the server's refusal as it came,
 * `AuditFailed` when the run ends otherwise than done, an AbortError when `signal` stops it.
 */
export async function audit(
  target: AuditTarget,
  handlers: { onStarted(taskId: number): void; onState(state: TaskState): void },
  signal: AbortSignal,
  deps: AuditDeps = DEFAULT_DEPS,
): Promise<{ taskId: number; report: AuditReport }> {
  const { taskId } = await deps.start(target);
  handlers.onStarted(taskId);
  const end = await followToEnd(taskId, handlers.onState, signal, deps.watch, 'audit');
  if (!end || end.status !== TaskStatus.success) throw new AuditFailed(end?.status ?? TaskStatus.error, end?.reason ?? '');
  return { taskId, report: await deps.report(taskId) };
}

/** A frame's time as m:ss.s. */
export function formatHitTime(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, '0')}`;
}
