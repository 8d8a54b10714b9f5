/**
 * Request body and header rules of the API client (spec editor-core §6–§7).
 * Pure functions so they can be tested without a network.
 */
import type { Variant } from '@/app/variant';

/** URL fragments whose bodies are sent as JSON; every other plain-object body is form-encoded. */
export const JSON_BODY_URLS = [
  'tts/textToVoice',
  '/material/v2/batchUrlVideoAddResult',
  '/material/pictureUrlToMaterial',
  '/word',
  '/template/fill',
  '/template/submit',
  '/template/audit',
  '/template/categories',
  '/template/setPush',
  '/business/runOneBusinessCardTask',
  '/ring/',
  '/platform/saveRing',
  '/material/ringUpload',
  '/material/v2/ifdownloadbyphone',
  '/toolbox/',
  '/videotask/oneClick/',
  '/manage/collection/',
  '/contest/',
  '/manage/contest/',
  '/service/',
  '/market/',
  '/maintain/catalogue/',
] as const;

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded;charset=UTF-8';
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Returns true when the URL's body must be JSON. `/word` matches only as a whole path segment. */
export function isJsonUrl(url: string): boolean {
  const path = pathOf(url);
  return JSON_BODY_URLS.some((frag) =>
    frag === '/word' ? path === '/word' || path.startsWith('/word/') || path.endsWith('/word') : path.includes(frag),
  );
}

export interface EncodedBody {
  body: FormData | URLSearchParams | string | undefined;
  /** Content type to set; undefined lets the browser choose (FormData boundary). */
  contentType: string | undefined;
}

function formValue(v: unknown): string {
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

/** Returns a plain object as URLSearchParams: null/undefined skipped, arrays repeated, objects as JSON. */
export function toFormParams(data: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (item !== undefined && item !== null) params.append(k, formValue(item));
    } else {
      params.append(k, formValue(v));
    }
  }
  return params;
}

/**
 * Encodes a request body: FormData as multipart, arrays and JSON URLs as JSON,
 * everything else form-encoded.
 */
export function encodeBody(url: string, data: unknown): EncodedBody {
  if (data === undefined || data === null) return { body: undefined, contentType: undefined };
  if (typeof FormData !== 'undefined' && data instanceof FormData) return { body: data, contentType: undefined };
  if (data instanceof URLSearchParams) return { body: data, contentType: FORM_CONTENT_TYPE };
  if (Array.isArray(data) || isJsonUrl(url)) return { body: JSON.stringify(data), contentType: JSON_CONTENT_TYPE };
  if (typeof data === 'object') return { body: toFormParams(data as Record<string, unknown>), contentType: FORM_CONTENT_TYPE };
  return { body: String(data), contentType: FORM_CONTENT_TYPE };
}

/** Credentials the client attaches to every call. */
export interface AuthSnapshot {
  token: string | null;
  userId: string | null;
  mobile: string | null;
  jwt: string | null;
}

export const NO_AUTH: AuthSnapshot = { token: null, userId: null, mobile: null, jwt: null };

/**
 * Returns the request headers: `X-Variant` always; with a token, `Authorization` (`Bearer` for cc),
 * `mobile` (derived from the user id when unknown), and, except for cc, `userId` and `jwt`.
 */
export function buildHeaders(auth: AuthSnapshot, variant: Variant): Record<string, string> {
  const headers: Record<string, string> = { 'X-Variant': variant };
  if (!auth.token) return headers;
  const mobile = auth.mobile ?? auth.userId;
  if (variant === 'cc') {
    headers.Authorization = `Bearer ${auth.token}`;
    if (mobile) headers.mobile = mobile;
    return headers;
  }
  headers.Authorization = auth.token;
  if (auth.userId) headers.userId = auth.userId;
  if (mobile) headers.mobile = mobile;
  if (auth.jwt) headers.jwt = auth.jwt;
  return headers;
}

function stableValue(v: unknown): unknown {
  if (typeof FormData !== 'undefined' && v instanceof FormData) {
    return Array.from(v.entries()).map(([k, item]) => [
      k,
      typeof item === 'string' ? item : `blob:${(item as File).name ?? ''}:${item.size}:${item.type}`,
    ]);
  }
  if (v instanceof URLSearchParams) return v.toString();
  if (Array.isArray(v)) return v.map(stableValue);
  if (v && typeof v === 'object') {
    return Object.keys(v as object)
      .sort()
      .map((k) => [k, stableValue((v as Record<string, unknown>)[k])]);
  }
  return v;
}

/** Returns the identity of a request (method, URL, params and body) used to spot duplicates. */
export function requestKey(method: string, url: string, params: unknown, data: unknown): string {
  return JSON.stringify([method.toUpperCase(), url, stableValue(params ?? null), stableValue(data ?? null)]);
}
