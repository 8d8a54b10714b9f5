// Preview fidelity in motion (issue 16): the three reference documents of preview.mjs given
// motion — every layer an in-animation of 2 s, the first scene 5.5 s long with a transition of 1 s
// into a second scene of 8 s whose layers (placed the other way round) come in over 1 s — are
// opened in /diy, the playhead is held (a scrub kept pressed on the ruler, as the timeline check
// does) at 1 s (mid-animation), 5.5 s (mid-transition) and 12 s (the second scene, settled), and the
// stage is compared with the server's exact frame of the same document at the same frame
// (`POST /videotask/frame {taskInfo, time}`), by preview.mjs's SSIM. Printed as
// `motion SSIM <document> @<t>s: N`; images kept under <E2E_OUT>/motion/.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeClip, uploadFile } from './oneclick-journey.mjs';
import { referenceDocuments, saveTask, ssimInPage, stageSettled, uploadPicture, SSIM_FLOOR } from './preview.mjs';

/** The goal of the issue for frames in motion; reported, not enforced (the floor is preview.mjs's). */
export const MOTION_SSIM_GOAL = 0.85;
/** The times held, seconds: mid in-animation, mid-transition, inside the second scene. */
export const MOTION_TIMES = [1, 5.5, 12];

const FIRST_SCENE = 5.5;
const SECOND_SCENE = 8;
const IN_FIRST = ['MOTIONIN_MOVE_LEFT', 'MOTIONIN_OPACITY', 'PYTHONERASE_LEFT', 'MOTIONIN_MOVE_UP'];
const IN_SECOND = ['MOTIONIN_MOVE_DOWN', 'MOTIONIN_OPACITY', 'PYTHONERASE_UP', 'MOTIONIN_MOVE_RIGHT'];
/** One transition per document, of different composites: planes moved, a circle mask, an edge wipe, blinds, a dissolve. */
const TRANSITIONS = { 'text-cjk-9x16': 'MOVE_LEFT', 'pictures-filters-16x9': 'CIRCLE_OPEN', 'shapes-mask-16x9': 'ERASE_RIGHT', 'art-words-16x9': 'SHUTTERS_HORIZONTAL', 'rotated-shadows-1x1': 'OVERLAY' };
const SECOND_BG = { 'text-cjk-9x16': '#1e3a8a', 'pictures-filters-16x9': '#3f3f46', 'shapes-mask-16x9': '#e0f2fe', 'art-words-16x9': '#0f172a', 'rotated-shadows-1x1': '#7c2d12' };

/**
 * Issue 33's held frame: a clip cut to 0.2–0.8 s on a layer of the whole scene, so from 0.6 s into
 * the layer on it shows the cut's last frame (a ball that moves: a frame off shows the ball
 * elsewhere), under a title; 4:3.
 */
function heldFrameDocument(clipId) {
  const src = `/diyvrbt/material/file/${clipId}/original`;
  return {
    name: 'held-frame-4x3',
    size: 42,
    rule: {
      version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
      resolutionRatio: { name: '4:3', width: 640, height: 480, ratio: '4:3', sizeId: 42, targetWidth: 960 },
      scenes: [{
        type: 'canvas', timeLength: 4, bgColor: '#14532d', effectTime: 1, isActive: true,
        layers: [
          { type: 'video', id: 'v1', z: 101, x: 80, y: 90, w: 480, h: 270, startTime: 0, endTime: 4, rotate: 0, videoSrc: src, source: src, materialId: clipId,
            cutInfo: { start: 0.2, end: 0.8 }, volume: 0, noAudio: true },
          { type: 'word', id: 't1', z: 102, x: 40, y: 390, w: 560, h: 60, startTime: 0, endTime: 4, rotate: 0, content: '停在最后一帧', fontSize: 36, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 },
        ],
      }],
      audio: [],
    },
  };
}

/** A reference document with motion: in-animations, a transition and a second scene. */
export function withMotion(doc) {
  const rule = structuredClone(doc.rule);
  const first = rule.scenes[0];
  first.timeLength = FIRST_SCENE;
  // A reference document added later gets a moving transition until it is given its own.
  first.effect = TRANSITIONS[doc.name] ?? 'MOVE_UP';
  first.effectTime = 1;
  first.layers = first.layers.map((l, i) => ({ ...l, endTime: FIRST_SCENE, motionIn: IN_FIRST[i % IN_FIRST.length], inTime: 2 }));
  // The second scene: the same layers with the places of the first and last swapped (so the stills differ by scene).
  const places = first.layers.map((l) => ({ x: l.x, y: l.y }));
  const layers = first.layers.map((l, i) => ({
    ...l,
    id: `${l.id}b`,
    ...(i === 0 ? places[places.length - 1] : i === places.length - 1 ? places[0] : {}),
    endTime: SECOND_SCENE,
    motionIn: IN_SECOND[i % IN_SECOND.length],
    inTime: 1,
  }));
  rule.scenes = [{ ...first, isActive: true }, { ...first, effect: '', isActive: false, timeLength: SECOND_SCENE, bgColor: SECOND_BG[doc.name] ?? '#111827', layers }];
  return { ...doc, rule };
}

/** Zooms the timeline out until `seconds` fit in the ruler's view, scrolled to the start; answers its pixels per second and box. */
async function rulerFor(page, seconds) {
  for (;;) {
    const level = Number(await page.getByTestId('timeline-ruler').getAttribute('data-level'));
    const pps = 100 / [3, 2.5, 2, 1.5, 1, 0.5, 0.4, 0.2, 0.1][level];
    const box = await page.getByTestId('timeline-ruler').boundingBox();
    if (seconds * pps <= box.width - 10 || level === 0) {
      await page.evaluate(() => {
        let el = document.querySelector('[data-testid="timeline-ruler"]').parentElement;
        while (el && !/(auto|scroll)/.test(getComputedStyle(el).overflowX)) el = el.parentElement;
        if (el) el.scrollLeft = 0;
      });
      await page.waitForTimeout(100);
      return { pps, box: await page.getByTestId('timeline-ruler').boundingBox() };
    }
    await page.getByTestId('timeline-zoom-out').click();
  }
}

/** The server's still of `rule` at `time` seconds, as base64 PNG. */
async function stillOf(page, rule, time) {
  return page.evaluate(async ({ rule, time }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), time: String(time) });
    const r = await fetch('/diyvrbt/videotask/frame', { method: 'POST', headers, body });
    const blob = await r.blob();
    if (blob.type !== 'image/png') throw new Error(`the still answered ${r.status} ${(await blob.text()).slice(0, 300)}`);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }, { rule, time });
}

/** Waits until the frame view's pictures are decoded and its texts' faces loaded. */
async function frameSettled(page) {
  await page.waitForFunction(() => {
    const view = document.querySelector('[data-testid="frame-view"]');
    if (!view) return false;
    const imgs = Array.from(view.querySelectorAll('img'));
    return imgs.every((i) => i.complete && i.naturalWidth > 0) && view.querySelector('[data-font="loading"]') === null;
  }, undefined, { timeout: 30_000 });
  await page.evaluate(() => document.fonts.ready);
}

/**
 * For each reference document with motion, the stage held at each of MOTION_TIMES against the
 * server's still of the same frame. Answers [{name, time, ssim}].
 */
export async function motionCheck({ page, baseUrl, outDir, assert }) {
  const dir = path.join(outDir, 'motion');
  mkdirSync(dir, { recursive: true });
  const pics = [await uploadPicture(page, 'photo', 'motion-a.png'), await uploadPicture(page, 'other', 'motion-b.png')];
  const clipId = await uploadFile(page, makeClip(dir, 'held-clip.mp4', 'ball', 2));
  const docs = [...referenceDocuments(pics), heldFrameDocument(clipId)].map(withMotion);
  const tasks = [];
  for (const doc of docs) tasks.push(await saveTask(page, doc.rule, `motion ${doc.name}`, doc.size));
  const results = [];
  const first = page.viewportSize();
  // The editor as a 1280×800 window shows it, then as a full-HD screen does (issue 33).
  for (const window of [null, { width: 1920, height: 1080 }]) {
    if (window) await page.setViewportSize(window);
    const at = window ? ` @${window.width}x${window.height}` : '';
    results.push(...(await holdEach({ page, baseUrl, dir, assert, docs, tasks, at })));
  }
  if (first) await page.setViewportSize(first);
  const below = results.filter((r) => r.ssim < MOTION_SSIM_GOAL).map((r) => `${r.name} @${r.time}s (${r.ssim})`);
  if (below.length > 0) console.log(`motion SSIM below the goal ${MOTION_SSIM_GOAL}: ${below.join(', ')}`);
  writeFileSync(path.join(dir, 'ssim.json'), JSON.stringify(results, null, 2));
  return results;
}

/** Holds the playhead of each document (saved as `tasks`) at each of MOTION_TIMES in the page's window and compares. */
async function holdEach({ page, baseUrl, dir, assert, docs, tasks, at }) {
  const results = [];
  for (const [i, doc] of docs.entries()) {
    const fps = doc.rule.frameRate;
    const taskId = tasks[i];
    const name = `${doc.name}${at}`;
    const file = `${doc.name}${at ? `-${at.trim().slice(1)}` : ''}`;
    await page.goto(`${baseUrl}/#/diy?taskId=${taskId}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction((n) => document.querySelectorAll('#editor .rf-layer').length === n, doc.rule.scenes[0].layers.length);
    await stageSettled(page);
    const { pps, box } = await rulerFor(page, Math.max(...MOTION_TIMES) + 0.5);
    for (const t of MOTION_TIMES) {
      // Aim at the middle of the frame t falls in (the page and the engine both floor time × fps).
      const aim = (Math.floor(t * fps + 1e-6) + 0.5) / fps;
      const x = box.x + aim * pps;
      const y = box.y + 5;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + 0.01, y);
      await page.getByTestId('frame-view').waitFor();
      await frameSettled(page);
      await page.waitForTimeout(300);
      const shown = Number(await page.getByTestId('frame-view').getAttribute('data-time'));
      const frame = Math.floor(shown * fps + 1e-6);
      const transition = await page.getByTestId('frame-view').getAttribute('data-transition');
      const stage = await page.locator('#editor').screenshot({ path: path.join(dir, `${file}@${t}s-stage.png`) });
      await page.mouse.up();
      await page.getByTestId('frame-view').waitFor({ state: 'detached' });
      const still = await stillOf(page, doc.rule, (frame + 0.5) / fps);
      writeFileSync(path.join(dir, `${file}@${t}s-still.png`), Buffer.from(still, 'base64'));
      const m = await ssimInPage(page, `data:image/png;base64,${stage.toString('base64')}`, `data:image/png;base64,${still}`);
      const ssim = Math.round(m.ssim * 1000) / 1000;
      console.log(`motion SSIM ${name} @${t}s: ${ssim} (frame ${frame} at ${fps} fps${transition ? `, transition ${transition}` : ''}; stage ${m.width}×${m.height}, still ${m.stillWidth}×${m.stillHeight})`);
      results.push({ name, time: t, frame, ssim });
      assert(Math.abs(shown - t) < 1.5 / fps, `the playhead held at ${t} s shows ${shown} s`);
      assert(m.ssim >= SSIM_FLOOR, `motion SSIM ${name} @${t}s ${ssim} is below the floor ${SSIM_FLOOR}`);
    }
  }
  return results;
}
