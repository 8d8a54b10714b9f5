// End-to-end checks in Debian's Chromium via playwright-core.
// BASE_URL (default http://localhost:8080) is the running app; E2E_STATIC=1 serves dist/ with
// fixed API answers instead. Screenshots go to E2E_OUT (default frontend/e2e/out/).
// E2E_OUTBOX is the dev mail outbox the sign-in journey reads its code from (static mode makes its own).
// E2E_ONLY=name,… runs only those checks.
// Prints "N passed, N failed" last and exits non-zero on any failure.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { chromium } from 'playwright-core';
import { startStaticServer } from './static-server.mjs';
import { motionCheck } from './motion.mjs';
import { previewEqualsExport } from './preview.mjs';
import { editorJourney } from './editor-journey.mjs';
import { editorModes } from './editor-modes.mjs';
import { templateJourney } from './template-journey.mjs';
import { timelineCheck } from './timeline.mjs';
import { audioCheck } from './audio.mjs';
import { autosaveCheck } from './autosave.mjs';
import { editorSmoke } from './editor-smoke.mjs';
import { subtitlesCheck } from './subtitles.mjs';
import { newcomerJourney } from './newcomer-journey.mjs';
import { ringtoneJourney } from './ringtone-journey.mjs';
import { ringLoopCheck } from './ring-loop.mjs';
import { ringFixCheck } from './ring-fix.mjs';
import { toolboxJourney } from './toolbox-journey.mjs';
import { toolboxErase } from './toolbox-erase.mjs';
import { toolboxPpt } from './toolbox-ppt.mjs';
import { toolboxMore } from './toolbox-more.mjs';
import { editorReverse } from './editor-reverse.mjs';
import { editorCrop } from './editor-crop.mjs';
import { toolboxScenes } from './toolbox-scenes.mjs';
import { toolboxFrames } from './toolbox-frames.mjs';
import { oneClickJourney } from './oneclick-journey.mjs';
import { aiJourney } from './ai-journey.mjs';
import { aiMedia } from './ai-media.mjs';
import { aiDubbing } from './ai-dubbing.mjs';
import { aiAsr } from './ai-asr.mjs';
import { aiAudit } from './ai-audit.mjs';
import { maintainJourney } from './maintain-journey.mjs';
import { manageJourney } from './manage-journey.mjs';
import { providerJourney } from './provider-journey.mjs';
import { collectionsJourney } from './collections-journey.mjs';
import { maintainMore } from './maintain-more.mjs';
import { maintainOffer } from './maintain-offer.mjs';
import { contestJourney } from './contest-journey.mjs';
import { enterpriseJourney } from './enterprise-journey.mjs';
import { marketJourney } from './market-journey.mjs';
import { startJourney } from './start-journey.mjs';
import { uploadResume } from './upload-resume.mjs';
import { sharedScreens } from './shared-screens.mjs';
import { qsPortal } from './qs-portal.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(process.env.E2E_OUT ?? path.join(here, 'out'));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TIMEOUT = 10_000;
const LOGIN_EXPIRED = '登录过期,请重新登录！';

mkdirSync(outDir, { recursive: true });

let staticServer = null;
let baseUrl = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
let outbox = process.env.E2E_OUTBOX ?? null;
let staticVideo = false;
if (process.env.E2E_STATIC === '1') {
  const dist = path.join(here, '..', 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.error('E2E_STATIC=1 needs a build: run `npm run build` first');
    process.exit(2);
  }
  outbox = path.join(mkdtempSync(path.join(tmpdir(), 'rf-e2e-')), 'mail-outbox.log');
  const started = await startStaticServer(dist, { outbox });
  staticServer = started.server;
  staticVideo = started.hasVideo;
  baseUrl = started.url;
}
if (!existsSync(executablePath)) {
  console.error(`chromium not found at ${executablePath}`);
  process.exit(2);
}

console.log(`e2e against ${baseUrl}${staticServer ? ' (static mode)' : ''}; screenshots in ${outDir}`);

const browser = await chromium.launch({
  executablePath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
context.setDefaultTimeout(TIMEOUT);

const pageErrors = [];
let passed = 0;
let failed = 0;

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Opens `hash` in the shared context, or in a new one (`fresh`: no storage, as a first visit). */
async function openPage(hash, { fresh = false } = {}) {
  const owner = fresh ? await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' }) : context;
  owner.setDefaultTimeout(TIMEOUT);
  const page = await owner.newPage();
  if (fresh) page.on('close', () => owner.close().catch(() => {}));
  page.on('pageerror', (err) => pageErrors.push(`${hash}: ${err.message}`));
  await page.goto(`${baseUrl}/${hash}`, { waitUntil: 'domcontentloaded' });
  return page;
}

/** E2E_ONLY=a,b runs only the named checks (a quick run of one journey while working on it). */
const only = process.env.E2E_ONLY ? new Set(process.env.E2E_ONLY.split(',')) : null;

async function check(name, fn) {
  if (only && !only.has(name)) return;
  const started = Date.now();
  let page = null;
  try {
    await fn(async (hash, options) => {
      page = await openPage(hash, options);
      return page;
    });
    passed += 1;
    console.log(`PASS ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    // Playwright's call log (what it waited for, and what it found) follows the first line.
    const said = err instanceof Error ? stripVTControlCharacters(err.message).split('\n').slice(0, 8).join('\n') : err;
    console.log(`FAIL ${name}: ${said}`);
    if (page) await page.screenshot({ path: path.join(outDir, `FAILED-${name}.png`), fullPage: true }).catch(() => {});
  } finally {
    if (page) await page.close().catch(() => {});
  }
}

const shot = (page, name) => page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });

await check('home', async (open) => {
  const page = await open('');
  await page.getByRole('heading', { name: 'Reelforge', level: 1 }).waitFor();
  assert((await page.title()) === 'Reelforge', `document title is "${await page.title()}"`);
  for (const area of ['editor', 'templates', 'workbench', 'tools', 'ai']) {
    await page.getByTestId(`area-${area}`).waitFor();
  }
  const health = page.getByTestId('health');
  await page.waitForFunction(
    () => /v\d+\.\d+/.test(document.querySelector('[data-testid="health"]')?.textContent ?? ''),
    undefined,
    { timeout: TIMEOUT },
  ).catch(async () => {
    throw new Error(`health indicator shows "${await health.textContent()}", expected a server version`);
  });
  await shot(page, '01-home');
});

await check('template-select', async (open) => {
  const page = await open('#/template-select');
  const answer = await page.evaluate(() => fetch('/diyvrbt/category/taskvideo').then((r) => r.json()));
  assert(answer && answer.code === 2000, `GET /diyvrbt/category/taskvideo answered ${JSON.stringify(answer).slice(0, 200)}`);
  const list = answer.data?.dataList ?? [];
  // Templates belong to a tenant: a visitor is asked to sign in before the grid loads.
  await page.getByTestId('template-signin').waitFor();
  if (list.length === 0) {
    await page.getByTestId('category-empty').waitFor();
  } else {
    await page.getByTestId('category-picker').waitFor();
    const names = await page.getByTestId('category-first').allTextContents();
    const expected = list.map((c) => c.categoryName);
    assert(JSON.stringify(names) === JSON.stringify(expected), `first level ${JSON.stringify(names)} != server ${JSON.stringify(expected)}`);
    const last = list[list.length - 1];
    await page.getByTestId('category-first').filter({ hasText: last.categoryName }).click();
    const second = await page.getByTestId('category-second').allTextContents();
    const wanted = ['全部', ...(last.children ?? []).map((c) => c.categoryName)];
    assert(JSON.stringify(second) === JSON.stringify(wanted), `second level ${JSON.stringify(second)} != ${JSON.stringify(wanted)}`);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    const checkedAll = page.locator('[data-testid="category-second"].ant-tag-checkable-checked');
    assert((await checkedAll.textContent()) === '全部', 'choosing a first level did not select its "all" entry');
  }
  await shot(page, '02-template-select');
});

await check('tools-need-sign-in', async (open) => {
  const page = await open('#/tools');
  // The toolbox's pages read the tools the caller's tenant offers: a visitor is asked to sign in.
  await page.locator('.ant-message').getByText(LOGIN_EXPIRED).waitFor();
  assert(new URL(page.url()).hash.startsWith('#/tools/audio-to-video'), `/tools opened ${page.url()}`);
  await shot(page, '03-tools-sign-in');
});

const atRootWithLogin = (u) => new URL(u).hash.startsWith('#/?login=1');

await check('login-guard', async (open) => {
  const page = await open('#/my-works');
  await page.locator('.ant-message').getByText(LOGIN_EXPIRED).waitFor();
  await page.waitForTimeout(500);
  await shot(page, '04-login-expired');
  await page.waitForURL(atRootWithLogin, { timeout: 6_000 });
  await page.getByRole('heading', { name: 'Reelforge', level: 1 }).waitFor();
  await page.getByTestId('login-modal').waitFor();
  await page.waitForTimeout(400);
  await shot(page, '05-after-redirect-login-modal');
});

await check('role-guard', async (open) => {
  const page = await open('#/manage/manage-template');
  await page.locator('.ant-message').getByText(LOGIN_EXPIRED).waitFor();
  await page.waitForURL(atRootWithLogin, { timeout: 6_000 });
});

await check('not-found', async (open) => {
  const page = await open('#/no-such-page');
  await page.getByTestId('not-found').waitFor();
  await shot(page, '06-not-found');
});

await check('language-switch', async (open) => {
  const page = await open('#/template-select');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Templates', level: 3 }).waitFor();
  await page.locator('.ant-segmented-item-selected').getByText('EN', { exact: true }).waitFor();
  await page.waitForTimeout(400);
  await shot(page, '07-english');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByRole('heading', { name: '模板选择', level: 3 }).waitFor();
});

/** Returns the newest code the outbox holds for `mail` (dev line: time, tenant, mail, text ending in the code). */
async function codeFromOutbox(mail) {
  assert(outbox, 'E2E_OUTBOX is not set: the sign-in journey needs the dev mail outbox');
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    const lines = existsSync(outbox) ? readFileSync(outbox, 'utf8').split('\n') : [];
    const mine = lines.map((l) => l.split('\t')).filter((cols) => cols[2] === mail);
    const code = /(\d{6})\s*$/.exec(mine.at(-1)?.[3] ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${mail} in ${outbox}`);
}

/** Signs in through the login page with a code read from the outbox (a new address unless `mail` is given); returns the mail used. */
async function signIn(page, lang, mail = `e2e-${lang}-${Date.now()}@example.com`) {
  await page.getByTestId('login-page').waitFor();
  await page.getByTestId('login-mail').fill(mail);
  await page.getByTestId('send-code').click();
  await page.getByTestId('code-sent').waitFor();
  const code = await codeFromOutbox(mail);
  await page.getByTestId('login-code').fill(code);
  await page.waitForTimeout(300);
  await shot(page, `${lang}-10-login-filled`);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => new URL(u).hash === '#/', { timeout: TIMEOUT });
  // The router shows the next page in a transition: until it has, the form (its code sent, its
  // resend button counting down) is still the one on screen, and a step back to #/login keeps it.
  await page.getByTestId('login-page').waitFor({ state: 'detached' });
  await page.getByTestId('user-role').waitFor();
  return mail;
}

/** The signed-in journey in one language: user menu, my tasks (run, progress, preview), users page, logout, guard. */
async function journey(open, lang) {
  const page = await open('#/login');
  if (lang === 'en') {
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 3 }).waitFor();
  }
  await page.waitForTimeout(300);
  await shot(page, `${lang}-09-login-page`);
  await signIn(page, lang);
  await page.getByTestId('user-status').click();
  await page.getByTestId('menu-logout').waitFor();
  await page.waitForTimeout(300);
  await shot(page, `${lang}-11-user-menu`);
  const admin = (await page.getByTestId('menu-users').count()) > 0;
  await page.keyboard.press('Escape');

  await page.evaluate(() => (window.location.hash = '#/workbench/my-task'));
  await page.getByTestId('my-task').waitFor();
  await page.locator('[data-testid="my-task"] .ant-table, [data-testid="empty-state"]').first().waitFor();
  await page.waitForTimeout(800);
  await shot(page, `${lang}-12-my-task`);
  if (staticServer) {
    await page.getByTestId('run-102').click();
    await page.locator('.ant-message').getByText(lang === 'en' ? 'running in the background' : '任务已在后台运行').waitFor();
    await page.getByTestId('task-stage').first().waitFor();
    await page.waitForTimeout(1200);
    await shot(page, `${lang}-13-task-progress`);
    await page.getByTestId('preview-102').waitFor({ timeout: 15_000 });
    await page.getByTestId('preview-101').click();
    await page.getByTestId('task-video').waitFor();
    if (staticVideo) {
      await page.waitForFunction(() => (document.querySelector('[data-testid="task-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: TIMEOUT });
    }
    await page.waitForTimeout(500);
    await shot(page, `${lang}-14-preview`);
    await page.keyboard.press('Escape');
  }
  if (admin) {
    await page.evaluate(() => (window.location.hash = '#/eb-maintain/users'));
    await page.getByTestId('users-page').locator('.ant-table-row').first().waitFor();
    await page.waitForTimeout(400);
    await shot(page, `${lang}-15-users`);
  }

  await page.getByTestId('user-status').click();
  await page.getByTestId('menu-logout').dispatchEvent('click'); // not by position: the menu may still be sliding open
  await page.waitForURL((u) => new URL(u).hash === '#/', { timeout: TIMEOUT });
  await page.getByTestId('user-status').getByText(lang === 'en' ? 'Sign in' : '登录').waitFor();
  await page.evaluate(() => (window.location.hash = '#/workbench/my-task'));
  await page.getByTestId('login-expired').waitFor();
  await page.waitForTimeout(300);
  await shot(page, `${lang}-16-login-expired`);
  await page.waitForURL(atRootWithLogin, { timeout: 6_000 });
  await page.getByTestId('login-modal').waitFor();
  await page.waitForTimeout(400);
  await shot(page, `${lang}-17-root-login-modal`);
  if (lang === 'en') {
    await page.keyboard.press('Escape');
    await page.getByTestId('login-modal').waitFor({ state: 'hidden' });
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  }
}

await check('variant-headers', async () => {
  const titles = new Map();
  const logoAt = async (variant, url, shot) => {
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(`${variant}: ${err.message}`));
    try {
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      const logo = page.getByTestId('logo');
      await logo.waitFor();
      await page.screenshot({ path: path.join(outDir, shot), clip: { x: 0, y: 0, width: 1280, height: 72 } });
      return await logo.textContent();
    } finally {
      await page.close();
    }
  };
  for (const variant of ['qs', 'cc', 'migu', 'cu']) {
    titles.set(variant, await logoAt(variant, `${baseUrl}/?variant=${variant}#/`, `18-variant-${variant}.png`));
  }
  assert(new Set(titles.values()).size === 4, `variant headers are not distinct: ${[...titles.values()].join(' | ')}`);
  if (!staticServer) {
    // A carrier's own host, with nothing in the address: the gateway names the host's variant in the
    // entry page (*.localhost reaches loopback; with no hosts configured a variant key as the first
    // label selects it).
    const onHost = new URL(baseUrl);
    onHost.hostname = `migu.${onHost.hostname === '127.0.0.1' ? 'localhost' : onHost.hostname}`;
    const shown = await logoAt('migu', `${onHost.origin}/#/`, '18-variant-migu-host.png');
    assert(shown === titles.get('migu'), `migu's host shows "${shown}", not migu's header "${titles.get('migu')}"`);
  }
});

await check('sign-in-journey-zh', (open) => journey(open, 'zh'));
await check('sign-in-journey-en', (open) => journey(open, 'en'));

/** A two-second document the farm renders quickly (the shape the farm's own process test saves). */
const TINY_RULE = {
  version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 80,
  resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
  scenes: [{ type: 'canvas', timeLength: 2, bgColor: '#1e3a8a', effectTime: 1, layers: [
    { type: 'word', id: 't1', startTime: 0, endTime: 2, x: 100, y: 100, w: 400, h: 80, z: 101, content: '你好 e2e', fontSize: 48, color: '#ffffff' }] }],
  audio: [],
};

if (!staticServer) {
  await check('real-render', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'render');
    const saved = await page.evaluate(async (rule) => {
      const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
      const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
      const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), name: 'e2e 渲染' });
      return (await fetch('/diyvrbt/videotask/save', { method: 'POST', headers, body })).json();
    }, TINY_RULE);
    assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 200)}`);
    const taskId = saved.data;
    await page.evaluate(() => (window.location.hash = '#/workbench/my-task'));
    await page.getByTestId(`run-${taskId}`).click();
    await page.locator('.ant-message').getByText('任务已在后台运行').waitFor();
    await page.getByTestId('task-progress').first().waitFor();
    const mode = await page.locator('[data-mode]').first().getAttribute('data-mode');
    assert(mode !== 'polling', 'progress fell back to polling: the event stream did not work');
    await shot(page, 'real-13-task-progress');
    await page.getByTestId(`preview-${taskId}`).waitFor({ timeout: 180_000 });
    // The download link gets its href once the media ticket has come back, a moment after the button shows.
    const link = page.locator(`[data-testid="download-${taskId}"][href*="ticket="]`);
    await link.waitFor();
    const download = await link.getAttribute('href');
    assert(download && download.includes('ticket='), `download link ${download}`);
    const head = await page.evaluate(async (href) => {
      const r = await fetch(href, { headers: { Range: 'bytes=0-15' } });
      return { status: r.status, type: r.headers.get('content-type') };
    }, download);
    assert(head.status === 206 && (head.type ?? '').startsWith('video/'), `download answered ${JSON.stringify(head)}`);
    await page.getByTestId('task-cover').waitFor();
    await page.getByTestId(`preview-${taskId}`).click();
    await page.getByTestId('task-video').waitFor();
    await page.waitForTimeout(1500);
    await shot(page, 'real-14-preview');
    await page.keyboard.press('Escape');
    await page.getByTestId('user-status').click();
    await page.getByTestId('menu-logout').dispatchEvent('click'); // not by position: the menu may still be sliding open
    await page.getByTestId('user-status').getByText('登录').waitFor();
  });
}

if (!staticServer) {
  /** Makes a picture and a two-second video with GStreamer's test source; returns their paths. */
  const testMedia = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rf-e2e-media-'));
    const picture = path.join(dir, '测试图.png');
    const video = path.join(dir, 'test-clip.mp4');
    const gst = (args) => execFileSync('gst-launch-1.0', ['-q', ...args], { stdio: 'pipe' });
    gst(['videotestsrc', 'num-buffers=1', 'pattern=smpte', '!', 'video/x-raw,width=640,height=360', '!', 'pngenc', '!', 'filesink', `location=${picture}`]);
    gst(['videotestsrc', 'num-buffers=50', 'pattern=smpte75', '!', 'video/x-raw,width=640,height=360,framerate=25/1', '!', 'x264enc', '!', 'mp4mux', '!', 'filesink', `location=${video}`]);
    return { picture, video };
  };

  await check('my-material', async (open) => {
    const { picture, video } = testMedia();
    const page = await open('#/login');
    // A category to move into: the tenant's tree is a template manager's to make (granted here).
    const bin = process.env.E2E_BIN;
    assert(bin, 'the my-material journey needs E2E_BIN (the reelforge binary) to grant a template manager');
    const manager = `e2e-category-${Date.now()}@example.com`;
    execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
    await signIn(page, 'category', manager);
    const category = await page.evaluate(async () => {
      const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
      const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs', 'Content-Type': 'application/json' };
      const r = await fetch('/diyvrbt/category/taskvideo', { method: 'POST', headers, body: JSON.stringify({ categoryName: '素材归档', dimension: 'use' }) });
      return r.json();
    });
    assert(category.code === 2000, `POST /category/taskvideo answered ${JSON.stringify(category).slice(0, 300)}`);
    const categoryId = category.data.categoryId;
    // The manager's session ends with the page (the sign-in and logout journeys test the menu).
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${baseUrl}/#/login`, { waitUntil: 'domcontentloaded' });
    await page.reload({ waitUntil: 'domcontentloaded' });
    await signIn(page, 'material');
    await page.evaluate(() => (window.location.hash = '#/workbench/my-material'));
    await page.getByTestId('my-material').waitFor();
    await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles([picture, video]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="upload-item"][data-status="done"]').length === 2, undefined, { timeout: 60_000 });
    const idOf = (name) => page.locator('[data-testid="upload-item"]', { hasText: name }).getAttribute('data-material-id');
    // ids[0] the picture, ids[1] the clip.
    const ids = [await idOf(path.basename(picture)), await idOf(path.basename(video))];
    assert(ids.every(Boolean), `uploaded ids ${ids}`);
    await shot(page, 'material-20-uploaded');
    // Probing runs in the background; the cards follow their state until it is ready, with a cover.
    for (const id of ids) {
      const card = `[data-testid="material-${id}"]`;
      await page.locator(`${card} [data-testid="material-state"]:not([data-state="processing"])`).waitFor({ timeout: 240_000 });
      const state = await page.locator(`${card} [data-testid="material-state"]`).getAttribute('data-state');
      const reason = state === 'failed' ? await page.locator(`${card} [data-testid="material-fail-reason"]`).textContent().catch(() => null) : null;
      assert(state === 'ready', `material ${id} ended ${state}${reason ? `: ${reason}` : ''}`);
    }
    await page.reload({ waitUntil: 'domcontentloaded' });
    for (const id of ids) {
      const cover = page.locator(`[data-testid="material-${id}"] img[data-testid="material-cover"]`);
      await cover.waitFor();
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await cover.elementHandle(), { timeout: TIMEOUT });
    }
    const duration = await page.locator(`[data-testid="material-${ids[1]}"] [data-testid="material-duration"]`).textContent();
    assert(duration && /0?0:0?2/.test(duration), `the clip's duration reads ${duration}`);
    await page.waitForTimeout(300);
    await shot(page, 'material-21-probed');

    await page.getByTestId(`rename-${ids[0]}`).click();
    await page.getByTestId('rename-input').fill('改名后的图片');
    await page.getByTestId('rename-ok').click();
    await page.locator(`[data-testid="material-${ids[0]}"] [data-testid="material-name"]`).getByText('改名后的图片').waitFor();
    await shot(page, 'material-22-renamed');

    // Move the picture into the category: it is listed there afterwards.
    await page.getByTestId(`material-select-${ids[0]}`).click();
    await page.getByTestId('batch-move').click();
    await page.getByTestId('move-target').click();
    await page.locator('.ant-select-tree-node-content-wrapper', { hasText: '素材归档' }).click();
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-message').getByText(/移动|已移/).first().waitFor();
    await shot(page, 'material-22b-moved');
    await page.evaluate((id) => (window.location.hash = `#/workbench/my-material/${id}`), categoryId);
    // The page swaps the whole list when its category's answer comes: the clip goes, the picture stays.
    await page.getByTestId(`material-${ids[1]}`).waitFor({ state: 'detached' });
    await page.getByTestId(`material-${ids[0]}`).waitFor();
    await shot(page, 'material-22c-in-category');
    await page.evaluate(() => (window.location.hash = '#/workbench/my-material'));
    await page.getByTestId(`material-${ids[1]}`).waitFor();

    await page.getByTestId(`delete-${ids[1]}`).click();
    // The warm-tip confirm's OK button.
    await page.locator('.rf-warm-tip .ant-btn-primary').click();
    await page.getByTestId(`material-${ids[1]}`).waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    await shot(page, 'material-23-deleted');
    assert((await page.getByTestId(`material-${ids[0]}`).count()) === 1, 'the picture is still listed');
  });

  // Issue 15: the stage against the server's still, and the editor journey to a downloaded MP4.
  await check('preview-equals-export', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'preview');
    await previewEqualsExport({ page, baseUrl, outDir, assert });
  });
  await check('editor-journey', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'journey');
    await editorJourney({ page, baseUrl, outDir, assert });
  });
  // Issue 23: the newcomer's journey through the UI, from a new address to a downloaded MP4 whose frames are checked.
  await check('newcomer-journey', async (open) => {
    // A newcomer's browser: no session or language left by the checks before.
    const page = await open('', { fresh: true });
    await page.getByTestId('user-status').getByText('登录').click();
    await newcomerJourney({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 16: the timeline (bars dragged and trimmed, zoom), animations, transition and filter pickers, playback.
  await check('timeline', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'timeline');
    await timelineCheck({ page, baseUrl, outDir, assert });
  });
  // Issue 16: music from the library with a fade-in, a voice-over from a fake microphone, the MP4's sound checked.
  await check('audio', async () => {
    await audioCheck({ baseUrl, outDir, assert, signIn, executablePath });
  });
  // Issue 16: the stage in motion (mid-animation, mid-transition, a later scene) against the server's stills.
  await check('motion', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'motion');
    await motionCheck({ page, baseUrl, outDir, assert });
  });
  // Issue 16: autosave and recovery (a new document after a reload, a saved task after the page closed).
  await check('autosave', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'autosave');
    await autosaveCheck({ page, baseUrl, outDir, assert, context });
  });
  // Issue 16: subtitles from an SRT file.
  // Reliability F6: the editor at 1440×900 with its stage, timeline and panels drawn, not blank.
  await check('editor-smoke', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'smoke');
    await editorSmoke({ page, baseUrl, outDir, assert });
  });
  await check('subtitles', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'subtitles');
    await subtitlesCheck({ page, baseUrl, outDir, assert });
  });
  await check('editor-modes', async (open) => {
    const page = await open('#/login');
    await signIn(page, 'modes');
    await editorModes({ page, baseUrl, outDir, assert });
  });
  // Issue 14: a template with a text and a picture slot, filled by a fresh user, made, run and played.
  await check('template-journey', async (open) => {
    const page = await open('#/login');
    await templateJourney({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 26: a finished work set as the video ringtone of a number, through the built-in ring platform.
  await check('ringtone-journey', async (open) => {
    const page = await open('#/login');
    await ringtoneJourney({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 26: cut to the climax, make it loop, /channel-temring.
  await check('ring-loop', async (open) => {
    const page = await open('#/login');
    await ringLoopCheck({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 26: a work breaking the profile fixed in one click (a RING_FIX run on the farm).
  await check('ring-fix', async (open) => {
    const page = await open('#/login');
    await ringFixCheck({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 28: the AI catalogue and the keyword-extraction page.
  await check('ai-journey', async (open) => {
    const page = await open('#/login');
    await aiJourney({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 28: the editor's dubbing from text (espeak-ng on the farm) and speech synthesis's page.
  await check('ai-dubbing', async (open) => {
    const page = await open('#/login');
    await aiDubbing({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 28: noise reduction and cover generation run on the farm from their ability pages.
  await check('ai-media', async (open) => {
    const page = await open('#/login');
    await aiMedia({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 28: speech recognition's page and the editor's smart subtitles from a dubbing (pocketsphinx on the farm).
  await check('ai-asr', async (open) => {
    const page = await open('#/login');
    await aiAsr({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 28: video auditing's page: a clip with a listed word drawn on it flagged at its time (tesseract on the farm).
  await check('ai-audit', async (open) => {
    const page = await open('#/login');
    await aiAudit({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: three tools run from their pages on the farm. (It was opt-in while a read of the run that
  // raced the run's end left the outputs spinner for good; the page now reads the run until it shows the end.)
  await check('toolbox-journey', async (open) => {
    const page = await open('#/login');
    await toolboxJourney({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: one-click filming: two uploaded clips into a template's video slots, then the editor.
  await check('oneclick-journey', async (open) => {
    const page = await open('#/login');
    await oneClickJourney({ page, baseUrl, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 29: an administrator keeps the categories and the system library; a user finds the upload.
  await check('maintain-journey', async (open) => {
    const page = await open('#/login');
    await maintainJourney({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 29: a manager rejects one submitted sticker with a reason the owner reads, approves another into the editor's library, uploads music.
  await check('manage-journey', async (open) => {
    const page = await open('#/login');
    await manageJourney({ page, baseUrl, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issues 29 and 30: a user applies to become a service provider; a manager rejects with a reason, then approves.
  await check('provider-journey', async (open) => {
    const page = await open('#/login');
    await providerJourney({ page, baseUrl, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 29: a manager curates and publishes a topic of two templates; a user finds it on the home page and opens its templates.
  await check('collections-journey', async (open) => {
    const page = await open('#/login');
    await collectionsJourney({ page, baseUrl, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 29: an administrator requeues a failed render, drains the farm in maintenance mode, changes a setting.
  await check('maintain-more', async (open) => {
    const page = await open('#/login');
    await maintainMore({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 29: an administrator trims and orders the editor's art-word styles and animations; the editor offers them so.
  await check('maintain-offer', async (open) => {
    const page = await open('#/login');
    await maintainOffer({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 30: a manager opens a contest, two users enter rendered works, one likes the other's, the closed contest ranks them.
  await check('contest-journey', async (open) => {
    const page = await open('#/login');
    await contestJourney({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 30: an administrator makes an enterprise with two users, one shares a work, the other copies it at /yqx.
  await check('enterprise-journey', async (open) => {
    const page = await open('#/login');
    await enterpriseJourney({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 30: a provider publishes a service, a buyer requests it, the provider delivers a work the buyer then plays.
  await check('market-journey', async (open) => {
    const page = await open('#/login');
    await marketJourney({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 30: a newcomer starts from /new-task, /put-image and /from-jiancai through /loading into the editor.
  await check('start-journey', async (open) => {
    const page = await open('#/login');
    await startJourney({ page, outDir, assert, signIn, bin: process.env.E2E_BIN });
  });
  // Issue 30: /upload resumes an interrupted upload from its last stored part.
  await check('upload-resume', async (open) => {
    const page = await open('#/login');
    await uploadResume({ page, outDir, assert, signIn });
  });
  // Issue 29: the shared screens — the beginner tip once per page, the draggable popup, the warm-tip confirm.
  await check('shared-screens', async (open) => {
    const page = await open('#/login');
    await sharedScreens({ page, outDir, assert, signIn });
  });
  // Issue 30: the qs portal's pages in its own frame, and the home page's sections.
  await check('qs-portal', async (open) => {
    const page = await open('#/login');
    await qsPortal({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: replace-video-volume and audio-to-video (two inputs), change-screen and video-separation from their pages.
  await check('toolbox-more', async (open) => {
    const page = await open('#/login');
    await toolboxMore({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: ai-video-cut, video-separation by scene changes and vocal-separate from their pages.
  await check('toolbox-scenes', async (open) => {
    const page = await open('#/login');
    await toolboxScenes({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: the editor's reverse: a video layer reversed on the farm, the stage showing the reversed material, and back.
  await check('editor-reverse', async (open) => {
    const page = await open('#/login');
    await editorReverse({ page, outDir, assert, signIn });
  });
  // Issue 27, the editor's crops: a picture layer cut by the server, a video layer's crop run on the farm; each layer shows the new material.
  await check('editor-crop', async (open) => {
    const page = await open('#/login');
    await editorCrop({ page, outDir, assert, signIn });
  });

  // Issue 27: smart-watermark-remove from its page (a box dragged on the frame), remove-captions' band and detection.
  await check('toolbox-erase', async (open) => {
    const page = await open('#/login');
    await toolboxErase({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: ai-frame-cut from its page: one picture per scene (their colours measured), one used, then one a second.
  await check('toolbox-frames', async (open) => {
    const page = await open('#/login');
    await toolboxFrames({ page, baseUrl, outDir, assert, signIn });
  });
  // Issue 27: ppt from its page (a pptx uploaded, LibreOffice on the farm), the result played.
  await check('toolbox-ppt', async (open) => {
    const page = await open('#/login');
    await toolboxPpt({ page, baseUrl, outDir, assert, signIn });
  });
}

await check('no-page-errors', async () => {
  assert(pageErrors.length === 0, `page errors: ${pageErrors.join(' | ')}`);
});

await browser.close();
if (staticServer) staticServer.close();

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
