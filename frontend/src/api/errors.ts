import i18next from 'i18next';
import { quotaUsageText } from './quotaUsage';
import { formatsByGroup } from './uploadFormats';

/** How a call failed: a business code, an expired session, an HTTP status, the network, or a cancelled duplicate. */
export type ApiErrorKind = 'business' | 'auth' | 'http' | 'network' | 'cancelled';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  url: string;
  message: string;
  code?: number;
  desc?: string;
  status?: number;
  data?: unknown;
}

/** Error every API call rejects with; `desc` carries the server's message for business failures. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly url: string;
  readonly code: number | undefined;
  readonly desc: string | undefined;
  readonly status: number | undefined;
  readonly data: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.url = init.url;
    this.code = init.code;
    this.desc = init.desc;
    this.status = init.status;
    this.data = init.data;
  }
}

/** Whether a save was refused because the task was saved elsewhere since the document was opened. */
export function isStaleSave(err: unknown): boolean {
  return err instanceof ApiError && typeof err.data === 'object' && err.data !== null && (err.data as { reason?: unknown }).reason === STALE_VERSION;
}

/** Returns true when the error is a duplicate request the client cancelled. */
export function isCancelledRequest(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'cancelled';
}

/**
 * `data.reason` of refusals the server words for clients (gateway `upload.rs` and `envelope.rs`),
 * each with its text under `api.reason.` in the locale files.
 */
export const UNSUPPORTED_FILE_TYPE = 'unsupported_file_type';
export const QUOTA_EXCEEDED = 'quota_exceeded';
/** `data.reason` of a save based on an older version than the stored one (gateway `envelope.rs`). */
export const STALE_VERSION = 'stale_version';
/** `data.reason` of the ringtone refusals (docs/ringtone.md "Failures"). */
export const RING_REASONS = ['phone_invalid', 'phone_not_joined', 'copyright_missing', 'task_not_finished', 'profile_violation', 'order_not_found', 'order_state', 'nothing_to_fix', 'not_fixable', 'fix_not_found', 'fix_not_finished'] as const;
/** `data.reason` of the music climax cut's refusals (`POST /ai/climax`, docs/ringtone.md). */
export const CLIMAX_REASONS = ['seconds_invalid', 'seconds_too_long', 'material_not_found', 'not_music', 'no_sound'] as const;
const REASONS = new Set<string>([UNSUPPORTED_FILE_TYPE, 'file_too_large', 'not_multipart', 'unreadable_file', 'content_too_large', 'rate_limited', QUOTA_EXCEEDED, STALE_VERSION, ...RING_REASONS, ...CLIMAX_REASONS]);

/** HTTP statuses of a gateway or proxy that could not reach the service: worth a retry, then 'unavailable'. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The server's own English messages (gateway `envelope.rs`, kit `status.rs`) and their locale keys. */
const KNOWN_DESCS: ReadonlyArray<[RegExp, string]> = [
  [/^internal error/i, 'api.error.internal'],
  [/^service unavailable/i, 'api.error.unavailable'],
  [/is not available yet$/i, 'api.error.notAvailable'],
  [/\bdoes not exist\b|^not found$/i, 'api.error.notFound'],
  [/^登录过期/, 'api.error.loginExpired'],
  [/^id: application \d+ was already (approved|rejected)$/, 'api.error.alreadyDecided'],
  [/^application \d+ is still waiting for review$/, 'api.error.applicationWaiting'],
  [/^you are already a service provider$/, 'api.error.alreadyProvider'],
];

const HAN = /\p{Script=Han}/u;

/** Whether a server's text reads in the page's language (Chinese characters on a Chinese page, none otherwise). */
function inPageLanguage(text: string): boolean {
  return (i18next.language ?? '').startsWith('en') ? !HAN.test(text) : HAN.test(text);
}

/**
 * The extensions a refusal's `data.accepted` names (`{"picture": ["jpg", …], …}`, gateway
 * `upload.rs`), lower case, or null when it names none.
 */
function acceptedExtensions(accepted: unknown): Set<string> | null {
  if (typeof accepted !== 'object' || accepted === null) return null;
  const exts = Object.values(accepted as Record<string, unknown>).flatMap((list) =>
    Array.isArray(list) ? list.filter((e): e is string => typeof e === 'string').map((e) => e.toLowerCase()) : [],
  );
  return exts.length > 0 ? new Set(exts) : null;
}

/**
 * The accepted formats (`uploadFormats.ts`), grouped, in the page's language ("视频 MP4 MOV …；图片 …");
 * with a refusal's `data.accepted`, only those of them the server named (all when none is left).
 */
export function acceptedFormatsText(accepted?: unknown): string {
  const only = acceptedExtensions(accepted);
  const named = only ? formatsByGroup(only) : [];
  return (named.length > 0 ? named : formatsByGroup())
    .map(([group, exts]) => i18next.t('api.formats.group', { group: i18next.t(`api.formats.${group}`), list: exts.join(' ') }))
    .join(i18next.t('api.formats.separator'));
}

/**
 * The gateway's message for a file of a type it does not take: the whole answer before its refusals
 * carried `data.reason` (code 3000, `data` null), and the start of `desc` since ("unsupported file
 * type; accepted: jpg, …").
 */
const UNSUPPORTED_DESC = /^unsupported file type\b/i;

function reasonOf(err: ApiError): { reason: string; details: Record<string, unknown> } | null {
  const data = err.data;
  if (typeof data === 'object' && data !== null) {
    const reason = (data as { reason?: unknown }).reason;
    if (typeof reason === 'string' && REASONS.has(reason)) return { reason, details: data as Record<string, unknown> };
  }
  // A refused type said only in words is still that refusal, not a passing failure.
  if (UNSUPPORTED_DESC.test((err.desc ?? '').trim())) return { reason: UNSUPPORTED_FILE_TYPE, details: {} };
  return null;
}

/**
 * Returns what to tell a user of a failed call, in the page's language, naming no address: the
 * refusal's stable `data.reason` when it has one, the kind of failure, the server's message when it
 * is in the page's language, its English messages by their locale keys, else a plain 'did not work'.
 */
export function errorText(err: unknown): string {
  const t = i18next.t.bind(i18next);
  if (!(err instanceof ApiError)) return t('api.error.failed');
  const refusal = reasonOf(err);
  if (refusal) {
    const { details } = refusal;
    const usage = refusal.reason === QUOTA_EXCEEDED ? quotaUsageText(details) : '';
    return t(`api.reason.${refusal.reason}`, { ...details, formats: acceptedFormatsText(details.accepted), usage });
  }
  switch (err.kind) {
    case 'network':
      return t('api.error.network');
    case 'http':
      return err.status !== undefined && TRANSIENT_STATUSES.has(err.status) ? t('api.error.unavailable') : t('api.error.http', { status: err.status ?? '' });
    case 'auth':
      return t('api.error.loginExpired');
    case 'cancelled':
      return t('api.error.cancelled');
    case 'business':
      break;
  }
  const desc = (err.desc ?? '').trim();
  const known = KNOWN_DESCS.find(([pattern]) => pattern.test(desc));
  if (known) return t(known[1]);
  return desc !== '' && inPageLanguage(desc) ? desc : t('api.error.failed');
}
