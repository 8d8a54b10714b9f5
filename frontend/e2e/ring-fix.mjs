// The issue-26 one-click fix in Chromium against `reelforge all`: a work rendered at 360×640 (its
// size breaks the qs profile; the render gives it a silent track) opened from my works; the ring
// modal's check names the size as fixable and offers 一键修复; the RING_FIX run is followed to its
// end on the farm, and the fixed video's check passes. Screenshots under <E2E_OUT>/ring-fix/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';
import { saveTask } from './preview.mjs';

const SECONDS = 6;

/** A 9:16 document rendered at 360×640 (qs accepts 720×1280 and 1080×1920), without music. */
function smallSilentDocument() {
  return {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '9:16', width: 360, height: 640, ratio: '9:16', sizeId: 50, targetWidth: 360 },
    scenes: [{ type: 'canvas', timeLength: SECONDS, bgColor: '#1e3a8a', effectTime: 1, isActive: true, layers: [
      { type: 'word', id: 1, z: 101, x: 20, y: 290, w: 320, h: 60, startTime: 0, endTime: SECONDS, rotate: 0, content: '一键修复', fontSize: 36, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 },
    ] }],
    audio: [],
  };
}

export async function ringFixCheck({ page, baseUrl, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'ring-fix');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, () => steps({ page, baseUrl, assert, signIn, shot }));
}

async function steps({ page, baseUrl, assert, signIn, shot }) {
  await signIn(page, 'ring-fix');
  const taskId = await saveTask(page, smallSilentDocument(), `待修复 ${Date.now().toString(36)}`, 50);
  const status = await page.evaluate(async (taskId) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs', 'Content-Type': 'application/json' };
    const ran = await (await fetch('/diyvrbt/videotask/runtask', { method: 'POST', headers, body: JSON.stringify({ taskId }) })).json();
    if (ran.code !== 2000) return `run answered ${JSON.stringify(ran)}`;
    for (let i = 0; i < 180; i += 1) {
      const s = await (await fetch(`/diyvrbt/videotask/state?taskId=${taskId}`, { headers })).json();
      if (s.data?.status === 10 || s.data?.status === 9) return s.data.status;
      await new Promise((r) => setTimeout(r, 1000));
    }
    return 'render timed out';
  }, taskId);
  assert(status === 10, `the work rendered: ${status}`);

  await page.goto(`${baseUrl}/#/mydiyring`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`set-ring-${taskId}`).click({ timeout: 20_000 });
  const modal = page.getByRole('dialog').filter({ has: page.getByTestId('ring-form') });
  await modal.getByTestId('ring-violations').waitFor({ timeout: 60_000 });
  const broken = (await modal.getByTestId('ring-check').textContent()) ?? '';
  assert((await modal.getByTestId('violation-size').count()) === 1, `the size named: "${broken}"`);
  await modal.getByTestId('ring-fix-button').waitFor();
  const original = await (await page.waitForFunction(() => {
    const v = document.querySelector('[data-testid="in-call-video"]');
    return v && v.readyState >= 1 && v.videoWidth > 0 ? `${v.videoWidth}x${v.videoHeight}` : null;
  }, undefined, { timeout: 30_000 })).jsonValue();
  await shot('check-fails-fix-offered');
  await modal.getByTestId('ring-fix-button').click();
  await modal.getByTestId('ring-fix-progress').waitFor({ timeout: 20_000 });
  await shot('fix-running');
  await modal.getByTestId('ring-fix-done').waitFor({ timeout: 180_000 });
  await modal.getByTestId('ring-violations-ok').waitFor({ timeout: 60_000 });
  // The in-call preview now plays what would be ordered: the fixed video, in the profile's size.
  const fixedVideo = await (await page.waitForFunction(
    () => {
      const v = document.querySelector('[data-testid="in-call-video"]');
      return v && v.src.includes('/toolbox/file/') && v.readyState >= 1 && v.videoWidth > 0 ? `${v.videoWidth}x${v.videoHeight}` : null;
    },
    undefined,
    { timeout: 30_000 },
  )).jsonValue();
  console.log(`ring fix: in-call preview ${original} before, ${fixedVideo} after the fix`);
  assert(fixedVideo !== original, `the in-call preview plays the fixed video (${original} before, ${fixedVideo} after)`);
  await shot('fixed-check-passes');
}
