// `make bench-editor` (issue 15): the editor's three figures in headless Chromium against a
// running `reelforge all` (BASE_URL), printed as
//   drag fps: N              frames drawn per second (requestAnimationFrame callbacks) while a
//                            layer is dragged with the mouse on a stage of 50 layers
//   diy first load KB gz: N  the JavaScript /diy loads on a first visit (fresh cache), each
//                            response body gzipped here (level 6), summed
//   add layer ms: N          click on "add shape → rect" to the new layer element painted (median
//                            of 7; the time of the first animation frame after it is in the DOM)
//   playback fps: N          (issue 16) frames the page painted per second (requestAnimationFrame
//                            callbacks) while a 60 s document of 20 layers, 3 of them videos, plays
//                            from the start for PLAY_SECONDS (default 10); with the rate the same
//                            page gets paused, and the main thread's busy share while playing
//                            (Chromium's Performance.getMetrics), to tell the page from the machine
//   playback drift ms: N     the largest |video.currentTime − clock time| of the three videos,
//                            sampled every animation frame while playing, after the first second
//                            (the clock time: from the play button's click, when the clock starts)
// Goals: ≥ 55 fps, ≤ 1024 KB, < 50 ms; playback ≥ 50 fps, drift < 33 ms (a frame at 30 fps). E2E_OUTBOX is the dev mail outbox the sign-in reads.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { saveTask } from './preview.mjs';
import { testClip, uploadMedia } from './timeline.mjs';

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

// 4. Playback: a 60 s document, 20 layers (3 videos of the test ball from 0 s, 9 shapes and 8 texts,
// some coming in or zooming during the first seconds), played from the start.
const playSeconds = Number(process.env.PLAY_SECONDS ?? 10);
const clipId = await uploadMedia(page, testClip(Math.ceil((playSeconds + 2) * 25)), 'video', 'bench-ball.mp4', 'video/mp4');
const clipUrl = await page.evaluate(async (id) => {
  const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
  const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
  return (await (await fetch(`/diyvrbt/material/info/${id}`, { method: 'POST', headers })).json()).data.url;
}, clipId);
const playLayers = [];
for (let i = 0; i < 3; i += 1) {
  playLayers.push({
    type: 'video', id: `v${i}`, z: 101 + i, x: 10 + i * 210, y: 10, w: 200, h: 112.5, startTime: 0, endTime: 60, rotate: 0,
    materialId: clipId, videoSrc: clipUrl, source: clipUrl, cutBy: '', volume: 50, noAudio: true, sharpen: 0, brightness: 100, contrast: 100, saturation: 100, isTransparent: false,
  });
}
const motions = ['MOTIONIN_MOVE_LEFT', 'MOTIONIN_OPACITY', 'PYTHONERASE_LEFT', 'MOTIONIN_BOUNCE_UP'];
for (let i = 0; i < 17; i += 1) {
  const common = { id: `m${i}`, z: 110 + i, x: 10 + (i % 9) * 70, y: 140 + Math.floor(i / 9) * 110, w: 60, h: 60, startTime: (i % 5) * 1.5, endTime: 60, rotate: 0, motionIn: motions[i % 4], inTime: 1, motion: i % 3 === 0 ? 'ZOOM_IN' : '' };
  playLayers.push(i % 2 === 0
    ? { type: 'shape', ...common, shape: i % 4 === 0 ? 'rect' : 'circle', fill: ['#ef4444', '#22c55e', '#3b82f6', '#eab308'][i % 4], stroke: '', strokeWidth: 0, borderRadius: 0 }
    : { type: 'word', ...common, content: `字幕 ${i}`, fontSize: 18, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 });
}
const playTask = await saveTask(page, { ...rule, scenes: [{ ...rule.scenes[0], timeLength: 60, layers: playLayers }] }, 'bench playback', 41);
await page.goto(`${baseUrl}/#/diy?taskId=${playTask}`);
await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer').length === 20);
await page.waitForFunction(() => Array.from(document.querySelectorAll('#editor video')).every((v) => v.readyState >= 2), undefined, { timeout: 30_000 });
// The same page paused for 2 s, as a baseline: the frames the browser gives a page that paints nothing.
const idleFps = await page.evaluate(() => new Promise((resolve) => {
  let frames = 0;
  const t0 = performance.now();
  const tick = () => {
    frames += 1;
    if (performance.now() - t0 < 2000) requestAnimationFrame(tick);
    else resolve(frames / ((performance.now() - t0) / 1000));
  };
  requestAnimationFrame(tick);
}));
await page.evaluate(() => {
  const w = window;
  w.__play = { frames: 0, drift: [], t0: null, counting: true };
  // The clock starts in the play button's click handler: its time is read from that moment.
  document.querySelector('[data-testid="play"]').addEventListener('click', () => { w.__play.t0 = performance.now(); }, { capture: true, once: true });
  const tick = () => {
    const p = w.__play;
    if (!p.counting) return;
    if (p.t0 !== null) {
      p.frames += 1;
      const clock = (performance.now() - p.t0) / 1000;
      if (clock > 1) {
        for (const v of document.querySelectorAll('[data-testid="frame-video"]')) {
          if (v.paused) continue;
          const d = v.currentTime - clock;
          p.drift.push(d);
          if (Math.abs(d) > (p.worst?.d ?? -1)) p.worst = { d: Math.abs(d), at: clock };
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
// Where the main thread's time went while playing (Chromium's own counters, seconds): tells a page
// that cannot keep up from a browser that gets too little of the machine.
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const before = await metrics();
await page.getByTestId('play').click();
await page.waitForTimeout(playSeconds * 1000);
const after = await metrics();
const busy = (name) => ((after[name] - before[name]) / ((after.Timestamp - before.Timestamp) || 1)) * 100;
const play = await page.evaluate(() => {
  const p = window.__play;
  p.counting = false;
  const ms = performance.now() - p.t0;
  const time = Number(document.querySelector('[data-testid="current-time"]')?.dataset.time);
  const d = p.drift.map(Math.abs).sort((a, b) => a - b);
  const signed = p.drift.reduce((a, b) => a + b, 0) / Math.max(p.drift.length, 1);
  return { frames: p.frames, ms, time, worstAt: p.worst?.at ?? NaN, n: d.length, max: d.at(-1) ?? NaN, p95: d[Math.floor(d.length * 0.95)] ?? NaN, mean: d.reduce((a, b) => a + b, 0) / Math.max(d.length, 1), signed };
});
await page.keyboard.press('Space');

console.log(`drag fps: ${fps.toFixed(1)} (${drag.frames} frames in ${Math.round(drag.ms)} ms; layer moved ${Math.round(moved.x - target.x)}, ${Math.round(moved.y - target.y)} px)`);
console.log(`diy first load KB gz: ${firstLoadKb.toFixed(1)} (${scripts.size} scripts)`);
console.log(`add layer ms: ${times[3].toFixed(1)} (min ${times[0].toFixed(1)}, max ${times[6].toFixed(1)})`);
console.log(`playback fps: ${(play.frames / (play.ms / 1000)).toFixed(1)} (${play.frames} frames in ${Math.round(play.ms)} ms; playhead at ${play.time.toFixed(2)} s; paused, the page gets ${idleFps.toFixed(1)})`);
console.log(`playback main thread busy %: ${busy('TaskDuration').toFixed(0)} (script ${busy('ScriptDuration').toFixed(0)}, style ${busy('RecalcStyleDuration').toFixed(0)}, layout ${busy('LayoutDuration').toFixed(0)})`);
console.log(`playback drift ms: ${(play.max * 1000).toFixed(1)} (at ${play.worstAt.toFixed(2)} s; ${play.n} samples of 3 videos after the first second: mean ${(play.mean * 1000).toFixed(1)}, p95 ${(play.p95 * 1000).toFixed(1)}; video − clock on average ${(play.signed * 1000).toFixed(1)})`);
await browser.close();
