// The issue-30 start routes in Chromium against `reelforge all`: a newcomer uploads a picture in /upload, finds it
// on the workbench overview, starts a blank 9:16 task from /new-task, puts the picture into a template's
// picture slot from /put-image, and starts from the picture picked in the material workbench
// (/from-jiancai); each hand-off passes /loading and opens the editor on the new task, whose stored
// document is read back. The template with a picture slot is made first by an operations manager
// (granted with `reelforge admin grant`, which needs E2E_BIN), through the calls the manage pages use.
// A screenshot per step under <E2E_OUT>/start-journey/, the overview and /new-task also in en-US.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';
import { saveTask, uploadPicture } from './preview.mjs';
import { slotDocument, testPicture } from './template-journey.mjs';

/** Calls the API as the signed-in user (JSON body); answers the envelope. */
function call(page, method, url, body) {
  return page.evaluate(async ({ method, url, body }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    if (body) headers['Content-Type'] = 'application/json';
    const r = await fetch(`/diyvrbt${url}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    return r.json();
  }, { method, url, body });
}

export async function startJourney({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the start journey needs E2E_BIN (the reelforge binary) to grant the template manager its level');
  const dir = path.join(outDir, 'start-journey');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const stamp = Date.now().toString(36);

  /** Waits for the editor on a task after a hand-off, and answers the task as stored. */
  const editorOpened = async (what) => {
    await page.waitForURL((u) => /^#\/diy\?taskId=\d+/.test(new URL(u).hash), { timeout: 60_000 });
    const taskId = Number(/taskId=(\d+)/.exec(new URL(page.url()).hash)[1]);
    await page.getByTestId('diy-editor').waitFor({ timeout: 60_000 });
    const task = await call(page, 'GET', `/videotask/ofone/${taskId}`);
    assert(task.code === 2000, `${what}: GET /videotask/ofone/${taskId} answered ${JSON.stringify(task).slice(0, 300)}`);
    return task.data;
  };

  await afterShot(shot, async () => {
    // --- A template with a picture slot, made and approved by an operations manager. ---
    const manager = `e2e-start-manager-${Date.now()}@example.com`;
    execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
    await signIn(page, 'start-manager', manager);
    const own = await uploadPicture(page, 'photo', 'template-own.png');
    const templateTask = await saveTask(page, slotDocument(own.url), `放图模板 ${stamp}`, 41);
    const submitted = await call(page, 'POST', '/template/submit', { taskId: templateTask, kind: 'classic', categoryIds: [], sizeCategoryId: 41 });
    assert(submitted.code === 2000, `POST /template/submit answered ${JSON.stringify(submitted).slice(0, 300)}`);
    const templateId = submitted.data.id;
    const approved = await call(page, 'POST', '/template/audit', { id: templateId, approve: true });
    assert(approved.code === 2000, `POST /template/audit answered ${JSON.stringify(approved).slice(0, 300)}`);
    // The manager's session ends here: the newcomer signs in on a page without it.
    await page.evaluate(() => localStorage.removeItem('reelforge.user'));
    await page.reload();
    await go('#/login');

    // --- A newcomer: the empty overview, then a picture of their own. ---
    await signIn(page, 'start');
    await go('#/workbench');
    await page.getByTestId('workbench-home').waitFor();
    await page.getByTestId('workbench-storage-text').waitFor();
    await shot('workbench-new-user');
    await go('#/upload');
    await page.getByTestId('upload-page').waitFor();
    const picture = testPicture();
    await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles(picture);
    const item = page.locator('[data-testid="upload-item"][data-status="done"]', { hasText: path.basename(picture) });
    await item.waitFor({ timeout: 60_000 });
    const materialId = await item.getAttribute('data-material-id');
    const arrived = page.getByTestId('upload-arrived');
    await arrived.locator(`[data-testid="material-${materialId}"] [data-testid="material-state"][data-state="ready"]`).waitFor({ timeout: 120_000 });
    await arrived.getByTestId('upload-create').waitFor();
    await shot('upload');
    await go('#/workbench');
    await page.getByTestId(`workbench-material-${materialId}`).waitFor();
    const storage = await page.getByTestId('workbench-storage-text').textContent();
    assert(!/已用 0 B/.test(storage), `the overview's storage counts the upload: "${storage}"`);
    await shot('workbench-with-picture');

    // --- /new-task: a blank 9:16 task, named. ---
    await page.getByTestId('workbench-new-task').click();
    await page.getByTestId('new-task').waitFor();
    await page.getByTestId('new-task-ratio').getByText('9:16', { exact: true }).click();
    await page.getByTestId('new-task-name').fill(`竖屏新作 ${stamp}`);
    await shot('new-task');
    await page.getByTestId('new-task-start').click();
    const blank = await editorOpened('new-task');
    assert(blank.sizeCategoryId === 50 && blank.taskName === `竖屏新作 ${stamp}`, `the new task is 9:16 and named: ${blank.sizeCategoryId} "${blank.taskName}"`);
    assert(JSON.parse(blank.videoCreateInfo).resolutionRatio.name === '9:16', 'the new document is 9:16');
    await shot('new-task-editor');

    // --- /put-image: the picture into the template's picture slot. ---
    await go('#/put-image');
    await page.getByTestId('put-image').waitFor();
    await page.getByTestId('put-image-picture').getByTestId(`material-${materialId}`).click();
    const choose = page.getByTestId(`choose-template-${templateId}`);
    await choose.scrollIntoViewIfNeeded();
    await choose.click();
    await page.getByTestId('put-image-slots').waitFor();
    await page.getByTestId('put-image-name').fill(`放图作品 ${stamp}`);
    await page.getByTestId('put-image-start').scrollIntoViewIfNeeded();
    await shot('put-image');
    await page.getByTestId('put-image-start').click();
    const filled = await editorOpened('put-image');
    assert(filled.taskName === `放图作品 ${stamp}`, `the filled task is named: "${filled.taskName}"`);
    const layers = JSON.parse(filled.videoCreateInfo).scenes.flatMap((s) => s.layers);
    const slotLayer = layers.find((l) => l.type === 'picture');
    assert(slotLayer && String(slotLayer.src).includes(materialId) && !String(slotLayer.src).includes(own.id), `the picture slot holds the newcomer's picture: ${JSON.stringify(slotLayer).slice(0, 300)}`);
    await page.waitForTimeout(500);
    await shot('put-image-editor');

    // --- /from-jiancai: the picture picked in the material workbench. ---
    await go('#/workbench/my-material');
    await page.getByTestId(`material-select-${materialId}`).click();
    await page.getByTestId('create-from-selected').click();
    await page.getByTestId('from-jiancai').waitFor();
    await page.getByText('已选 1 个素材').waitFor();
    await shot('from-jiancai');
    await page.getByTestId('from-jiancai-start').click();
    const picked = await editorOpened('from-jiancai');
    const pickedLayers = JSON.parse(picked.videoCreateInfo).scenes.flatMap((s) => s.layers);
    assert(pickedLayers.length === 1 && String(pickedLayers[0].materialId ?? pickedLayers[0].src).includes(materialId), `the task holds the picked picture: ${JSON.stringify(pickedLayers).slice(0, 300)}`);
    await shot('from-jiancai-editor');

    // The overview follows a render: its row with progress while it runs, the work's tag once done.
    const run = await call(page, 'POST', '/videotask/runtask', { taskId: picked.id });
    assert(run.code === 2000, `POST /videotask/runtask answered ${JSON.stringify(run).slice(0, 300)}`);
    await go('#/workbench');
    const rendering = page.getByTestId(`workbench-render-${picked.id}`);
    const done = page.getByTestId('workbench-works').locator(`[data-testid="task-status"][data-status="10"]`);
    await rendering.or(done).first().waitFor({ timeout: 120_000 });
    if (await rendering.isVisible()) await shot('workbench-rendering');
    await done.waitFor({ timeout: 240_000 });
    await rendering.waitFor({ state: 'detached', timeout: 30_000 });
    await shot('workbench-rendered');

    // Someone else's material id is refused before any task is made.
    await go(`#/from-jiancai?ids=${own.id}`);
    await page.getByTestId('from-jiancai-unusable').waitFor();
    await shot('from-jiancai-not-yours');
    // The refusal's toast leaves before the English screens.
    await page.locator('.ant-message-notice').waitFor({ state: 'detached', timeout: 15_000 });

    // --- The overview and /new-task in English. ---
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await go('#/workbench');
    await page.getByRole('heading', { name: 'Workbench', level: 3 }).waitFor();
    await page.getByTestId(`workbench-work-${picked.id}`).waitFor();
    await shot('workbench-en');
    await go('#/new-task');
    await page.getByTestId('new-task-from').getByText('A template', { exact: true }).click();
    // The cards once loaded, not under the list's loading veil (a shot taken mid-load showed them faded).
    const chooser = page.getByTestId('template-chooser');
    await chooser.locator('[data-testid^="choose-template-"]').first().waitFor();
    await chooser.locator('.ant-spin-blur').waitFor({ state: 'detached' });
    await shot('new-task-template-en');
    await go('#/loading');
    await page.getByTestId('loading-nothing').waitFor();
    await shot('loading-nothing-en');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
