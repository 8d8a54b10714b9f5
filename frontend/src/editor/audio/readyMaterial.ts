/** Waits for an upload's probe, so that a recording is added with its measured duration. */
import { api } from '@/api/client';
import type { Material } from '@/api/material';

/** How often, and how long at most, a new upload's state is asked for. */
export const READY_POLL_MS = 500;
export const READY_TIMEOUT_MS = 60_000;

/** Returns the material once it is ready; throws with the probe's reason when it failed or took too long. */
export async function readyMaterial(id: string, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<Material> {
  for (let waited = 0; waited <= READY_TIMEOUT_MS; waited += READY_POLL_MS) {
    const m = await api.post<Material>(`/material/info/${encodeURIComponent(id)}`);
    if (m.state === 'ready') return m;
    if (m.state === 'failed') throw new Error(m.failReason || 'failed');
    await sleep(READY_POLL_MS);
  }
  throw new Error('timeout');
}
