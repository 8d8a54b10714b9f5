/** Waiting for a material an edit made to be probed, before a layer shows it. */
import { api } from '@/api/client';
import type { Material } from '@/api/material';

/** How often a new material's state is read while it is probed (ms). */
const READY_POLL_MS = 400;

/**
 * Waits until material `id` is probed and answers it (its signed address, its size and length);
 * throws its reason when probing refused it, or after `timeoutMs`.
 */
export async function readyMaterial(id: string, timeoutMs: number): Promise<Material> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = await api.post<Material>(`/material/info/${encodeURIComponent(id)}`);
    if (m.state === 'ready') return m;
    if (m.state === 'failed') throw new Error(m.failReason || 'failed');
    if (Date.now() > until) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
}
