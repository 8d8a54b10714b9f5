/**
 * Resumable uploads (`/upload`): the file goes in parts of `RESUMABLE_PART_BYTES` over the tus 1.0
 * protocol (`tus-js-client`, the protocol's own client: retries, offsets, and the fingerprint of
 * each unfinished upload kept in localStorage) to `POST /upload/resumable` (gateway
 * `routes/resumable.rs`). A part that fails is sent again after `RESUMABLE_RETRY_DELAYS_MS`; an
 * upload cut off for longer (the network gone, the tab closed) goes on from its last stored part
 * when the same file is chosen again. The last part's answer names the material.
 */
import * as tus from 'tus-js-client';
import { api, API_BASE, CODE_SUCCESS } from './client';
import { ApiError } from './errors';

/** Bytes of one part (the gateway takes parts up to `http.max_body_bytes`, 8 MiB by default). */
export const RESUMABLE_PART_BYTES = 4 * 1024 * 1024;
/** Waits before a failed part is sent again; after the last the upload stops, resumable later. */
export const RESUMABLE_RETRY_DELAYS_MS = [0, 1000, 3000, 5000];

/** How far an upload is: its share sent, and the byte it went on from when it resumed one. */
export interface ResumableProgress {
  percent: number;
  resumedFrom?: number;
}

const URL = '/upload/resumable';

/** The error of a tus failure: the gateway's envelope when it answered one, else the transport's. */
function failure(err: Error | tus.DetailedError): ApiError {
  const body = 'originalResponse' in err ? err.originalResponse?.getBody() : undefined;
  try {
    const envelope = body ? (JSON.parse(body) as { code?: number; desc?: string; data?: Record<string, unknown> }) : undefined;
    if (envelope?.desc) {
      const status = 'originalResponse' in err ? err.originalResponse?.getStatus() : undefined;
      return new ApiError({ kind: 'business', url: URL, code: envelope.code, status, desc: envelope.desc, message: envelope.desc, data: envelope.data });
    }
  } catch {
    // Not an envelope: a proxy's page or nothing.
  }
  return new ApiError({ kind: 'network', url: URL, message: err.message });
}

/** The material id of the last part's answer (`{code: 2000, data: {materialId}}`). */
function materialOf(body: string): string {
  const envelope = JSON.parse(body) as { code?: number; desc?: string; data?: { materialId?: string } };
  const id = envelope.code === CODE_SUCCESS ? envelope.data?.materialId : undefined;
  if (!id) throw new ApiError({ kind: 'business', url: URL, desc: envelope.desc ?? body, message: `${URL}: unexpected answer` });
  return id;
}

/** How an upload is sent: the parts' size and the waits before a failed part goes again. */
export interface ResumableSettings {
  partBytes: number;
  retryDelaysMs: number[];
  /** The HTTP stack (the browser's by default; tests give their own server). */
  httpStack?: tus.HttpStack;
}

const SETTINGS: ResumableSettings = { partBytes: RESUMABLE_PART_BYTES, retryDelaysMs: RESUMABLE_RETRY_DELAYS_MS };

/**
 * Uploads `file` resumably, going on from an earlier unfinished upload of the same file; answers
 * the new material's id. Aborting `signal` stops it and gives the upload up on the server.
 */
export function uploadResumable(file: File, onProgress?: (progress: ResumableProgress) => void, signal?: AbortSignal, settings: ResumableSettings = SETTINGS): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let resumedFrom: number | undefined;
    // Only the offset asked before this call sent anything is where it went on from: a retry's
    // question after a failed part is the same upload going on.
    let sent = false;
    const upload = new tus.Upload(file, {
      endpoint: `${API_BASE}${URL}`,
      chunkSize: settings.partBytes,
      retryDelays: settings.retryDelaysMs,
      ...(settings.httpStack ? { httpStack: settings.httpStack } : {}),
      metadata: { filename: file.name, filetype: file.type },
      headers: api.headers(),
      removeFingerprintOnSuccess: true,
      onAfterResponse: (req, res) => {
        const offset = Number(res.getHeader('Upload-Offset'));
        if (req.getMethod() === 'HEAD' && !sent && offset > 0) resumedFrom = offset;
        if (req.getMethod() === 'PATCH') sent = true;
      },
      onProgress: (sent, total) => onProgress?.({ percent: total > 0 ? Math.floor((sent * 100) / total) : 0, resumedFrom }),
      onSuccess: ({ lastResponse }) => {
        try {
          resolve(materialOf(lastResponse.getBody()));
        } catch (e) {
          reject(e);
        }
      },
      onError: (err) => reject(failure(err)),
    });
    signal?.addEventListener('abort', () => {
      void upload.abort(true).catch(() => undefined);
      reject(new DOMException('the upload was cancelled', 'AbortError'));
    });
    void upload.findPreviousUploads().then(
      (previous) => {
        const last = previous[0];
        if (last) upload.resumeFromPreviousUpload(last);
        if (!signal?.aborted) upload.start();
      },
      () => upload.start(),
    );
  });
}
