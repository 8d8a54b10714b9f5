/**
 * Following a tool run the editor queued (另存为素材, 裁剪画面) until it is done, and making its
 * output the caller's material (`/toolbox/use`).
 */
import { fetchToolRun, toolOutputToMaterial } from '@/api/toolbox';

/** How often a run is read while it runs. */
export const RUN_POLL_MS = 1_000;

/** Statuses of a run (`TaskStatus`): failed, done, cancelled. */
const FAILED = 9;
const DONE = 10;
const CANCELLED = 11;

/**
 * Reads run `taskId` until it is done, telling `progress` its percent, and answers its output 0 as
 * the caller's material id; null when `alive` turned false first (the panel went away). A failed or
 * cancelled run throws its reason.
 */
export async function followRun(taskId: number, progress: (percent: number) => void, alive: () => boolean): Promise<string | null> {
  let run = await fetchToolRun(taskId);
  while (alive() && run.status !== DONE) {
    if (run.status === FAILED || run.status === CANCELLED) throw new Error(run.reason || run.stage);
    progress(run.percent);
    await new Promise((resolve) => setTimeout(resolve, RUN_POLL_MS));
    run = await fetchToolRun(taskId);
  }
  if (!alive()) return null;
  return String((await toolOutputToMaterial(taskId, 0)).materialId);
}
