/** The embedding host's back address, kept for the tab's life (sessionStorage). */
export const HANDOFF_BACK_KEY = 'reelforge.handoff.back';

/** Returns the saved back address when it is an http(s) URL, else null. */
export function loadHandoffBack(storage: Pick<Storage, 'getItem'> | undefined = globalThis.sessionStorage): string | null {
  try {
    const value = storage?.getItem(HANDOFF_BACK_KEY);
    if (!value) return null;
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Saves the back address the server echoed (it echoes only the variant's hosts); '' forgets it. */
export function saveHandoffBack(value: string, storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = globalThis.sessionStorage): void {
  try {
    if (value) storage?.setItem(HANDOFF_BACK_KEY, value);
    else storage?.removeItem(HANDOFF_BACK_KEY);
  } catch {
    /* storage unavailable: no back link */
  }
}
