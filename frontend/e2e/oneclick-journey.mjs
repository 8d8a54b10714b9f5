// One-click filming (issue 27, docs/toolbox.md "One-click filming") in Chromium against `reelforge all`:
// an operations manager (granted with `reelforge admin grant`, which needs E2E_BIN) files a template of two
// video slots (3 s and 3 s, holding the manager's own clip) under a new category and approves it; a user
// uploads two clips from /tools/ai-one-step-video-cut (a 4 s and a 2 s one, GStreamer), chooses the
// category, a length and the template, sees how the clips fill the slots (the 2 s clip holds its last frame
// for 1 s), makes the work, starts its render, and opens it in the editor, whose stored document is read
// back: the two clips in slot order with their cuts. Then /tools/intelligent-generation picks the template
// for the clips' total length, in en-US, and the chosen page in en-US. Screenshots under
// <E2E_OUT>/oneclick-journey/. E2E_ONLY=oneclick-journey runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, notedJourney } from './lib.mjs';

/**
 * Makes a `seconds` long 640×360 clip of a GStreamer test `pattern` (H.264 in MP4, no sound: an AAC
 * track's priming would make it a few milliseconds longer than its pictures); answers its path.
 */
export function makeClip(dir, name, pattern, seconds) {
  const file = path.join(dir, name);
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    'videotestsrc', `num-buffers=${seconds * 25}`, `pattern=${pattern}`, '!', 'video/x-raw,width=640,height=360,framerate=25/1', '!', 'videoconvert', '!',
    'x264enc', 'speed-preset=faster', 'bitrate=1500', '!', 'h264parse', '!', 'mp4mux', '!', 'filesink', `location=${file}`,
  ], { stdio: 'pipe', timeout: 120_000 });
  return file;
}

/** Uploads a file as the signed-in user through /upload/material; answers the material id once the library has probed it. */
export async function uploadFile(page, file) {
  const id = await page.evaluate(async ({ name, b64 }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const form = new FormData();
    for (const [k, v] of Object.entries({ userId: user.id, type: 'video', expireDay: '1000', categoryId: '-1', styleId: '-1', materialState: '0' })) form.append(k, v);
    form.append('uploadFile', new File([bytes], name, { type: 'video/mp4' }));
    const up = await (await fetch('/diyvrbt/upload/material', { method: 'POST', headers, body: form })).json();
    if (up.code !== 2000) throw new Error(`upload answered ${JSON.stringify(up)}`);
    return String(up.data).replace(/^UPLOADED - /, '');
  }, { name: path.basename(file), b64: readFileSync(file).toString('base64') });
  for (let i = 0; i < 240; i += 1) {
    const info = await api(page, `/material/info/${id}`, {});
    if (info.data?.state === 'ready') return id;
    if (info.data?.state === 'failed') throw new Error(`the clip failed: ${JSON.stringify(info.data).slice(0, 300)}`);
    await page.waitForTimeout(500);
  }
  throw new Error(`material ${id} still processing`);
}

/** The template's document: two 3 s scenes, each a full-length video slot holding `clipId`, and a title. */
function twoSlotDocument(clipId) {
  const src = `/diyvrbt/material/file/${clipId}/original`;
  const video = (id) => ({ type: 'video', id, canModify: 1, videoSrc: src, source: src, materialId: clipId, startTime: 0, endTime: 3, x: 0, y: 0, w: 640, h: 360, z: 100, volume: 50 });
  const title = { type: 'word', id: 'title', canModify: 1, content: '一键成片', showContent: '一键成片', startTime: 0, endTime: 3, x: 220, y: 20, w: 200, h: 50, z: 101, fontSize: 32, color: '#ffffff', maxLength: 10 };
  return {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
    scenes: [
      { type: 'canvas', timeLength: 3, bgColor: '#1e3a8a', effectTime: 1, layers: [video('first'), title] },
      { type: 'canvas', timeLength: 3, bgColor: '#0f172a', effectTime: 1, layers: [video('second')] },
    ],
    audio: [],
  };
}

/** Picks an option of the antd Select with test id `id` by its label. */
async function chooseOption(page, id, label) {
  await page.getByTestId(id).click();
  await page.locator(`.ant-select-item-option[title="${label}"]`).click();
}

/** Uploads a clip from the page's picker; it joins the clip list once uploaded. */
async function uploadClip(page, file, place) {
  await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles(file);
  await page.getByTestId(`one-click-clip-${place}`).waitFor({ timeout: 60_000 });
  await page.getByTestId(`one-click-clip-${place}`).locator('[data-testid="material-state"][data-state="ready"]').waitFor({ timeout: 120_000 });
}

export async function oneClickJourney({ page, baseUrl, outDir, assert, signIn, bin }) {
  assert(bin, 'the one-click journey needs E2E_BIN (the reelforge binary) to grant the template manager its level');
  await notedJourney(page, outDir, 'oneclick-journey', 'one-click journey', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, bin, shot, note }));
}

async function journey({ page, baseUrl, assert, signIn, bin, shot, note }) {
  const go = (hash) => page.goto(`${baseUrl}/${hash}`, { waitUntil: 'domcontentloaded' });
  const stamp = Date.now().toString(36);
  const dir = mkdtempSync(path.join(tmpdir(), 'rf-oneclick-'));

  // --- A template of two video slots in a new category, by an operations manager. ---
  const manager = `e2e-oneclick-manager-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'oneclick-manager', manager);
  const categoryName = `旅行 ${stamp}`;
  const made = await api(page, '/category/taskvideo', { categoryName, dimension: 'industry', higherUpId: -1 });
  assert(made.code === 2000, `POST /category/taskvideo answered ${JSON.stringify(made).slice(0, 300)}`);
  const categoryId = made.data.categoryId;
  const own = await uploadFile(page, makeClip(dir, '模板自带.mp4', 'snow', 3));
  const saved = await page.evaluate(async ({ rule, name }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), name, sizeCategoryId: '41' });
    return (await fetch('/diyvrbt/videotask/save', { method: 'POST', headers, body })).json();
  }, { rule: twoSlotDocument(own), name: `旅行快剪 ${stamp}` });
  assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
  const submitted = await api(page, '/template/submit', { taskId: saved.data, kind: 'classic', categoryIds: [categoryId], sizeCategoryId: 41 });
  assert(submitted.code === 2000, `POST /template/submit answered ${JSON.stringify(submitted).slice(0, 300)}`);
  const templateId = submitted.data.id;
  const approved = await api(page, '/template/audit', { id: templateId, approve: true });
  assert(approved.code === 2000, `POST /template/audit answered ${JSON.stringify(approved).slice(0, 300)}`);
  // The cover comes with the preview render; the cards show it once the farm has drawn it.
  for (let i = 0; i < 120; i += 1) {
    const t = await api(page, `/template/${templateId}`);
    if (t.data?.coverUrl) break;
    await page.waitForTimeout(1000);
  }
  note(`template ${templateId} in category ${categoryId}`);
  await page.evaluate(() => localStorage.removeItem('reelforge.user'));
  await page.reload();
  await go('#/login');

  // --- A user: two clips uploaded from the page, the category, a length and the template. ---
  await signIn(page, 'oneclick');
  const long = makeClip(dir, '海边 4 秒.mp4', 'smpte', 4);
  const short = makeClip(dir, '山路 2 秒.mp4', 'ball', 2);
  await go('#/tools/ai-one-step-video-cut');
  await page.getByTestId('one-click-page-choose').waitFor({ timeout: 20_000 });
  await uploadClip(page, long, 0);
  await uploadClip(page, short, 1);
  await chooseOption(page, 'one-click-category', categoryName);
  const length = page.locator('input[data-testid="one-click-length"], [data-testid="one-click-length"] input').first();
  await length.fill('6');
  await length.blur();
  const use = page.getByTestId(`one-click-use-${templateId}`);
  await use.waitFor({ timeout: 30_000 });
  await use.click();
  const plan = page.getByTestId('one-click-plan');
  await plan.waitFor();
  // The plan is drawn from the clips' material answers; until they come a clip's cut reads "读取片段时长…"
  // (its length is not known yet), so the plan is read once the short clip's cut is drawn.
  await page.waitForFunction(() => /截取/.test(document.querySelector('[data-testid="one-click-slot-1"]')?.textContent ?? ''), undefined, { timeout: 30_000 }).catch(() => undefined);
  const second = (await page.getByTestId('one-click-slot-1').textContent()) ?? '';
  assert(second.includes('山路 2 秒.mp4') && second.includes('截取 0 s – 2 s') && second.includes('停在最后一帧 1 s'), `the plan holds the short clip's last frame: "${second}"`);
  await page.getByTestId('one-click-name').fill(`我的旅行 ${stamp}`);
  await page.getByTestId('one-click-run').scrollIntoViewIfNeeded();
  await shot('chosen-template-and-plan');

  const answered = page.waitForResponse((r) => r.url().includes('/diyvrbt/v2/videotask/oneClick/run'), { timeout: 30_000 });
  await page.getByTestId('one-click-run').click();
  const run = await (await answered).json();
  assert(run.code === 2000 && run.data?.taskId, `POST /v2/videotask/oneClick/run answered ${JSON.stringify(run).slice(0, 300)}`);
  const taskId = run.data.taskId;
  const clipIds = run.data.placed.map((p) => p.materialId);
  note(`task ${taskId}: ${JSON.stringify(run.data.placed)}`);
  await page.getByTestId('one-click-result').waitFor();
  await page.getByTestId('one-click-render').click();
  await page.getByTestId('one-click-rendering').waitFor({ timeout: 30_000 });
  await shot('made');

  // --- Open in the editor: the stored document holds the clips in slot order with their cuts. ---
  await page.getByTestId('one-click-open').click();
  await page.waitForURL((u) => new URL(u).hash === `#/diy?taskId=${taskId}`, { timeout: 30_000 });
  await page.getByTestId('diy-editor').waitFor({ timeout: 60_000 });
  const task = await api(page, `/videotask/ofone/${taskId}`);
  assert(task.code === 2000 && task.data.taskName === `我的旅行 ${stamp}`, `the work is the user's, named: ${JSON.stringify(task).slice(0, 300)}`);
  const videos = JSON.parse(task.data.videoCreateInfo).scenes.map((s) => s.layers.find((l) => l.type === 'video'));
  assert(videos[0].videoSrc === `/diyvrbt/material/file/${clipIds[0]}/original` && videos[0].cutInfo?.end === 3, `slot 1 holds the 4 s clip cut to 3 s: ${JSON.stringify(videos[0]).slice(0, 300)}`);
  assert(videos[1].videoSrc === `/diyvrbt/material/file/${clipIds[1]}/original` && videos[1].cutInfo?.end === 2 && videos[1].endTime === 3, `slot 2 holds the 2 s clip whole: ${JSON.stringify(videos[1]).slice(0, 300)}`);
  assert(!task.data.videoCreateInfo.includes(own), 'no slot kept the template\'s own clip');
  await page.waitForTimeout(1500);
  await shot('editor');

  // --- In English: intelligent generation picks the template by the clips' total length (6 s). ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await go('#/tools/intelligent-generation');
  await page.getByTestId('one-click-page-auto').waitFor({ timeout: 20_000 });
  for (const id of clipIds) await page.getByTestId('tool-input-picker').getByTestId(`material-${id}`).click({ timeout: 20_000 });
  await page.getByTestId('one-click-total').getByText('6 s', { exact: false }).waitFor({ timeout: 60_000 });
  await chooseOption(page, 'one-click-category', categoryName);
  await page.getByTestId('one-click-templates').getByTestId(`template-${templateId}`).waitFor({ timeout: 30_000 });
  await page.getByTestId('one-click-plan').waitFor();
  const picked = (await page.getByTestId('one-click-templates').textContent()) ?? '';
  assert(picked.includes('Picked for you'), `the template is picked for the user: "${picked.slice(0, 200)}"`);
  await shot('intelligent-generation-en');
  await go('#/tools/ai-one-step-video-cut');
  await page.getByTestId('one-click-page-choose').waitFor({ timeout: 20_000 });
  for (const id of clipIds) await page.getByTestId('tool-input-picker').getByTestId(`material-${id}`).click({ timeout: 20_000 });
  await chooseOption(page, 'one-click-category', categoryName);
  await page.getByTestId(`one-click-use-${templateId}`).click({ timeout: 30_000 });
  await page.getByTestId('one-click-plan').waitFor();
  await page.waitForFunction(() => /cut /.test(document.querySelector('[data-testid="one-click-slot-1"]')?.textContent ?? ''), undefined, { timeout: 30_000 }).catch(() => undefined);
  const englishPlan = (await page.getByTestId('one-click-slot-1').textContent()) ?? '';
  assert(englishPlan.includes('holds its last frame 1 s'), `the plan in English: "${englishPlan}"`);
  await shot('chosen-template-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
