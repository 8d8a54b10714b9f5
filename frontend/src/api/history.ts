/**
 * The editor's autosave (docs/tasks.md "Autosave (edit history)"): one stored state per task
 * (−1: the caller's unsaved new document). These three answers bypass code handling (spec
 * editor-core §7), so the envelope comes back as it is and is read here.
 */
import { api, CODE_SUCCESS, type Envelope } from './client';

/** The task id the history is kept under: −1 for a document never saved. */
export function historyKey(taskId: number | null): number {
  return taskId !== null && taskId > 0 ? taskId : -1;
}

function dataOf<T>(answer: unknown, fallback: T): T {
  const e = answer as Envelope<T> | null;
  return e && e.code === CODE_SUCCESS ? e.data : fallback;
}

/**
 * Stores `history` (a JSON string) for the task; resolves to when it was stored (ms), or 0 when
 * refused or not reached (an autosave never interrupts editing; the next one tries again).
 */
export async function storeHistory(taskId: number | null, history: string): Promise<number> {
  try {
    return Number(dataOf(await api.post('/redis/history/store', { taskId: historyKey(taskId), history }, { silent: true }), 0));
  } catch {
    return 0;
  }
}

/** The stored history of the task, '' when there is none or it cannot be read. */
export async function fetchHistory(taskId: number | null): Promise<string> {
  try {
    return String(dataOf(await api.get('/redis/history/getOne', { taskId: historyKey(taskId) }, { silent: true }), ''));
  } catch {
    return '';
  }
}

/**
 * Stores `history` as the page goes away: a keep-alive request the browser finishes after the page
 * is gone (limited to 64 KB by browsers; false when larger or not sent, the last debounced store stands).
 */
export function storeHistoryOnLeave(taskId: number | null, history: string): boolean {
  return api.beacon('/redis/history/store', { taskId: historyKey(taskId), history });
}
