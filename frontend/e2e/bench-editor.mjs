// `make bench-editor` (issue 15): the editor's three figures in headless Chromium against a
// running `reelforge all` (BASE_URL), printed as
//   drag fps: N              frames drawn per second (requestAnimationFrame callbacks) while a
//                            layer is dragged with the mouse on a stage of 50 layers
//   diy first load KB gz: N  the JavaScript /diy loads on a first visit (fresh cache), each
//                            response body gzipped here (level 6), summed
//   add layer ms: N          click on "add shape → rect" to the new layer element painted (median
//                            of 7; the time of the first animation frame after it is in the DOM)
// Goals: ≥ 55 fps, ≤ 1024 KB, < 50 ms. E2E_OUTBOX is the dev mail outbox the sign-in reads.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { saveTask } from './preview.mjs';

const baseUrl = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const outbox = process.env.E2E_OUTBOX;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
context.setDefaultTimeout(30_000);

async function codeFor(mail) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const lines = outbox && existsSync(outbox) ? readFileSync(outbox, 'utf8').split('\n') : [];
    const code = /(\d{6})\s*$/.exec(lines.map((l) => l.split('\t')).filter((c) => c[2] === mail).at(-1)?.[3] ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${mail} in ${outbox}`);
}

// Sign in (the journey's way: the login page and the dev outbox).
const fresh = await context.newPage();
await fresh.goto(`${baseUrl}/#/login`);
const mail = `bench-${Date.now()}@example.com`;
await fresh.getByTestId('login-mail').fill(mail);
await fresh.getByTestId('send-code').click();
await fresh.getByTestId('login-code').fill(await codeFor(mail));
await fresh.getByTestId('login-submit').click();
await fresh.getByTestId('user-role').waitFor();
const page = fresh;

// 1. First load of /diy, signed in, with a fresh cache (a new browser context): every script response until the stage is shown.
const cold = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN', storageState: await context.storageState() });
const first = await cold.newPage();
const scripts = new Map();
const reads = [];
first.on('response', (r) => {
  const type = r.headers()['content-type'] ?? '';
  if (!type.includes('javascript') && !r.url().split('?')[0].endsWith('.js')) return;
  reads.push(r.body().then((body) => scripts.set(r.url(), gzipSync(body).length), () => undefined));
});
await first.goto(`${baseUrl}/#/diy`, { waitUntil: 'networkidle' });
await first.locator('#editor').waitFor();
await Promise.all(reads);
const firstLoadKb = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;

await cold.close();

// 2. Dragging a layer on a stage of 50 layers.
const layers = [];
for (let i = 0; i < 50; i += 1) {
  const common = { id: `l${i}`, z: 101 + i, x: 10 + (i % 10) * 62, y: 10 + Math.floor(i / 10) * 68, w: 56, h: 56, startTime: 0, endTime: 3, rotate: 0 };
  layers.push(i % 2 === 0
    ? { type: 'shape', ...common, shape: i % 4 === 0 ? 'rect' : 'circle', fill: ['#ef4444', '#22c55e', '#3b82f6', '#eab308'][i % 4], stroke: '', strokeWidth: 0, borderRadius: 0 }
    : { type: 'word', ...common, content: `层 ${i}`, fontSize: 18, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 });
}
const rule = {
  version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
  resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
  scenes: [{ type: 'canvas', timeLength: 3, bgColor: '#1f2937', effectTime: 1, isActive: true, layers }],
  audio: [],
};
const taskId = await saveTask(page, rule, 'bench 50 layers', 41);
await page.goto(`${baseUrl}/#/diy?taskId=${taskId}`);
await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer').length === 50);
const target = await page.locator('#editor .rf-layer').nth(22).boundingBox();
const start = { x: target.x + target.width / 2, y: target.y + target.height / 2 };
await page.mouse.click(start.x, start.y);
await page.evaluate(() => {
  window.__frames = 0;
  window.__counting = true;
  const tick = () => {
    if (!window.__counting) return;
    window.__frames += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__t0 = performance.now();
});
await page.mouse.down();
for (let i = 1; i <= 120; i += 1) {
  await page.mouse.move(start.x + 150 * Math.sin(i / 12), start.y + 60 * Math.sin(i / 7));
}
await page.mouse.up();
const drag = await page.evaluate(() => {
  window.__counting = false;
  return { frames: window.__frames, ms: performance.now() - window.__t0 };
});
const fps = drag.frames / (drag.ms / 1000);
const moved = await page.locator('#editor .rf-layer').nth(22).boundingBox();

// 3. Adding a layer: the click on the menu item to the new element's first painted frame.
await page.goto(`${baseUrl}/#/diy`);
await page.locator('#editor').waitFor();
const times = [];
for (let i = 0; i < 7; i += 1) {
  await page.getByTestId('add-shape').hover();
  const item = page.getByRole('menuitem', { name: '矩形' });
  await item.waitFor();
  await page.evaluate(() => {
    const before = document.querySelectorAll('#editor .rf-layer').length;
    window.__added = new Promise((resolve) => {
      document.addEventListener('click', () => {
        const t0 = performance.now();
        const ob = new MutationObserver(() => {
          if (document.querySelectorAll('#editor .rf-layer').length > before) {
            ob.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - t0));
          }
        });
        ob.observe(document.getElementById('editor'), { childList: true, subtree: true });
      }, { capture: true, once: true });
    });
  });
  await item.click();
  times.push(await page.evaluate(() => window.__added));
  await page.mouse.move(5, 5);
  await page.getByRole('menu').waitFor({ state: 'hidden' }).catch(() => {});
}
times.sort((a, b) => a - b);

console.log(`drag fps: ${fps.toFixed(1)} (${drag.frames} frames in ${Math.round(drag.ms)} ms; layer moved ${Math.round(moved.x - target.x)}, ${Math.round(moved.y - target.y)} px)`);
console.log(`diy first load KB gz: ${firstLoadKb.toFixed(1)} (${scripts.size} scripts)`);
console.log(`add layer ms: ${times[3].toFixed(1)} (min ${times[0].toFixed(1)}, max ${times[6].toFixed(1)})`);
await browser.close();
