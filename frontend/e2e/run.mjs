// End-to-end checks in Debian's Chromium via playwright-core.
// BASE_URL (default http://localhost:8080) is the running app; E2E_STATIC=1 serves dist/ with
// fixed API answers instead. Screenshots go to E2E_OUT (default frontend/e2e/out/).
// Prints "N passed, N failed" last and exits non-zero on any failure.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startStaticServer } from './static-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(process.env.E2E_OUT ?? path.join(here, 'out'));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TIMEOUT = 10_000;
const LOGIN_EXPIRED = '登录过期,请重新登录！';

mkdirSync(outDir, { recursive: true });

let staticServer = null;
let baseUrl = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
if (process.env.E2E_STATIC === '1') {
  const dist = path.join(here, '..', 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.error('E2E_STATIC=1 needs a build: run `npm run build` first');
    process.exit(2);
  }
  const started = await startStaticServer(dist);
  staticServer = started.server;
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

async function openPage(hash) {
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(`${hash}: ${err.message}`));
  await page.goto(`${baseUrl}/${hash}`, { waitUntil: 'domcontentloaded' });
  return page;
}

async function check(name, fn) {
  const started = Date.now();
  let page = null;
  try {
    await fn(async (hash) => {
      page = await openPage(hash);
      return page;
    });
    passed += 1;
    console.log(`PASS ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
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
  await page.getByTestId('template-grid-soon').waitFor();
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

await check('tools-coming-soon', async (open) => {
  const page = await open('#/tools');
  await page.waitForURL(/#\/tools\/audio-to-video$/);
  const soon = page.getByTestId('coming-soon');
  await soon.waitFor();
  const text = await soon.textContent();
  assert(text.includes('音频转视频') && text.includes('即将上线'), `coming-soon text: ${text}`);
  await shot(page, '03-tools-audio-to-video');
});

await check('login-guard', async (open) => {
  const page = await open('#/my-works');
  await page.locator('.ant-message').getByText(LOGIN_EXPIRED).waitFor();
  await page.waitForTimeout(500);
  await shot(page, '04-login-expired');
  await page.waitForURL((u) => new URL(u).hash === '#/' || new URL(u).hash === '', { timeout: 6_000 });
  await page.getByRole('heading', { name: 'Reelforge', level: 1 }).waitFor();
  await shot(page, '05-after-redirect');
});

await check('role-guard', async (open) => {
  const page = await open('#/manage/manage-template');
  await page.locator('.ant-message').getByText(LOGIN_EXPIRED).waitFor();
  await page.waitForURL((u) => new URL(u).hash === '#/', { timeout: 6_000 });
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

await check('no-page-errors', async () => {
  assert(pageErrors.length === 0, `page errors: ${pageErrors.join(' | ')}`);
});

await browser.close();
if (staticServer) staticServer.close();

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
