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
 * `window.__REELFORGE__.variant` (a host page's own setting), the variant the server named for the
 * page's host, else the default.
 */
export function resolveVariant(
  location: { search: string; hash: string },
  config: RuntimeConfig | undefined,
  served?: string | null,
): Variant {
  const fromSearch = asVariant(new URLSearchParams(location.search).get('variant'));
  if (fromSearch) return fromSearch;
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
  const fromHash = asVariant(new URLSearchParams(hashQuery).get('variant'));
  if (fromHash) return fromHash;
  return asVariant(config?.variant) ?? asVariant(served) ?? DEFAULT_VARIANT;
}

/** The variant the gateway named in the entry page for the host it was asked for (`gateway/src/spa.rs`). */
export function servedVariant(doc: Document): string | null {
  return doc.querySelector('meta[name="reelforge-variant"]')?.getAttribute('content') ?? null;
}

let current: Variant | null = null;

/** Returns the variant of this page load (resolved once, then cached). */
export function currentVariant(): Variant {
  if (current === null) {
    current = typeof window === 'undefined' ? DEFAULT_VARIANT : resolveVariant(window.location, window.__REELFORGE__, servedVariant(document));
  }
  return current;
}

/** Overrides the cached variant; used by tests. */
export function setCurrentVariant(variant: Variant | null): void {
  current = variant;
}

/** What tells the variants apart on screen (spec platform §1: headers and empty-state pictures). */
export interface VariantBrand {
  /** Locale key of the header title. */
  titleKey: string;
  /** Accent colour of the header. */
  accent: string;
  /** The empty-state picture, an inline SVG data URL. */
  emptyImage: string;
}

function emptyPicture(accent: string, glyph: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="184" height="120" viewBox="0 0 184 120">` +
    `<rect x="22" y="18" width="140" height="84" rx="10" fill="${accent}" fill-opacity="0.08" stroke="${accent}" stroke-width="2"/>` +
    `<rect x="22" y="18" width="140" height="16" rx="8" fill="${accent}" fill-opacity="0.25"/>` +
    `<path d="M82 52 L106 66 L82 80 Z" fill="${accent}"/>` +
    `<text x="92" y="114" font-family="sans-serif" font-size="11" text-anchor="middle" fill="${accent}">${glyph}</text>` +
    `</svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

const BRANDS: Record<Variant, VariantBrand> = {
  qs: { titleKey: 'variant.qs', accent: '#5b3df5', emptyImage: emptyPicture('#5b3df5', 'REELFORGE') },
  cc: { titleKey: 'variant.cc', accent: '#0e7bd9', emptyImage: emptyPicture('#0e7bd9', 'CC') },
  migu: { titleKey: 'variant.migu', accent: '#e4007f', emptyImage: emptyPicture('#e4007f', 'MIGU') },
  cu: { titleKey: 'variant.cu', accent: '#e60012', emptyImage: emptyPicture('#e60012', 'CU') },
};

/** Returns the header and empty-state branding of a variant. */
export function brandOf(variant: Variant): VariantBrand {
  return BRANDS[variant];
}
