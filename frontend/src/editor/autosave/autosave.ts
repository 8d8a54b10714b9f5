/**
 * What the autosave stores and when a restore is offered (pure; the hook and the banner use it).
 *
 * A stored state names the document its edits started from (`basedOn`: a fingerprint of the saved
 * document). A restore is offered when the editor opens a document whose fingerprint is that one
 * (so nothing was saved since, here or elsewhere) and the stored document differs from it: the
 * stored edits are newer than the saved task. After a save the next state is based on the new
 * saved document, and an older state no longer matches.
 */
import type { Rule } from '@/editor/model/gen/Rule';
import { isBlankScene } from '@/editor/state/defaults';

/** Changes rest this long before they are stored (ms). */
export const AUTOSAVE_DEBOUNCE_MS = 2000;

/** A change is stored at most this long after it was made, though edits keep coming (ms). */
export const AUTOSAVE_MAX_WAIT_MS = AUTOSAVE_DEBOUNCE_MS + 1000;

/** Waits before the tries of a store that failed (ms); the last repeats until one goes through. */
export const AUTOSAVE_RETRY_MS = [2000, 5000, 15_000, 30_000];

/**
 * How long to wait before storing, `now` being the latest change and `pending` the oldest one not
 * stored yet: the debounce, cut short so that no change waits longer than the maximum.
 */
export function storeDelay(now: number, pending: number): number {
  return Math.max(0, Math.min(AUTOSAVE_DEBOUNCE_MS, pending + AUTOSAVE_MAX_WAIT_MS - now));
}

/** One stored editor state. */
export interface StoredEdit {
  /** Format version of this record. */
  v: 1;
  /** The fingerprint of the saved document the edits started from ('' for a document never saved). */
  basedOn: string;
  /** The task name as edited. */
  name: string;
  /** The document as it would be saved (no material tickets). */
  rule: Rule;
  /** When the browser stored it, ms since the epoch. */
  at: number;
}

/** A short fingerprint of a document (FNV-1a over its JSON), to tell saved documents apart. */
export function fingerprint(rule: Rule): string {
  const text = JSON.stringify(rule);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length.toString(36)}-${h.toString(36)}`;
}

/** The record to store for the edited document. */
export function storedEdit(basedOn: string, name: string, rule: Rule, at: number): string {
  const record: StoredEdit = { v: 1, basedOn, name, rule, at };
  return JSON.stringify(record);
}

/** Reads a stored record; null when there is none or it is not one (a cleared or foreign state). */
export function parseStoredEdit(text: string): StoredEdit | null {
  if (!text) return null;
  try {
    const r = JSON.parse(text) as Partial<StoredEdit>;
    if (r.v !== 1 || typeof r.basedOn !== 'string' || !r.rule || !Array.isArray(r.rule.scenes)) return null;
    return { v: 1, basedOn: r.basedOn, name: typeof r.name === 'string' ? r.name : '', rule: r.rule, at: Number(r.at) || 0 };
  } catch {
    return null;
  }
}

/** Whether a document holds nothing: every scene blank (no background material, no layer) and no sound. */
export function isEmptyDocument(rule: Rule): boolean {
  return rule.scenes.every(isBlankScene) && (rule.audio ?? []).length === 0;
}

/** A document as a user tells documents apart: which scene was on show and the editor's scene ids do not count. */
function content(rule: Rule): string {
  return JSON.stringify({ ...rule, scenes: rule.scenes.map(({ isActive: _active, frontendId: _id, ...rest }) => rest) });
}

/**
 * The stored edits to offer when `opened` (the saved document as opened, or a new one: `basedOn`
 * '') is shown under `name`; null when there is nothing different to restore: the same content,
 * or, for a new document, a stored one that is empty too (a ratio tried, a scene added and removed).
 */
export function editToOffer(stored: StoredEdit | null, opened: Rule, openedBase: string, name: string): StoredEdit | null {
  if (!stored || stored.basedOn !== openedBase) return null;
  if (openedBase === '' && isEmptyDocument(stored.rule)) return null;
  const same = content(stored.rule) === content(opened) && stored.name === name;
  return same ? null : stored;
}

/** The record that clears a new document's state once it is saved as a task. */
export const CLEARED = JSON.stringify({ v: 0 });
