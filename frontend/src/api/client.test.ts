import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { applyLanguage } from '@/app/i18n';
import { createApiClient, LOGIN_EXPIRED_MESSAGE, REQUEST_TIMEOUT_MS, type ApiHooks } from './client';
import { NO_AUTH, type AuthSnapshot } from './encoding';
import { ApiError, isCancelledRequest } from './errors';

interface Answer {
  status?: number;
  statusText?: string;
  data?: unknown;
}

function setup(answer: Answer | ((config: InternalAxiosRequestConfig) => Answer | Promise<Answer>), auth: AuthSnapshot = NO_AUTH) {
  const calls: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    calls.push(config);
    const a = typeof answer === 'function' ? await answer(config) : answer;
    return { data: a.data, status: a.status ?? 200, statusText: a.statusText ?? 'OK', headers: {}, config };
  };
  const hooks: ApiHooks = {
    getAuth: () => auth,
    getVariant: () => 'qs',
    notifyError: jest.fn(),
    onSessionExpired: jest.fn(),
  };
  // Transport failures are tried again at once here (the client waits 0.5, 1.5 and 3.5 s).
  return { client: createApiClient(hooks, adapter, undefined, [0, 0, 0]), calls, hooks };
}

const ok = (data: unknown) => ({ data: { code: 2000, data, desc: 'success' } });

describe('envelope handling', () => {
  it('resolves data on 2000 and uses base /diyvrbt with the long timeout', async () => {
    const { client, calls, hooks } = setup(ok({ version: '0.1.0' }));
    await expect(client.get('/system/info')).resolves.toEqual({ version: '0.1.0' });
    expect(calls[0]?.baseURL).toBe('/diyvrbt');
    expect(calls[0]?.url).toBe('/system/info');
    expect(calls[0]?.method).toBe('get');
    expect(calls[0]?.timeout).toBe(REQUEST_TIMEOUT_MS);
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });

  it('resolves undefined without a toast on code 0', async () => {
    const { client, hooks } = setup({ data: { code: 0, data: { x: 1 }, desc: '' } });
    await expect(client.post('/material/delete', { materialId: 1 })).resolves.toBeUndefined();
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });

  it('toasts and rejects with a typed ApiError carrying desc on 3000', async () => {
    const { client, hooks } = setup({ data: { code: 3000, data: null, desc: '素材不存在' } });
    const err = await client.post('/material/delete', { materialId: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'business', code: 3000, desc: '素材不存在', url: '/material/delete' });
    // The server's message, in the page's language, and no address.
    expect(hooks.notifyError).toHaveBeenCalledWith('素材不存在');
  });

  it('falls back to data when desc is empty, and toasts a message in the page language instead of an English one', async () => {
    const { client, hooks } = setup({ data: { code: 3000, data: 'boom', desc: '' } });
    await expect(client.get('/x')).rejects.toMatchObject({ desc: 'boom' });
    expect(hooks.notifyError).toHaveBeenCalledWith('操作没有成功，请稍后重试');
  });

  it('is silent on 3000 for the volume-in-dB URL but still rejects', async () => {
    const { client, hooks } = setup({ data: { code: 3000, data: null, desc: 'no audio' } });
    await expect(client.post('/material/getVolumeDB', { materialId: 9 })).rejects.toMatchObject({ kind: 'business', desc: 'no audio' });
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });

  it('gives any other code the generic failure toast', async () => {
    const { client, hooks } = setup({ data: { code: 5001, data: null, desc: '未知错误' } });
    await expect(client.get('/y')).rejects.toMatchObject({ kind: 'business', code: 5001 });
    expect(hooks.notifyError).toHaveBeenCalledWith('未知错误');
  });

  it('treats a body that is not an envelope as a failure', async () => {
    const { client, hooks } = setup({ data: '<!doctype html>' });
    await expect(client.get('/z')).rejects.toBeInstanceOf(ApiError);
    expect(hooks.notifyError).toHaveBeenCalledWith('操作没有成功，请稍后重试');
  });

  it('honours the silent option', async () => {
    const { client, hooks } = setup({ status: 502, statusText: 'Bad Gateway', data: '' });
    await expect(client.get('/system/info', undefined, { silent: true })).rejects.toMatchObject({ kind: 'http', status: 502 });
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });
});

describe('login expiry', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each([4000, 4001])('code %i toasts, then expires the session after 3 s, once', async (code) => {
    const { client, hooks } = setup({ data: { code, data: null, desc: 'token expired' } });
    const first = client.get('/a').catch((e: unknown) => e);
    const second = client.get('/b').catch((e: unknown) => e);
    await expect(first).resolves.toMatchObject({ kind: 'auth', code });
    await expect(second).resolves.toMatchObject({ kind: 'auth' });
    expect(hooks.notifyError).toHaveBeenCalledWith(LOGIN_EXPIRED_MESSAGE, 'login-expired');
    expect(hooks.onSessionExpired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(2999);
    expect(hooks.onSessionExpired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(hooks.onSessionExpired).toHaveBeenCalledTimes(1);
  });
});

describe('HTTP and network failures', () => {
  it('toasts the status in the page language, and keeps the address for the log', async () => {
    const { client, hooks } = setup({ status: 500, statusText: 'Internal Server Error', data: 'x' });
    const err = await client.get('/videotask/state', { taskId: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'http', status: 500, message: '/videotask/state 请求失败: 500 Internal Server Error' });
    expect(hooks.notifyError).toHaveBeenCalledWith('请求没有成功（500），请稍后重试');
  });

  it('tries a transport failure again before telling anyone, and says nothing when a try gets through', async () => {
    let n = 0;
    const { client, calls, hooks } = setup(() => {
      n += 1;
      if (n === 1) throw new Error('h2 protocol error: http2 error');
      if (n === 2) return { status: 502, statusText: 'Bad Gateway', data: 'h2 protocol error: http2 error' };
      return ok('fine');
    });
    await expect(client.get('/n')).resolves.toBe('fine');
    expect(calls).toHaveLength(3);
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });

  it('waits longer before each new try: 0.5 s, then 1.5 s, then 3.5 s', async () => {
    jest.useFakeTimers();
    try {
      const calls: unknown[] = [];
      const adapter: AxiosAdapter = async (config) => {
        calls.push(config);
        if (calls.length < 3) throw new Error('Network Error');
        return { data: { code: 2000, data: 'late', desc: '' }, status: 200, statusText: 'OK', headers: {}, config };
      };
      const client = createApiClient({ getAuth: () => NO_AUTH, getVariant: () => 'qs', notifyError: jest.fn(), onSessionExpired: jest.fn() }, adapter);
      const answer = client.get('/n');
      await jest.advanceTimersByTimeAsync(499);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(1499);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(1);
      await expect(answer).resolves.toBe('late');
    } finally {
      jest.useRealTimers();
    }
  });

  it('gives up after three more tries with one toast, in the page language, naming no address', async () => {
    const { client, calls, hooks } = setup(() => {
      throw new Error('h2 protocol error: http2 error');
    });
    await expect(client.post('/upload/material', new FormData(), { retry: true })).rejects.toMatchObject({ kind: 'network' });
    expect(calls).toHaveLength(4);
    expect(hooks.notifyError).toHaveBeenCalledTimes(1);
    expect(hooks.notifyError).toHaveBeenCalledWith('网络连接中断，请检查网络后重试');
  });

  it('says a 502/503/504 that lasts is the service being unavailable', async () => {
    const { client, calls, hooks } = setup({ status: 503, statusText: 'Service Unavailable', data: '' });
    await expect(client.get('/n')).rejects.toMatchObject({ kind: 'http', status: 503 });
    expect(calls).toHaveLength(4);
    expect(hooks.notifyError).toHaveBeenCalledWith('服务暂时不可用，请稍后重试');
  });

  it('does not repeat a POST that did not ask for it (a save could be made twice)', async () => {
    const { client, calls } = setup({ status: 502, statusText: 'Bad Gateway', data: '' });
    await expect(client.post('/videotask/save', { taskId: -1 })).rejects.toMatchObject({ status: 502 });
    expect(calls).toHaveLength(1);
  });

  it("words a refusal by its stable reason, also when it comes with an HTTP error (413)", async () => {
    const { client, hooks } = setup({ status: 413, statusText: 'Payload Too Large', data: { code: 3000, data: { reason: 'file_too_large', limitMb: 500 }, desc: 'file: larger than 500 MB' } });
    await expect(client.post('/upload/material', new FormData(), { retry: true })).rejects.toMatchObject({ kind: 'http', status: 413 });
    expect(hooks.notifyError).toHaveBeenCalledWith('文件太大，不能超过 500 MB');
  });

  it('words the gateway\'s refusal of a file type as that, with the accepted formats, never as a passing failure', async () => {
    // The gateway as it answers now: data.reason and data.accepted by kind, the list in desc too.
    const now = setup({
      data: {
        code: 3000,
        data: { reason: 'unsupported_file_type', accepted: { picture: ['jpg', 'jpeg', 'png', 'bmp', 'webp', 'heic', 'heif', 'avif'] } },
        desc: 'unsupported file type; accepted: jpg, jpeg, png, bmp, webp, heic, heif, avif',
      },
    });
    await expect(now.client.post('/material/changeCoverPic', new FormData())).rejects.toMatchObject({ kind: 'business', code: 3000 });
    expect(now.hooks.notifyError).toHaveBeenCalledWith('不支持这种文件。支持的格式：图片 PNG JPG JPEG WEBP HEIC HEIF AVIF BMP');
    // The gateway before data.reason: its words only.
    const before = setup({ data: { code: 3000, data: null, desc: 'unsupported file type' } });
    await expect(before.client.post('/upload/material', new FormData(), { retry: true })).rejects.toMatchObject({ kind: 'business', code: 3000 });
    const said = (before.hooks.notifyError as jest.Mock).mock.calls[0]?.[0] as string;
    expect(said).toMatch(/^不支持这种文件。支持的格式：视频 MP4 MOV .*；图片 PNG .*；音频 MP3 .*；演示文稿 PPTX$/);
    expect(said).not.toContain('稍后重试');
  });

  it('speaks English on an English page: its own texts, the English messages, and no Chinese one', async () => {
    await applyLanguage('en-US');
    try {
      const english = setup({ data: { code: 3000, data: null, desc: 'task 7 does not exist' } });
      await expect(english.client.get('/videotask/ofone/7')).rejects.toBeInstanceOf(ApiError);
      expect(english.hooks.notifyError).toHaveBeenCalledWith('What you asked for does not exist or has been deleted.');
      const chinese = setup({ data: { code: 3000, data: null, desc: '素材不存在' } });
      await expect(chinese.client.post('/material/delete', { materialId: 1 })).rejects.toBeInstanceOf(ApiError);
      expect(chinese.hooks.notifyError).toHaveBeenCalledWith('That did not work. Please try again.');
      const down = setup(() => {
        throw new Error('Network Error');
      });
      await expect(down.client.get('/n')).rejects.toMatchObject({ kind: 'network' });
      expect(down.hooks.notifyError).toHaveBeenCalledWith('The connection was interrupted. Check your network and try again.');
    } finally {
      await applyLanguage('zh-CN');
    }
  });
});

describe('bypass', () => {
  it.each(['/redis/history/store', '/redis/history/getStoreTime', '/redis/history/getOne', '/font/test'])(
    'returns the raw answer for %s',
    async (url) => {
      const raw = { code: 3000, data: null, desc: 'missing' };
      const { client, hooks } = setup({ data: raw });
      await expect(client.post(url, { a: 1 })).resolves.toEqual(raw);
      expect(hooks.notifyError).not.toHaveBeenCalled();
    },
  );

  it("returns the raw answer when data is 'String index out of range: -145'", async () => {
    const raw = { code: 3000, data: 'String index out of range: -145', desc: '' };
    const { client, hooks } = setup({ data: raw });
    await expect(client.get('/videotask/ofone/1')).resolves.toEqual(raw);
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });
});

describe('duplicate requests', () => {
  it('cancels an identical pending request in favour of the first', async () => {
    let release: (a: Answer) => void = () => undefined;
    const { client, calls, hooks } = setup(() => new Promise<Answer>((r) => (release = r)));
    const first = client.post('/material/ofuser', { pageNum: 1, type: 'video' });
    const dup = client.post('/material/ofuser', { type: 'video', pageNum: 1 });
    const dupErr = await dup.catch((e: unknown) => e);
    expect(isCancelledRequest(dupErr)).toBe(true);
    expect(client.pendingCount()).toBe(1);
    release(ok([1, 2]));
    await expect(first).resolves.toEqual([1, 2]);
    expect(calls).toHaveLength(1);
    expect(hooks.notifyError).not.toHaveBeenCalled();
    expect(client.pendingCount()).toBe(0);
  });

  it('lets requests with a different body, method or URL through', async () => {
    const resolvers: ((a: Answer) => void)[] = [];
    const { client, calls } = setup(() => new Promise<Answer>((r) => resolvers.push(r)));
    const all = [
      client.post('/m', { a: 1 }),
      client.post('/m', { a: 2 }),
      client.get('/m', { a: 1 }),
      client.post('/n', { a: 1 }),
    ];
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toHaveLength(4);
    resolvers.forEach((r) => r(ok(true)));
    await expect(Promise.all(all)).resolves.toEqual([true, true, true, true]);
  });

  it('allows the same request again once the first has finished', async () => {
    const { client, calls } = setup(ok(1));
    await client.get('/again');
    await client.get('/again');
    expect(calls).toHaveLength(2);
  });
});

describe('body encoding', () => {
  it('form-encodes plain objects by default', async () => {
    const { client, calls } = setup(ok(null));
    await client.post('/material/updatename', { materialId: 7, materialName: '片头 1', skip: undefined, ids: [1, 2] });
    expect(String(calls[0]?.data)).toBe('materialId=7&materialName=%E7%89%87%E5%A4%B4+1&ids=1&ids=2');
    expect(String(calls[0]?.headers['Content-Type'])).toContain('application/x-www-form-urlencoded');
  });

  it.each(['tts/textToVoice', '/material/v2/batchUrlVideoAddResult', '/material/pictureUrlToMaterial', '/word'])(
    'sends JSON to %s',
    async (url) => {
      const { client, calls } = setup(ok(null));
      await client.post(url, { text: '你好', list: [1] });
      expect(calls[0]?.data).toBe(JSON.stringify({ text: '你好', list: [1] }));
      expect(String(calls[0]?.headers['Content-Type'])).toContain('application/json');
    },
  );

  it('does not treat /artword-like paths as the word URL', async () => {
    const { client, calls } = setup(ok(null));
    await client.post('/artfont/wordlist', { a: 1 });
    expect(calls[0]?.data).toBe('a=1');
  });

  it('sends arrays as JSON', async () => {
    const { client, calls } = setup(ok(null));
    await client.post('/material/batchDelete', [1, 2, 3]);
    expect(calls[0]?.data).toBe('[1,2,3]');
    expect(String(calls[0]?.headers['Content-Type'])).toContain('application/json');
  });

  it('sends FormData as it is', async () => {
    const { client, calls } = setup(ok('UPLOADED - x'));
    const form = new FormData();
    form.append('uploadFile', new Blob(['abc']), 'a.mp4');
    await client.post('/upload/material', form);
    expect(calls[0]?.data).toBe(form);
  });

  it('puts GET params in the query', async () => {
    const { client, calls } = setup(ok(null));
    await client.get('/videotask/state', { taskId: 5 });
    expect(calls[0]?.params).toEqual({ taskId: 5 });
    expect(calls[0]?.data).toBeUndefined();
  });
});

describe('headers', () => {
  const auth: AuthSnapshot = { token: 'tok', userId: '13800000000', mobile: null, jwt: 'j' };

  it('sends token, userId, mobile, jwt and the variant', async () => {
    const { client, calls } = setup(ok(null), auth);
    await client.get('/h');
    const h = calls[0]?.headers;
    expect(h?.Authorization).toBe('tok');
    expect(h?.userId).toBe('13800000000');
    expect(h?.mobile).toBe('13800000000');
    expect(h?.jwt).toBe('j');
    expect(h?.['X-Variant']).toBe('qs');
  });

  it('sends a bearer token and mobile only for variant cc', async () => {
    const { client, calls, hooks } = setup(ok(null), { ...auth, mobile: '13900000000' });
    hooks.getVariant = () => 'cc';
    await client.get('/h');
    const h = calls[0]?.headers;
    expect(h?.Authorization).toBe('Bearer tok');
    expect(h?.mobile).toBe('13900000000');
    expect(h?.userId).toBeUndefined();
    expect(h?.['X-Variant']).toBe('cc');
  });

  it('sends no auth headers when signed out', async () => {
    const { client, calls } = setup(ok(null));
    await client.get('/h');
    expect(calls[0]?.headers.Authorization).toBeUndefined();
    expect(calls[0]?.headers.userId).toBeUndefined();
  });
});

describe('stream', () => {
  function streamSetup(answer: () => Response, auth: AuthSnapshot = { token: 'tok', userId: 'u1', mobile: 'm1', jwt: null }) {
    const calls: { input: string; init: RequestInit }[] = [];
    const hooks: ApiHooks = { getAuth: () => auth, getVariant: () => 'qs', notifyError: jest.fn(), onSessionExpired: jest.fn() };
    const client = createApiClient(hooks, undefined, async (input, init) => {
      calls.push({ input, init });
      return answer();
    });
    return { client, calls, hooks };
  }

  it('sends the auth headers and Last-Event-ID, never the token in the URL', async () => {
    const { client, calls } = streamSetup(() => new Response('data: x\n\n', { headers: { 'content-type': 'text/event-stream' } }));
    const body = await client.stream('/videotask/events', { params: { taskId: 7 }, lastEventId: '12' });
    expect(body).toBeInstanceOf(ReadableStream);
    expect(calls[0]?.input).toBe('/diyvrbt/videotask/events?taskId=7');
    expect(calls[0]?.init.headers).toMatchObject({ Authorization: 'tok', userId: 'u1', mobile: 'm1', 'Last-Event-ID': '12', Accept: 'text/event-stream' });
  });

  it('turns an envelope answer into the usual handling (4000 expires the session)', async () => {
    jest.useFakeTimers();
    try {
      const { client, hooks } = streamSetup(() => Response.json({ code: 4000, data: null, desc: 'expired' }));
      await expect(client.stream('/videotask/events', { silent: true })).rejects.toMatchObject({ kind: 'auth' });
      jest.advanceTimersByTime(3000);
      expect(hooks.onSessionExpired).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects with an http error on a failed status and a business error on a 3000 envelope', async () => {
    const { client } = streamSetup(() => new Response('gone', { status: 404, statusText: 'Not Found' }));
    await expect(client.stream('/videotask/events', { silent: true })).rejects.toMatchObject({ kind: 'http', status: 404 });
    const other = streamSetup(() => Response.json({ code: 3000, data: null, desc: 'task 9 does not exist' }));
    await expect(other.client.stream('/videotask/events', { silent: true })).rejects.toMatchObject({ kind: 'business', desc: 'task 9 does not exist' });
    expect(other.hooks.notifyError).not.toHaveBeenCalled();
  });
});

describe('quietExpiry', () => {
  it('rejects a 4000 without the toast or the redirect', async () => {
    jest.useFakeTimers();
    try {
      const { client, hooks } = setup({ data: { code: 4000, data: null, desc: 'revoked' } });
      await expect(client.post('/user/logout', undefined, { silent: true, quietExpiry: true })).rejects.toMatchObject({ kind: 'auth' });
      jest.advanceTimersByTime(5000);
      expect(hooks.notifyError).not.toHaveBeenCalled();
      expect(hooks.onSessionExpired).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('upload progress', () => {
  it('reports the share of the body sent as a whole percentage', async () => {
    const seen: number[] = [];
    const { client } = setup((config) => {
      config.onUploadProgress?.({ loaded: 25, total: 200, bytes: 25, lengthComputable: true });
      config.onUploadProgress?.({ loaded: 200, total: 200, bytes: 175, lengthComputable: true });
      return ok('UPLOADED - m-1');
    });
    const form = new FormData();
    form.append('uploadFile', new Blob(['abc']), 'a.png');
    await expect(client.post('/upload/material', form, { onUploadProgress: (p) => seen.push(p) })).resolves.toBe('UPLOADED - m-1');
    expect(seen).toEqual([13, 100]);
  });
});
