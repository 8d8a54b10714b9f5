/**
 * The one HTTP client (spec editor-core §7–§8, style §3.7): base `/diyvrbt`, envelope
 * `{code, data, desc}` unwrapped, failures toasted and rejected as `ApiError`. A toast is in the
 * page's language and names no address (`errorText`; issue 23: spec §8's '{url} 请求失败: …' showed
 * internal paths and English server messages); the `ApiError`'s message keeps the address for logs.
 * A transport failure (no answer, or a gateway's 502/503/504) of a GET, or of a call that asks for
 * it (`retry`: uploads), is tried again after 0.5, 1.5 and 3.5 s before it is reported, once.
 */
import axios, { type AxiosAdapter, type AxiosProgressEvent, type AxiosResponse } from 'axios';
import { currentVariant, type Variant } from '@/app/variant';
import { buildHeaders, encodeBody, NO_AUTH, requestKey, type AuthSnapshot } from './encoding';
import { ApiError, errorText, TRANSIENT_STATUSES } from './errors';

export const API_BASE = '/diyvrbt';
export const REQUEST_TIMEOUT_MS = 1_200_000;
export const SESSION_EXPIRY_DELAY_MS = 3_000;
export const LOGIN_EXPIRED_MESSAGE = '登录过期,请重新登录！';
export const LOGIN_EXPIRED_TOAST_KEY = 'login-expired';

export const CODE_SUCCESS = 2000;
export const CODE_NOTHING = 0;
export const CODE_FAILURE = 3000;
export const CODES_LOGIN_EXPIRED: readonly number[] = [4000, 4001];

/** URLs whose answers are returned raw, without code handling. */
export const BYPASS_URLS = ['/redis/history/store', '/redis/history/getStoreTime', '/redis/history/getOne', '/font/test'];
/** Answer data that is returned raw, without code handling. */
export const BYPASS_DATA = 'String index out of range: -145';
/** URLs whose failure (code 3000) is not toasted. */
export const SILENT_FAILURE_URLS = ['/material/getVolumeDB'];
/** Waits before each new try of a call that failed in transport, ms (three more tries at most). */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1500, 3500];

/** The answer every call carries. */
export interface Envelope<T = unknown> {
  code: number;
  data: T;
  desc?: string;
}

/** What the client needs from the app; set with `configureApi`. */
export interface ApiHooks {
  getAuth(): AuthSnapshot;
  getVariant(): Variant;
  /** Shows an error toast; the same key replaces an open toast. */
  notifyError(text: string, key?: string): void;
  /** Clears auth and sends the user to the root; runs 3 s after a 4000/4001 answer. */
  onSessionExpired(): void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  url: string;
  method?: HttpMethod;
  /** Query string parameters. */
  params?: Record<string, unknown>;
  /** Body: form-encoded by default, JSON for the URLs in JSON_BODY_URLS and arrays, multipart for FormData. */
  data?: unknown;
  /** Suppresses failure toasts (the rejection still happens). */
  silent?: boolean;
  /**
   * For calls that end a session anyway (logout): a 4000/4001 answer rejects without the
   * login-expired toast and redirect.
   */
  quietExpiry?: boolean;
  /** `blob` answers are returned as they are, with no envelope. */
  responseType?: 'json' | 'blob' | 'text';
  signal?: AbortSignal;
  /** Called with the share of the body sent so far, 0–100 (uploads). */
  onUploadProgress?: (percent: number) => void;
  /**
   * Tries a POST again after a transport failure (GETs always are): for calls that may safely be
   * repeated, such as an upload (at worst a second copy of the file).
   */
  retry?: boolean;
}

export interface ApiClient {
  request<T = unknown>(options: RequestOptions): Promise<T>;
  get<T = unknown>(url: string, params?: Record<string, unknown>, options?: Partial<RequestOptions>): Promise<T>;
  post<T = unknown>(url: string, data?: unknown, options?: Partial<RequestOptions>): Promise<T>;
  /**
   * Opens a server-sent event stream with the same headers as every call (tokens never go in
   * the URL). Resolves to the body when the answer is `text/event-stream`; an envelope answer
   * goes through the usual code handling and rejects.
   */
  stream(url: string, options?: StreamOptions): Promise<ReadableStream<Uint8Array>>;
  /**
   * Sends a POST the browser completes even when the page is being closed (`fetch` keep-alive,
   * same headers as every call); the answer is not read. False when not sent (keep-alive bodies
   * are limited to 64 KB).
   */
  beacon(url: string, data: Record<string, unknown>): boolean;
  /** Number of requests in flight (for tests and diagnostics). */
  pendingCount(): number;
  /** The headers every call carries, for a library that sends its own requests (the resumable uploader). */
  headers(): Record<string, string>;
}

/** Browsers refuse keep-alive bodies over 64 KB; a little is left for the form encoding's slack. */
export const BEACON_MAX_BYTES = 60 * 1024;

export interface StreamOptions {
  params?: Record<string, string | number>;
  /** Resumes after this event id (`Last-Event-ID`). */
  lastEventId?: string | null;
  signal?: AbortSignal;
  /** Suppresses failure toasts (the rejection still happens). */
  silent?: boolean;
}

/** The fetch the stream uses; tests replace it. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function matches(url: string, list: readonly string[]): boolean {
  const path = pathOf(url);
  return list.some((u) => path === u || path.endsWith(u));
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).code === 'number';
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Returns a client bound to `hooks`; `adapter` replaces the network in tests, and `retryDelays`
 * the waits before new tries of a transport failure.
 */
export function createApiClient(hooks: ApiHooks, adapter?: AxiosAdapter, fetcher?: FetchLike, retryDelays: readonly number[] = RETRY_DELAYS_MS): ApiClient {
  const http = axios.create({
    baseURL: API_BASE,
    timeout: REQUEST_TIMEOUT_MS,
    validateStatus: () => true,
    ...(adapter ? { adapter } : {}),
  });
  const pending = new Set<string>();
  let expiryTimer: ReturnType<typeof setTimeout> | null = null;

  function fail(init: ConstructorParameters<typeof ApiError>[0], silent: boolean): never {
    const err = new ApiError(init);
    if (!silent) hooks.notifyError(errorText(err));
    throw err;
  }

  function expireSession(url: string, body: Envelope, quiet: boolean): never {
    if (!quiet) hooks.notifyError(errorText(new ApiError({ kind: 'auth', url, message: LOGIN_EXPIRED_MESSAGE })), LOGIN_EXPIRED_TOAST_KEY);
    if (!quiet && expiryTimer === null) {
      expiryTimer = setTimeout(() => {
        expiryTimer = null;
        hooks.onSessionExpired();
      }, SESSION_EXPIRY_DELAY_MS);
    }
    throw new ApiError({
      kind: 'auth',
      url,
      code: body.code,
      desc: body.desc ?? LOGIN_EXPIRED_MESSAGE,
      message: LOGIN_EXPIRED_MESSAGE,
      data: body.data,
    });
  }

  function handleAnswer<T>(url: string, body: unknown, silent: boolean, quietExpiry = false): T {
    if (typeof Blob !== 'undefined' && body instanceof Blob) return body as T;
    if (matches(url, BYPASS_URLS)) return body as T;
    if (isEnvelope(body) && body.data === BYPASS_DATA) return body as T;
    if (!isEnvelope(body)) {
      return fail({ kind: 'business', url, message: `${url} 请求失败: 响应格式错误`, data: body }, silent);
    }
    if (body.code === CODE_SUCCESS) return body.data as T;
    if (body.code === CODE_NOTHING) return undefined as T;
    if (CODES_LOGIN_EXPIRED.includes(body.code)) return expireSession(url, body, quietExpiry);
    const detail = body.desc || describe(body.data);
    const text = `${url} 请求失败: ${detail}`;
    const quiet = silent || (body.code === CODE_FAILURE && matches(url, SILENT_FAILURE_URLS));
    return fail({ kind: 'business', url, code: body.code, desc: detail, message: text, data: body.data }, quiet);
  }

  /** Sends once; a transport failure answers `{ failure }` (the thrown error, or the 502/503/504 answer). */
  async function send(config: Parameters<typeof http.request>[0], url: string): Promise<{ response: AxiosResponse } | { failure: unknown; response?: AxiosResponse }> {
    try {
      const response = await http.request(config);
      return TRANSIENT_STATUSES.has(response.status) ? { failure: null, response } : { response };
    } catch (err) {
      if (axios.isCancel(err)) throw new ApiError({ kind: 'cancelled', url, message: `${url} 请求已取消` });
      return { failure: err };
    }
  }

  async function request<T>(options: RequestOptions): Promise<T> {
    const { url, params, data, signal, responseType, onUploadProgress } = options;
    const method = options.method ?? 'GET';
    const silent = options.silent ?? false;
    const key = requestKey(method, url, params, data);
    if (pending.has(key)) {
      throw new ApiError({ kind: 'cancelled', url, message: `${url} 重复请求已取消` });
    }
    pending.add(key);
    try {
      const { body, contentType } = encodeBody(url, data);
      const headers = buildHeaders(hooks.getAuth(), hooks.getVariant());
      if (contentType) headers['Content-Type'] = contentType;
      const config = {
        url,
        method,
        params,
        data: body,
        headers,
        signal,
        responseType: responseType ?? 'json',
        ...(onUploadProgress
          ? { onUploadProgress: (e: AxiosProgressEvent) => onUploadProgress(e.total ? Math.min(100, Math.round((e.loaded / e.total) * 100)) : 0) }
          : {}),
      } as const;
      const tries = method === 'GET' || options.retry ? retryDelays.length : 0;
      let sent = await send(config, url);
      for (let i = 0; i < tries && 'failure' in sent && !signal?.aborted; i += 1) {
        await pause(retryDelays[i] ?? 0, signal);
        if (signal?.aborted) break;
        sent = await send(config, url);
      }
      if (signal?.aborted && 'failure' in sent) throw new ApiError({ kind: 'cancelled', url, message: `${url} 请求已取消` });
      const response = sent.response;
      if (!response) {
        const failure = 'failure' in sent ? sent.failure : null;
        const reason = failure instanceof Error ? failure.message : String(failure);
        return fail({ kind: 'network', url, message: `${url} 请求失败: ${reason}` }, silent);
      }
      if (response.status < 200 || response.status >= 300) {
        const text = `${url} 请求失败: ${response.status} ${response.statusText}`.trimEnd();
        // A refusal answered with an HTTP error (a 413 for a body too large) still carries the envelope.
        const envelope = isEnvelope(response.data) ? response.data : null;
        return fail({ kind: 'http', url, status: response.status, message: text, desc: envelope?.desc, data: envelope ? envelope.data : response.data }, silent);
      }
      return handleAnswer<T>(url, response.data, silent, options.quietExpiry);
    } finally {
      pending.delete(key);
    }
  }

  async function stream(url: string, options: StreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const silent = options.silent ?? false;
    const query = new URLSearchParams(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const headers = buildHeaders(hooks.getAuth(), hooks.getVariant());
    headers.Accept = 'text/event-stream';
    if (options.lastEventId) headers['Last-Event-ID'] = options.lastEventId;
    const doFetch = fetcher ?? ((input: string, init: RequestInit) => fetch(input, init));
    let response: Response;
    try {
      response = await doFetch(`${API_BASE}${url}${query ? `?${query}` : ''}`, { headers, signal: options.signal, cache: 'no-store' });
    } catch (err) {
      if (options.signal?.aborted) throw new ApiError({ kind: 'cancelled', url, message: `${url} 请求已取消` });
      const reason = err instanceof Error ? err.message : String(err);
      return fail({ kind: 'network', url, message: `${url} 请求失败: ${reason}` }, silent);
    }
    if (!response.ok) {
      const text = `${url} 请求失败: ${response.status} ${response.statusText}`.trimEnd();
      return fail({ kind: 'http', url, status: response.status, message: text }, silent);
    }
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && response.body) return response.body;
    const body: unknown = await response.json().catch(() => null);
    handleAnswer(url, body, silent);
    return fail({ kind: 'business', url, message: `${url} 请求失败: 不是事件流` }, silent);
  }

  function beacon(url: string, data: Record<string, unknown>): boolean {
    const { body, contentType } = encodeBody(url, data);
    const size = typeof body === 'string' ? new TextEncoder().encode(body).length : body instanceof URLSearchParams ? body.toString().length : Infinity;
    if (size > BEACON_MAX_BYTES) return false;
    const headers = buildHeaders(hooks.getAuth(), hooks.getVariant());
    if (contentType) headers['Content-Type'] = contentType;
    const doFetch = fetcher ?? ((input: string, init: RequestInit) => fetch(input, init));
    void doFetch(`${API_BASE}${url}`, { method: 'POST', headers, body: body as BodyInit, keepalive: true }).catch(() => undefined);
    return true;
  }

  return {
    request,
    beacon,
    get: (url, params, options) => request({ ...options, url, params, method: 'GET' }),
    post: (url, data, options) => request({ ...options, url, data, method: 'POST' }),
    stream,
    pendingCount: () => pending.size,
    headers: () => buildHeaders(hooks.getAuth(), hooks.getVariant()),
  };
}

const hooks: ApiHooks = {
  getAuth: () => NO_AUTH,
  getVariant: currentVariant,
  notifyError: (text) => console.error(text),
  onSessionExpired: () => {
    if (typeof window !== 'undefined') window.location.hash = '#/';
  },
};

/** Connects the shared client to the app: auth source, toasts, session expiry. */
export function configureApi(partial: Partial<ApiHooks>): void {
  Object.assign(hooks, partial);
}

/** The shared client every `src/api/<noun>.ts` module calls. */
export const api: ApiClient = createApiClient(hooks);
