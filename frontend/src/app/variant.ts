/** Product variants (spec platform §1); qs is the default. */
export const VARIANTS = ['qs', 'cc', 'migu', 'cu'] as const;
export type Variant = (typeof VARIANTS)[number];
export const DEFAULT_VARIANT: Variant = 'qs';

/** Runtime configuration a host page may set before the bundle loads. */
export interface RuntimeConfig {
  variant?: string;
}

declare global {
  interface Window {
    __REELFORGE__?: RuntimeConfig;
  }
}

function asVariant(value: string | null | undefined): Variant | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  return (VARIANTS as readonly string[]).includes(v) ? (v as Variant) : null;
}

/**
 * Returns the variant from, in order: `?variant=` in the query, `?variant=` inside the hash,
 * `window.__REELFORGE__.variant`, else the default.
 */
export function resolveVariant(
  location: { search: string; hash: string },
  config: RuntimeConfig | undefined,
): Variant {
  const fromSearch = asVariant(new URLSearchParams(location.search).get('variant'));
  if (fromSearch) return fromSearch;
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
  const fromHash = asVariant(new URLSearchParams(hashQuery).get('variant'));
  if (fromHash) return fromHash;
  return asVariant(config?.variant) ?? DEFAULT_VARIANT;
}

let current: Variant | null = null;

/** Returns the variant of this page load (resolved once, then cached). */
export function currentVariant(): Variant {
  if (current === null) {
    current = typeof window === 'undefined' ? DEFAULT_VARIANT : resolveVariant(window.location, window.__REELFORGE__);
  }
  return current;
}

/** Overrides the cached variant; used by tests. */
export function setCurrentVariant(variant: Variant | null): void {
  current = variant;
}
