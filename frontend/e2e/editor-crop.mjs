// Issue 27, the editor's crops in Chromium against `reelforge all`: sign in; a 480×320 picture and a
// 4 s 640×360 clip uploaded to the library; a work of one scene holding them as a picture layer and
// a video layer; the editor opened on it. The picture: 裁剪 opens the crop dialog, its box resized
// with the mouse and applied: the server cuts it (`/material/croppicture`), the stage's picture is
// the new material, of the box's size. The video: 裁剪画面 opens the dialog on the clip's frame, its
// box resized and applied: the crop runs on the farm (its progress shown), the stage's video is the
// new material, of the box's size and the clip's length, the layer's in/out kept. A clip stored on
// its side (a phone's portrait clip: 640×360 with a track header that turns it 90°) is offered the
// crop, shown upright in the dialog, and its crop is the box picked on the upright picture. Last,
// both dialogs in English. Screenshots under <E2E_OUT>/editor-crop/. E2E_ONLY=editor-crop runs it
// alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, notedJourney } from './lib.mjs';
import { uploadFile } from './oneclick-journey.mjs';
import { uploadPicture } from './preview.mjs';
import { makeClip } from './toolbox-journey.mjs';

/** A 640×360 work of one 4 s scene: the picture `pictureId` as layer 1, the clip `clipId` as layer 2. */
function pictureAndVideoDocument(pictureId, clipId) {
  const pictureSrc = `/diyvrbt/material/file/${pictureId}/original`;
  const videoSrc = `/diyvrbt/material/file/${clipId}/original`;
  return {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
    scenes: [{ type: 'canvas', timeLength: 4, bgColor: '#0f172a', effectTime: 1, layers: [
      { type: 'picture', id: 1, src: pictureSrc, materialId: pictureId, startTime: 0, endTime: 4, x: 20, y: 20, w: 270, h: 180, z: 101 },
      { type: 'video', id: 2, videoSrc, source: videoSrc, materialId: clipId, startTime: 0, endTime: 4, cutInfo: { start: 0.5, end: 3.5 }, x: 320, y: 100, w: 300, h: 168.75, z: 100, volume: 50 },
    ] }],
    audio: [],
  };
}

/** `clip` copied with a track header that turns it 90° (ffmpeg's `rotate` tag), as a phone stores a portrait clip. */
function turned(clip) {
  const file = path.join(path.dirname(clip), '竖拍.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', clip, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', file], { stdio: 'pipe', timeout: 60_000 });
  return file;
}

/** Saves `rule` as a work named `name`; answers its task id. */
async function saveWork(page, assert, rule, name) {
  const saved = await page.evaluate(async ({ rule, name }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), name, sizeCategoryId: '41' });
    return (await fetch('/diyvrbt/videotask/save', { method: 'POST', headers, body })).json();
  }, { rule, name });
  assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
  return saved.data;
}

/** The material id in a stage address (`/diyvrbt/material/file/<id>/original?ticket=…`). */
const idIn = (src) => /\/material\/file\/([^/?]+)\//.exec(src ?? '')?.[1] ?? '';

/** The library's answer for `id` once probed. */
async function settled(page, id) {
  let info = await api(page, `/material/info/${id}`, {});
  for (let i = 0; i < 240 && info.data?.state === 'processing'; i += 1) {
    await page.waitForTimeout(500);
    info = await api(page, `/material/info/${id}`, {});
  }
  return info.data;
}

/** Resizes the open crop dialog's box from its lower right corner by (dx, dy) CSS pixels; answers its new `x,y,w,h`. */
async function resizeCrop(page, assert, dx, dy) {
  const box = page.getByTestId('crop-box');
  await box.waitFor();
  const before = await box.getAttribute('data-crop');
  // The dialog's own handle: the stage's selected layer has one too, under the dialog's mask.
  const se = page.getByTestId('crop-modal').locator('.moveable-control.moveable-se');
  // The dialog opens with an animation: a drag that starts before the handle settles is lost, so
  // the drag is tried again (up to three times) until the crop box answers it.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.waitForTimeout(400);
    const handle = await se.boundingBox();
    assert(handle !== null, 'the crop box has a corner handle');
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + dx / 2, handle.y + dy / 2, { steps: 8 });
    await page.mouse.move(handle.x + dx, handle.y + dy, { steps: 8 });
    await page.mouse.up();
    if ((await box.getAttribute('data-crop')) !== before) break;
  }
  const after = await box.getAttribute('data-crop');
  assert(after !== before, `the crop box resized (${before} → ${after})`);
  return after.split(',').map(Number);
}

/** The form body of the next POST to `route` once `act` has sent it, its numbers as numbers. */
async function sent(page, route, act) {
  const request = page.waitForRequest((r) => r.url().includes(route) && r.method() === 'POST', { timeout: 30_000 });
  await act();
  const fields = [...new URLSearchParams((await request).postData() ?? '')];
  return Object.fromEntries(fields.map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));
}

export async function editorCrop({ page, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'editor-crop', 'editor crop', async ({ shot, note }) => {
    await signIn(page, 'crop');
    const pic = await uploadPicture(page, 'photo', '裁剪.png');
    assert((await settled(page, pic.id))?.state === 'ready', 'the picture is ready');
    const clipFile = makeClip(mkdtempSync(path.join(tmpdir(), 'rf-crop-')));
    const clip = await uploadFile(page, clipFile);
    const work = await saveWork(page, assert, pictureAndVideoDocument(pic.id, clip), '裁剪');
    await page.evaluate((id) => (window.location.hash = `#/diy?taskId=${id}`), work);

    // The picture.
    await page.getByTestId('layer-bar-1').waitFor({ timeout: 30_000 });
    await page.getByTestId('layer-bar-1').click();
    const stagePicture = page.locator('#editor .rf-layer[data-type="picture"] img').first();
    await stagePicture.waitFor({ timeout: 20_000 });
    assert(idIn(await stagePicture.getAttribute('src')) === pic.id, 'the stage shows the picture first');
    await page.getByTestId('crop-button').click();
    const [, , pw, ph] = await resizeCrop(page, assert, -90, -40);
    await shot('picture-crop-picking');
    const pictureBody = await sent(page, '/material/croppicture', () => page.locator('#crop-apply').click());
    await page.locator('.ant-message').filter({ hasText: '已裁剪' }).waitFor({ timeout: 30_000 });
    await page.waitForFunction((before) => !(document.querySelector('#editor .rf-layer[data-type="picture"] img')?.getAttribute('src') ?? '').includes(before), pic.id);
    const croppedPicture = idIn(await stagePicture.getAttribute('src'));
    const madePicture = await settled(page, croppedPicture);
    note(`picture ${pic.id} → ${croppedPicture}: sent ${JSON.stringify(pictureBody)}, made ${madePicture?.width}×${madePicture?.height}`);
    assert(pictureBody.width === pw && pictureBody.height === ph, `the box sent is the box picked (${pw}×${ph}): ${JSON.stringify(pictureBody)}`);
    assert(madePicture?.type === 'picture' && madePicture.width === pw && madePicture.height === ph, `the stage's picture is the box (${pw}×${ph}): ${JSON.stringify(madePicture).slice(0, 300)}`);
    await page.waitForFunction(() => (document.querySelector('#editor .rf-layer[data-type="picture"] img')?.naturalWidth ?? 0) > 0, undefined, { timeout: 20_000 });
    await shot('picture-cropped');

    // The video.
    await page.getByTestId('layer-bar-2').click();
    await page.getByTestId('video-crop').waitFor({ timeout: 20_000 });
    const before = await page.getByTestId('stage-video').first().getAttribute('src');
    assert(idIn(before) === clip, `the stage shows the clip first: ${before}`);
    await page.getByTestId('video-crop').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="crop-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    const [, , vw, vh] = await resizeCrop(page, assert, -120, -60);
    await shot('video-crop-picking');
    const videoBody = await sent(page, '/material/cropVideo', () => page.locator('#crop-apply').click());
    await page.getByTestId('video-crop-progress').waitFor({ timeout: 20_000 }).catch(() => note('the run ended before its progress was drawn'));
    await shot('video-cropping');
    await page.waitForFunction((original) => {
      const src = document.querySelector('[data-testid="stage-video"]')?.getAttribute('src') ?? '';
      return src !== '' && !src.includes(original);
    }, clip, { timeout: 180_000 });
    const croppedVideo = idIn(await page.getByTestId('stage-video').first().getAttribute('src'));
    const madeVideo = await settled(page, croppedVideo);
    note(`video ${clip} → ${croppedVideo}: picked ${vw}×${vh}, sent ${JSON.stringify(videoBody)}, made ${madeVideo?.width}×${madeVideo?.height} ${madeVideo?.duration} s`);
    const even = (n) => n % 2 === 0;
    assert([videoBody.x, videoBody.y, videoBody.width, videoBody.height].every(even) && Math.abs(videoBody.width - vw) <= 1 && Math.abs(videoBody.height - vh) <= 1, `the box sent is the box picked, even (${vw}×${vh}): ${JSON.stringify(videoBody)}`);
    assert(madeVideo?.type === 'video' && madeVideo.width === videoBody.width && madeVideo.height === videoBody.height, `the stage's video is the box: ${JSON.stringify(madeVideo).slice(0, 300)}`);
    assert(Math.abs((madeVideo?.duration ?? 0) - 4) < 0.1, `the crop lasts as long as the clip: ${madeVideo?.duration}`);
    const cutIn = await page.locator('input[data-testid="cut-in"], [data-testid="cut-in"] input').first().inputValue();
    const cutOut = await page.locator('input[data-testid="cut-out"], [data-testid="cut-out"] input').first().inputValue();
    assert(Number(cutIn) === 0.5 && Number(cutOut) === 3.5, `the layer keeps its in and out: ${cutIn}–${cutOut}`);
    // The new clip was probed before it was swapped in: the panel knows its length.
    const held = (await page.getByTestId('cut-held').textContent()) ?? '';
    assert(held.includes('4.02'), `the held-frame note names the new clip's length: ${held}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid="stage-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    await shot('video-cropped');

    // A clip stored on its side: the library and the dialog know it upright (360×640).
    const side = await uploadFile(page, turned(clipFile));
    const sideInfo = await settled(page, side);
    note(`clip on its side ${side}: ${sideInfo?.width}×${sideInfo?.height}, rotation ${sideInfo?.rotation}`);
    assert(sideInfo?.width === 360 && sideInfo?.height === 640 && sideInfo?.rotation % 180 === 90, `the library knows the clip upright: ${JSON.stringify(sideInfo).slice(0, 300)}`);
    const sideDoc = pictureAndVideoDocument(pic.id, side);
    Object.assign(sideDoc.scenes[0].layers[1], { cutInfo: { start: 0, end: 4 }, x: 400, y: 20, w: 180, h: 320 });
    const sideWork = await saveWork(page, assert, sideDoc, '竖拍裁剪');
    await page.evaluate((id) => (window.location.hash = `#/diy?taskId=${id}`), sideWork);
    await page.reload();
    await page.getByTestId('layer-bar-2').waitFor({ timeout: 30_000 });
    await page.getByTestId('layer-bar-2').click();
    await page.getByTestId('video-crop').waitFor({ timeout: 20_000 });
    assert(await page.getByTestId('video-crop').isEnabled(), 'a clip stored on its side is offered the crop');
    await page.getByTestId('video-crop').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="crop-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    const shown = await page.getByTestId('crop-video').evaluate((v) => [v.videoWidth, v.videoHeight]);
    assert(shown[0] === 360 && shown[1] === 640, `the dialog plays the clip upright: ${shown}`);
    const [, , sw, sh] = await resizeCrop(page, assert, -60, -60);
    await shot('side-crop-picking');
    const sideBody = await sent(page, '/material/cropVideo', () => page.locator('#crop-apply').click());
    await page.waitForFunction((original) => {
      const src = document.querySelector('[data-testid="stage-video"]')?.getAttribute('src') ?? '';
      return src !== '' && !src.includes(original);
    }, side, { timeout: 180_000 });
    const sideCropped = await settled(page, idIn(await page.getByTestId('stage-video').first().getAttribute('src')));
    note(`clip on its side cropped: picked ${sw}×${sh}, sent ${JSON.stringify(sideBody)}, made ${sideCropped?.width}×${sideCropped?.height} rotation ${sideCropped?.rotation}`);
    assert(sideBody.width + sideBody.x <= 360 && sideBody.height + sideBody.y <= 640 && sideBody.height > sideBody.width, `the box is on the upright picture: ${JSON.stringify(sideBody)}`);
    assert(sideCropped?.width === sideBody.width && sideCropped?.height === sideBody.height && sideCropped?.rotation === 0, `the crop is the upright box: ${JSON.stringify(sideCropped).slice(0, 300)}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid="stage-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    await shot('side-cropped');

    // Both dialogs in English.
    await page.evaluate(() => localStorage.setItem('reelforge.lang', 'en-US'));
    await page.reload();
    await page.getByTestId('layer-bar-1').waitFor({ timeout: 30_000 });
    await page.getByTestId('layer-bar-1').click();
    await page.getByTestId('crop-button').click();
    await page.getByTestId('crop-box').waitFor();
    const pictureDialog = (await page.locator('.ant-modal').filter({ has: page.getByTestId('crop-modal') }).textContent()) ?? '';
    await shot('picture-crop-en');
    assert(pictureDialog.includes('Crop the picture') && pictureDialog.includes('Keep ratio') && !/[\u4e00-\u9fff]/.test(pictureDialog), `the picture's crop dialog in English: "${pictureDialog.slice(0, 300)}"`);
    await page.locator('.ant-modal-close').click();
    await page.getByTestId('crop-modal').waitFor({ state: 'detached' });
    await page.getByTestId('layer-bar-2').click();
    await page.getByTestId('video-crop').click();
    await page.getByTestId('crop-box').waitFor();
    const videoDialog = (await page.locator('.ant-modal').filter({ has: page.getByTestId('crop-modal') }).textContent()) ?? '';
    await shot('video-crop-en');
    assert(videoDialog.includes("Crop the video's picture") && videoDialog.includes('the server crops the whole video') && !/[\u4e00-\u9fff]/.test(videoDialog), `the video's crop dialog in English: "${videoDialog.slice(0, 300)}"`);
    await page.locator('.ant-modal-close').click();
    await page.evaluate(() => localStorage.setItem('reelforge.lang', 'zh-CN'));
  });
}
