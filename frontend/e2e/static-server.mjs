// Test-mode server for the e2e run (E2E_STATIC=1): serves dist/ and answers the backend calls
// of CONTRACT.md from memory (codes mailed to an outbox file in the dev format, sessions, users,
// tasks with a simulated render and its event stream), so the e2e can run without the backend.
import { spawnSync } from 'node:child_process';
import { appendFileSync, createReadStream, existsSync, mkdtempSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export const FIXTURE_CATEGORIES = [
  {
    categoryId: 1,
    categoryName: '行业',
    dimension: 'industry',
    higherUpId: -1,
    push: false,
    children: [
      { categoryId: 11, categoryName: '餐饮美食', dimension: 'industry', higherUpId: 1, push: false, children: [] },
      { categoryId: 12, categoryName: '教育培训', dimension: 'industry', higherUpId: 1, push: true, children: [] },
    ],
  },
  {
    categoryId: 2,
    categoryName: '用途',
    dimension: 'use',
    higherUpId: -1,
    push: false,
    children: [{ categoryId: 21, categoryName: '节日祝福', dimension: 'use', higherUpId: 2, push: false, children: [] }],
  },
];

const SYSTEM_INFO = { name: 'reelforge', version: '0.1.0', mode: 'all' };
const ok = (data, desc = 'success') => ({ code: 2000, data, desc });
const failure = (desc, data = null) => ({ code: 3000, data, desc });
const EXPIRED = { code: 4000, data: null, desc: '登录过期,请重新登录！' };
const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const RESEND_SECONDS = 60;
const TICKET = 'static-ticket';
const COVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/frames/ref-15s-1s.png');

/** Stage timeline of a simulated render: [percent, stage, status]. */
const RENDER_STEPS = [
  [0, 'queued', 0],
  [5, 'fetching', 1],
  [20, 'rendering', 1],
  [45, 'rendering', 1],
  [70, 'rendering', 1],
  [88, 'encoding', 1],
  [96, 'uploading', 1],
  [100, 'done', 10],
];
const STEP_MS = 700;
const FRAMES = 360;

function fixtureTasks() {
  const done = (id, taskName) => ({
    id,
    taskName,
    status: 10,
    reason: '',
    videoUrl: `/diyvrbt/videotask/download?taskId=${id}`,
    coverUrl: `/diyvrbt/videotask/cover?taskId=${id}`,
  });
  const plain = (id, taskName, status, reason = '') => ({ id, taskName, status, reason, videoUrl: '', coverUrl: '' });
  return [
    done(101, '新品发布 15 秒横版'),
    plain(102, '节日祝福彩铃', -1),
    plain(103, '门店促销竖版', 9, '素材 5521 不存在'),
    plain(104, '教育培训宣传片', 11),
  ];
}

function fixtureUsers() {
  const levels = [0, 3, 4, 7, 9, 1, 2, 6, 8, 7, 7, 7];
  return levels.map((operatorLevel, i) => ({
    userId: 10001 + i,
    mail: i === 0 ? 'admin@reelforge.test' : `user${i}@example.com`,
    operatorLevel,
    role: roleOf(operatorLevel),
    disabled: i === 4,
    createTime: `2026-11-${String(10 + i).padStart(2, '0')} 09:30:00`,
  }));
}

function roleOf(level) {
  if (level === 4) return 'CREATE_TEMPLATE';
  if (level === 3) return 'TEMPLATE_MANAGER';
  return 'CREATE_VIDEO';
}

/** In-memory backend state for one server: codes, sessions, users and tasks. */
function createState(outbox) {
  return { outbox, codes: new Map(), sentAt: new Map(), tokens: new Set(), seq: 0, users: fixtureUsers(), tasks: fixtureTasks(), renders: new Map() };
}

function readBody(req) {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      if (type.includes('application/json')) {
        try {
          resolve(JSON.parse(raw || '{}'));
        } catch {
          resolve({});
        }
        return;
      }
      resolve(Object.fromEntries(new URLSearchParams(raw)));
    });
  });
}

function renderState(state, task) {
  const render = state.renders.get(task.id);
  const base = { taskId: task.id, videoRelativePath: '', reason: task.reason, framesTotal: FRAMES };
  if (!render) {
    const stage = { 10: 'done', 9: 'error', 11: 'cancelled' }[task.status] ?? 'queued';
    const percent = task.status === 10 ? 100 : 0;
    return { ...base, status: task.status, percent, stage, framesDone: Math.round((percent / 100) * FRAMES), etaSeconds: 0 };
  }
  const step = Math.min(RENDER_STEPS.length - 1, Math.floor((Date.now() - render.started) / STEP_MS));
  const [percent, stage, status] = RENDER_STEPS[step];
  if (status === 10 && task.status !== 10) {
    Object.assign(task, { status, videoUrl: `/diyvrbt/videotask/download?taskId=${task.id}`, coverUrl: `/diyvrbt/videotask/cover?taskId=${task.id}` });
  } else if (status !== 10) {
    task.status = status;
  }
  const left = ((RENDER_STEPS.length - 1 - step) * STEP_MS) / 1000;
  return { ...base, status, percent, stage, framesDone: Math.round((percent / 100) * FRAMES), etaSeconds: Math.ceil(left), seq: step + 1 };
}

function json(res, body) {
  res.writeHead(200, { 'content-type': TYPES['.json'] });
  res.end(JSON.stringify(body));
}

function streamEvents(state, task, req, res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.write(': keep-alive\n\n');
  let last = Number(req.headers['last-event-id'] ?? 0);
  const tick = () => {
    const s = renderState(state, task);
    const seq = s.seq ?? 1;
    if (seq > last) {
      last = seq;
      const event = { 10: 'done', 9: 'error', 11: 'cancelled' }[s.status] ?? 'progress';
      const { seq: _seq, ...data } = s;
      res.write(`id: ${seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (event !== 'progress') {
        clearInterval(timer);
        res.end();
      }
    }
  };
  const timer = setInterval(tick, 200);
  tick();
  req.on('close', () => clearInterval(timer));
}

/** Answers one API call; returns false when the path is not an API path. */
async function answer(state, req, res, url) {
  const p = url.pathname.replace(/^\/diyvrbt/, '');
  const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
  const signedIn = state.tokens.has(token);
  if (p === '/system/info') return json(res, ok(SYSTEM_INFO));
  if (p === '/category/taskvideo') return json(res, ok({ dataList: FIXTURE_CATEGORIES }));
  if (p === '/user/sendCode') {
    const { mail = '' } = await readBody(req);
    if (!MAIL.test(mail.trim())) return json(res, failure('mail: not a valid mail address'));
    const wait = RESEND_SECONDS - Math.floor((Date.now() - (state.sentAt.get(mail) ?? 0)) / 1000);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return json(res, failure(`请 ${wait} 秒后再试`, { retryAfterSeconds: wait }));
    }
    const code = String(100000 + Math.floor(Math.random() * 900000));
    state.codes.set(mail, code);
    state.sentAt.set(mail, Date.now());
    if (state.outbox) appendFileSync(state.outbox, `${new Date().toISOString()}\tqs\t${mail}\tyour Reelforge verification code is ${code}\n`);
    return json(res, ok({ resendAfterSeconds: RESEND_SECONDS }));
  }
  if (p === '/user/login') {
    const { mail = '', code = '' } = await readBody(req);
    if (!code || state.codes.get(mail) !== code) return json(res, failure('验证码错误或已过期'));
    state.codes.delete(mail);
    state.seq += 1;
    const tokenOut = `static-token-${state.seq}`;
    state.tokens.add(tokenOut);
    return json(res, ok({ token: tokenOut, userId: mail, mobile: '', role: 'CREATE_VIDEO', operatorLevel: 0, tenant: 'qs' }));
  }
  if (p === '/user/handoff') return json(res, failure('hand-off: invalid signature'));
  if (!signedIn && !(p === '/videotask/cover' || p === '/videotask/download')) return json(res, EXPIRED);
  if (p === '/user/logout') {
    state.tokens.delete(token);
    return json(res, ok(null));
  }
  if (p === '/manage/users' && req.method === 'GET') {
    const keyword = url.searchParams.get('keyword') ?? '';
    const pageNum = Number(url.searchParams.get('pageNum') ?? 1);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 10);
    const all = state.users.filter((u) => u.mail.includes(keyword) || String(u.userId).includes(keyword));
    return json(res, ok({ total: all.length, list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize) }));
  }
  if (p === '/manage/users/level' || p === '/manage/users/disable') {
    const body = await readBody(req);
    const user = state.users.find((u) => String(u.userId) === String(body.userId));
    if (!user) return json(res, failure(`user ${body.userId} does not exist`));
    if (p.endsWith('level')) Object.assign(user, { operatorLevel: Number(body.operatorLevel), role: roleOf(Number(body.operatorLevel)) });
    else user.disabled = String(body.disabled) === 'true';
    return json(res, ok(null));
  }
  if (p === '/videotask/mine') {
    for (const t of state.tasks) renderState(state, t);
    return json(res, ok({ total: state.tasks.length, list: state.tasks }));
  }
  const taskId = Number(url.searchParams.get('taskId') ?? NaN);
  const body = req.method === 'POST' ? await readBody(req) : {};
  const byId = (id) => state.tasks.find((t) => t.id === Number(id));
  if (p === '/videotask/runtask') {
    const task = byId(body.taskId);
    if (!task) return json(res, failure(`task ${body.taskId} does not exist`));
    if (task.status !== 0 && task.status !== 1) {
      state.renders.set(task.id, { started: Date.now() });
      Object.assign(task, { status: 0, reason: '', videoUrl: '', coverUrl: '' });
    }
    return json(res, ok({ jobId: `job-${task.id}`, status: task.status }, '任务已在后台运行，预计3-5分钟完成'));
  }
  if (p === '/v2/videotask/cancelTask') {
    const ids = String(body.taskIds ?? '').split(',').map(Number);
    for (const id of ids) {
      const task = byId(id);
      if (task) {
        state.renders.delete(id);
        task.status = 11;
      }
    }
    return json(res, ok({ cancelled: ids }));
  }
  if (p === '/videotask/mediaTicket') return byId(body.taskId) ? json(res, ok({ ticket: TICKET, expiresInSeconds: 600 })) : json(res, failure(`task ${body.taskId} does not exist`));
  const task = byId(taskId);
  if (p === '/videotask/state') return task ? json(res, ok(renderState(state, task))) : json(res, failure(`task ${taskId} does not exist`));
  if (p === '/videotask/events') return task ? streamEvents(state, task, req, res) : json(res, failure(`task ${taskId} does not exist`));
  if (p === '/videotask/cover' || p === '/videotask/download') {
    if (url.searchParams.get('ticket') !== TICKET || !task || task.status !== 10) {
      res.writeHead(403).end();
      return undefined;
    }
    const file = p.endsWith('cover') ? COVER : state.video;
    if (!file || !existsSync(file)) {
      res.writeHead(404).end();
      return undefined;
    }
    res.writeHead(200, { 'content-type': p.endsWith('cover') ? 'image/png' : 'video/webm' });
    createReadStream(file).pipe(res);
    return undefined;
  }
  return json(res, failure(`no fixture for ${p}`));
}

/** Makes a 2 s preview video from the cover frame with ffmpeg when it is installed; null otherwise. */
function makePreviewVideo() {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'rf-static-')), 'preview.webm');
  const r = spawnSync('ffmpeg', ['-loglevel', 'error', '-loop', '1', '-i', COVER, '-t', '2', '-vf', 'scale=640:-2,format=yuv420p', '-c:v', 'libvpx', '-b:v', '500k', out]);
  return r.status === 0 && existsSync(out) ? out : null;
}

/**
 * Starts the server on a free loopback port; resolves to { server, url, hasVideo }. Verification codes
 * are appended to `options.outbox` when given.
 */
export function startStaticServer(distDir, options = {}) {
  const root = path.resolve(distDir);
  const state = createState(options.outbox ?? null);
  state.video = makePreviewVideo();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { pathname } = url;
    if (pathname.startsWith('/diyvrbt/')) {
      answer(state, req, res, url).catch((err) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    let file = path.join(root, decodeURIComponent(pathname));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) file = path.join(root, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ server, url: `http://127.0.0.1:${port}`, hasVideo: state.video !== null });
    });
  });
}
