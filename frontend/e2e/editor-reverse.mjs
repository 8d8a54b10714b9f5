// Issue 27, the editor's reverse in Chromium against `reelforge all`: sign in; a 4 s clip uploaded to
// the library; a work of one scene holding it as a video layer; the editor opened on it, the layer
// selected by its bar, 倒放 ticked: the reverse runs on the farm (its progress shown), the stage's
// video becomes the reversed material (`reverToUuid` answers the same id, done), `reverseBy` records
// the original; unticked, the original is back. Screenshots under <E2E_OUT>/editor-reverse/.
// E2E_ONLY=editor-reverse runs it alone.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, notedJourney } from './lib.mjs';
import { uploadFile } from './oneclick-journey.mjs';
import { makeClip } from './toolbox-journey.mjs';

/** A 640×360 work of one 4 s scene showing the clip `clipId` as video layer 1. */
function oneVideoDocument(clipId) {
  const src = `/diyvrbt/material/file/${clipId}/original`;
  return {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
    scenes: [{ type: 'canvas', timeLength: 4, bgColor: '#0f172a', effectTime: 1, layers: [
      { type: 'video', id: 1, videoSrc: src, source: src, materialId: clipId, startTime: 0, endTime: 4, x: 0, y: 0, w: 640, h: 360, z: 100, volume: 50 },
    ] }],
    audio: [],
  };
}

/** The stage video's source address. */
const stageSrc = (page) => page.getByTestId('stage-video').first().getAttribute('src');

export async function editorReverse({ page, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'editor-reverse', 'editor reverse', async ({ shot, note }) => {
    await signIn(page, 'reverse');
    const dir = mkdtempSync(path.join(tmpdir(), 'rf-reverse-'));
    const clip = await uploadFile(page, makeClip(dir));
    const saved = await page.evaluate(async ({ rule }) => {
      const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
      const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
      const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), name: '倒放', sizeCategoryId: '41' });
      return (await fetch('/diyvrbt/videotask/save', { method: 'POST', headers, body })).json();
    }, { rule: oneVideoDocument(clip) });
    assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
    await page.evaluate((id) => (window.location.hash = `#/diy?taskId=${id}`), saved.data);
    await page.getByTestId('layer-bar-1').waitFor({ timeout: 30_000 });
    await page.getByTestId('layer-bar-1').click();
    await page.getByTestId('reverse-video').waitFor({ timeout: 20_000 });
    const before = await stageSrc(page);
    assert(before?.includes(clip), `the stage shows the clip first: ${before}`);
    await shot('video-selected');

    await page.getByTestId('reverse-video').click();
    await page.getByTestId('reverse-progress').waitFor({ timeout: 20_000 }).catch(() => note('the run ended before its progress was drawn'));
    await shot('reversing');
    await page.waitForFunction((original) => {
      const src = document.querySelector('[data-testid="stage-video"]')?.getAttribute('src') ?? '';
      return src !== '' && !src.includes(original);
    }, clip, { timeout: 180_000 });
    const after = await stageSrc(page);
    const state = await api(page, '/material/v2/reverToUuid', { uuid: clip });
    note(`reversed ${clip} → ${state.data?.uuid} (${state.data?.state}); stage ${after}`);
    assert(state.code === 2000 && state.data.state === 'done' && after?.includes(state.data.uuid), `the stage shows the reversed material: ${after} ${JSON.stringify(state)}`);
    // The reversed material is probed after it is made: its length is read once it is ready.
    let info = await api(page, `/material/info/${state.data.uuid}`, {});
    for (let i = 0; i < 120 && info.data?.state === 'processing'; i += 1) {
      await page.waitForTimeout(500);
      info = await api(page, `/material/info/${state.data.uuid}`, {});
    }
    assert(Math.abs((info.data?.duration ?? 0) - 4) < 0.1, `the reverse lasts as long as the clip: ${JSON.stringify(info.data).slice(0, 200)}`);
    assert(await page.getByTestId('reverse-video').isChecked(), 'the reverse is ticked');
    await page.waitForFunction(() => (document.querySelector('[data-testid="stage-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    await shot('reversed');

    await page.getByTestId('reverse-video').click();
    await page.waitForFunction((original) => (document.querySelector('[data-testid="stage-video"]')?.getAttribute('src') ?? '').includes(original), clip, { timeout: 20_000 });
    // The box follows the layer's reverseBy on the panel's next render.
    await page.waitForFunction(() => document.querySelector('input[data-testid="reverse-video"], [data-testid="reverse-video"] input')?.checked === false, undefined, { timeout: 10_000 }).catch(() => undefined);
    assert(!(await page.getByTestId('reverse-video').isChecked()), 'the reverse is unticked');
    await shot('restored');
  });
}
