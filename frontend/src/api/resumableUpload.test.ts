import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';
import { uploadResumable, type ResumableProgress } from './resumableUpload';
import { ApiError } from './errors';

/** A tus server in memory, as the gateway answers (routes/resumable.rs); `cut` drops one PATCH. */
class FakeServer implements HttpStack {
  uploads = new Map<string, { length: number; offset: number }>();
  calls: string[] = [];
  cut = new Set<number>();
  private patches = 0;

  getName() {
    return 'fake';
  }

  createRequest(method: string, url: string): HttpRequest {
    const headers: Record<string, string> = {};
    let progress: (sent: number) => void = () => undefined;
    const reply = (status: number, out: Record<string, string>, body = ''): HttpResponse => ({
      getStatus: () => status,
      getHeader: (h) => out[h],
      getBody: () => body,
      getUnderlyingObject: () => null,
    });
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (h, v) => {
        headers[h] = v;
      },
      getHeader: (h) => headers[h],
      setProgressHandler: (handler) => {
        progress = handler;
      },
      abort: async () => undefined,
      getUnderlyingObject: () => null,
      send: async (body?: Blob) => {
        this.calls.push(method);
        if (method === 'POST') {
          const id = `u${this.uploads.size + 1}`;
          this.uploads.set(id, { length: Number(headers['Upload-Length']), offset: 0 });
          return reply(201, { Location: `/diyvrbt/upload/resumable/${id}` });
        }
        const upload = this.uploads.get(url.split('/').pop() ?? '');
        if (!upload) return reply(404, {});
        if (method === 'HEAD') return reply(200, { 'Upload-Offset': String(upload.offset), 'Upload-Length': String(upload.length) });
        this.patches += 1;
        // Half the part leaves the browser before the network goes away.
        progress(Math.floor((body?.size ?? 0) / 2));
        if (this.cut.has(this.patches)) throw new Error('the network went away');
        if (Number(headers['Upload-Offset']) !== upload.offset) {
          return reply(409, {}, JSON.stringify({ code: 3000, desc: `Upload-Offset: the upload stands at ${upload.offset}`, data: { reason: 'wrong_offset' } }));
        }
        upload.offset += body?.size ?? 0;
        if (upload.offset < upload.length) return reply(204, { 'Upload-Offset': String(upload.offset) });
        return reply(200, { 'Upload-Offset': String(upload.offset) }, JSON.stringify({ code: 2000, data: { materialId: 'm-1', duplicate: false }, desc: '素材添加成功' }));
      },
    };
  }
}

describe('resumable uploads', () => {
  beforeEach(() => localStorage.clear());

  it('goes on from the last stored part when the same file is chosen again after an interruption', async () => {
    const server = new FakeServer();
    server.cut.add(2).add(3);
    const file = new File(['0123456789'], 'clip.mp4', { type: 'video/mp4', lastModified: 1 });
    const settings = { partBytes: 4, retryDelaysMs: [0], httpStack: server };
    const before: ResumableProgress[] = [];
    const first = uploadResumable(file, (p) => before.push(p), undefined, settings);
    await expect(first).rejects.toBeInstanceOf(ApiError);
    expect(server.uploads.get('u1')).toEqual({ length: 10, offset: 4 });
    // The retry asked where the upload stood: that is not a resumed upload.
    expect(before.every((p) => p.resumedFrom === undefined)).toBe(true);

    const seen: ResumableProgress[] = [];
    const id = await uploadResumable(file, (p) => seen.push(p), undefined, settings);
    expect(id).toBe('m-1');
    expect(server.calls).toEqual(['POST', 'PATCH', 'PATCH', 'HEAD', 'PATCH', 'HEAD', 'PATCH', 'PATCH']);
    expect(seen.at(-1)).toEqual({ percent: 100, resumedFrom: 4 });
    // Finished, the upload is forgotten: the same file again is a new upload.
    await uploadResumable(file, undefined, undefined, settings);
    expect(server.calls.filter((c) => c === 'POST')).toHaveLength(2);
  });

  it('answers the gateway’s refusal in its own words', async () => {
    const server = new FakeServer();
    const refusing: HttpStack = {
      getName: () => 'refusing',
      createRequest: (method, url) => {
        const req = server.createRequest(method, url);
        return {
          ...req,
          send: async () => ({
            getStatus: () => 413,
            getHeader: () => undefined,
            getBody: () => JSON.stringify({ code: 3000, desc: 'file too large: video limit is 500 MB', data: { reason: 'file_too_large' } }),
            getUnderlyingObject: () => null,
          }),
        };
      },
    };
    const file = new File(['x'], 'big.mp4', { type: 'video/mp4' });
    const refused = uploadResumable(file, undefined, undefined, { partBytes: 4, retryDelaysMs: [], httpStack: refusing });
    await expect(refused).rejects.toMatchObject({ kind: 'business', status: 413, desc: 'file too large: video limit is 500 MB', data: { reason: 'file_too_large' } });
  });
});
