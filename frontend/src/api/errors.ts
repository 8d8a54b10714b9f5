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

/** Returns true when the error is a duplicate request the client cancelled. */
export function isCancelledRequest(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'cancelled';
}
