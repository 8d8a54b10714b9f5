// The issue-14 journey in Chromium against `reelforge all`.
//
// The starter templates have text slots only (services/task/src/template.rs `starters()`), so the
// journey first makes a template with a text and a picture slot the way the product does: an
// operations manager (level 3, granted with `reelforge admin grant`, which needs E2E_BIN) saves a
// work, offers it from /my-works and approves it in /manage/check-template. Then a fresh user
// uploads a picture in /workbench/my-material, picks that template in /template-select, replaces
// its text and picture slots in the slot filling drawer, makes the work, finds it under /my-works
// by its name, runs it, watches its state change, plays it and downloads the MP4, whose duration
// gst-discoverer-1.0 reads. A screenshot per step under <E2E_OUT>/template-journey/, the template
// select and slot filling screens also in en-US.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { discoveredSeconds } from './editor-journey.mjs';
import { saveTask, uploadPicture } from './preview.mjs';
import { shooter } from './lib.mjs';

const SECONDS = 3;

/** A three-second 16:9 document with one text slot (at most 12 characters) and one picture slot. */
export function slotDocument(pictureUrl) {
  const layer = (id, z, x, y, w, h) => ({ id, z, x, y, w, h, startTime: 0, endTime: SECONDS, rotate: 0, canModify: 1 });
  return {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
    scenes: [{ type: 'canvas', timeLength: SECONDS, bgColor: '#0f172a', effectTime: 1, isActive: true, layers: [
      { type: 'picture', ...layer(1, 101, 40, 60, 300, 200), src: pictureUrl },
      { type: 'word', ...layer(2, 102, 360, 120, 260, 80), content: '模板标题', fontSize: 36, color: '#ffffff', textAlign: 'center', lineHeight: 1.2, maxLength: 12 },
    ] }],
    audio: [],
  };
}

/** A 640×360 PNG from GStreamer's test source, named as a user's photo would be. */
export function testPicture() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rf-tmpl-')), '我的照片.png');
  execFileSync('gst-launch-1.0', ['-q', 'videotestsrc', 'num-buffers=1', 'pattern=ball', '!', 'video/x-raw,width=640,height=360', '!', 'pngenc', '!', 'filesink', `location=${file}`], { stdio: 'pipe' });
  return file;
}

/** Whether the locator is one picture that has loaded (not broken, not missing). */
async function pictureShown(locator) {
  if ((await locator.count()) !== 1) return false;
  return locator.evaluate((img) => (img.complete ? img.naturalWidth > 0 : new Promise((done) => {
    img.addEventListener('load', () => done(img.naturalWidth > 0));
    img.addEventListener('error', () => done(false));
  })));
}

export async function templateJourney({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the template journey needs E2E_BIN (the reelforge binary) to grant the template manager its level');
  const dir = path.join(outDir, 'template-journey');
  mkdirSync(dir, { recursive: true });
  // Antd's entry animations settle first so the picture shows what a user sees.
  const shot = shooter(page, dir, 'animations');
  const go = async (hash) => {
    await page.evaluate((h) => (window.location.hash = h), hash);
  };
  const findings = [];
  const expect = (condition, message) => {
    if (!condition) {
      findings.push(message);
      console.log(`template journey finding: ${message}`);
    }
  };
  const stamp = Date.now().toString(36);
  const templateName = `图文模板 ${stamp}`;
  const workName = `我的图文 ${stamp}`;

  // --- The template: made, offered and approved by an operations manager. ---
  const manager = `e2e-manager-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'manager', manager);
  const authorPic = await uploadPicture(page, 'photo', 'template-picture.png');
  const authorTask = await saveTask(page, slotDocument(authorPic.url), templateName, 41);
  await go('#/my-works');
  await page.getByTestId(`work-${authorTask}`).waitFor();
  await page.getByTestId(`submit-template-${authorTask}`).click();
  const submitOk = page.getByTestId('submit-ok');
  await submitOk.waitFor();
  await shot('manager-submit-as-template');
  const [submitting] = await Promise.all([page.waitForResponse((r) => r.url().includes('/diyvrbt/template/submit')), submitOk.click()]);
  const submitted = await submitting.json();
  assert(submitted.code === 2000, `POST /template/submit answered ${JSON.stringify(submitted).slice(0, 300)}`);
  const templateId = submitted.data.id;
  await go('#/manage/check-template/pending');
  await page.getByTestId(`check-${templateId}`).click();
  await page.getByTestId('detail-slots').locator('.ant-table-row').nth(1).waitFor();
  expect(await pictureShown(page.getByTestId('detail-slots').getByTestId('slot-picture')), 'the check detail shows the picture slot as a picture');
  await shot('manager-check-detail');
  await page.getByTestId('approve').click();
  await page.locator('.ant-message').getByText('已通过审核').waitFor();
  await page.getByTestId('approve').waitFor({ state: 'detached' });
  await shot('manager-approved');
  await page.getByTestId('user-status').click();
  await page.getByTestId('menu-logout').dispatchEvent('click'); // not by position: the menu may still be sliding open
  await page.getByTestId('user-status').getByText('登录').waitFor();

  // --- A fresh user: a picture of their own first. ---
  await go('#/login');
  await signIn(page, 'template');
  await go('#/workbench/my-material');
  await page.getByTestId('my-material').waitFor();
  const picture = testPicture();
  await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles(picture);
  const item = page.locator('[data-testid="upload-item"][data-status="done"]', { hasText: path.basename(picture) });
  await item.waitFor({ timeout: 60_000 });
  const materialId = await item.getAttribute('data-material-id');
  await page.locator(`[data-testid="material-${materialId}"] [data-testid="material-state"][data-state="ready"]`).waitFor({ timeout: 120_000 });
  await shot('material-ready');

  // Pick the template.
  await go('#/template-select');
  const card = page.getByTestId(`template-${templateId}`);
  await card.scrollIntoViewIfNeeded();
  const slotsLine = await card.getByTestId('template-slots').textContent();
  expect(/文字 1/.test(slotsLine) && /图片 1/.test(slotsLine), `the card counts one text and one picture slot: "${slotsLine}"`);
  await shot('template-select');
  await page.getByTestId(`use-${templateId}`).click();
  await page.getByTestId('fill-form').waitFor();
  expect(await pictureShown(page.getByTestId('slot-media-1').getByTestId('slot-picture')), "the picture slot shows the template's own picture before it is replaced");
  await shot('fill-drawer');

  // Replace the text slot and the picture slot.
  const text = page.getByTestId('slot-text-2');
  expect((await text.inputValue()) === '模板标题', `the text slot starts with the template's text: "${await text.inputValue()}"`);
  await text.fill('新店开业 八折');
  await page.getByTestId('slot-pick-1').click();
  const picker = page.getByRole('dialog').filter({ hasText: '选择图片' });
  await picker.getByTestId(`material-${materialId}`).waitFor();
  await shot('slot-picker');
  await picker.getByTestId(`material-${materialId}`).click();
  await picker.waitFor({ state: 'hidden' });
  const chosen = page.getByTestId('slot-media-1');
  await chosen.getByTestId('slot-media-name').getByText(path.basename(picture)).waitFor();
  expect(await pictureShown(chosen.getByTestId('slot-picture')), 'the picture slot shows the chosen picture');
  await page.getByTestId('fill-name').fill(workName);
  await shot('slots-filled');

  // Make the work; the second button lands on my works.
  const [filling] = await Promise.all([page.waitForResponse((r) => r.url().includes('/diyvrbt/template/fill')), page.getByTestId('fill-works').click()]);
  const filled = await filling.json();
  assert(filled.code === 2000, `POST /template/fill answered ${JSON.stringify(filled).slice(0, 300)}`);
  const taskId = filled.data.taskId;
  await page.waitForURL((u) => new URL(u).hash.startsWith('#/my-works'));
  await page.getByTestId('my-works').waitFor();
  await page.locator('.ant-message').getByText(`已生成作品「${workName}」`).waitFor();
  await shot('landed-my-works');

  // Find it by its name.
  const search = page.getByTestId('works-search').locator('input');
  await search.fill(workName);
  await search.press('Enter');
  const work = page.getByTestId(`work-${taskId}`);
  await work.waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="work-"][class*="ant-card"]').length === 1);
  expect((await work.getByTestId('work-name').textContent()) === workName, 'the found work carries the name given');
  await shot('found-by-name');

  // Run it and record every state its tag shows until it is done.
  await page.evaluate((id) => {
    const seen = [];
    window.__templateJourneyStates = seen;
    const read = () => {
      const status = document.querySelector(`[data-testid="work-${id}"] [data-testid="task-status"]`)?.getAttribute('data-status');
      if (status && seen.at(-1) !== status) seen.push(status);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  }, taskId);
  await work.getByTestId(`run-${taskId}`).click();
  await page.locator('.ant-message').getByText('任务已在后台运行').waitFor();
  await work.locator('[data-testid="task-status"][data-status="0"], [data-testid="task-status"][data-status="1"]').waitFor();
  await shot('running');
  // A short render may finish before its progress bar is drawn: the shot is taken when there is one.
  await work.locator(`[data-testid="task-progress"], [data-testid="preview-${taskId}"]`).first().waitFor({ timeout: 120_000 });
  if (await work.getByTestId('task-progress').isVisible()) await shot('progress');
  await work.getByTestId(`preview-${taskId}`).waitFor({ timeout: 240_000 });
  await shot('done');
  const states = await page.evaluate(() => window.__templateJourneyStates);
  console.log(`template journey states: ${states.join(' → ')}`);
  assert(states.at(-1) === '10', `the work ended in state ${states.at(-1)} (seen ${states.join(' → ')})`);
  expect(states.some((s) => s === '0' || s === '1'), `the work showed waiting or executing before done (seen ${states.join(' → ')})`);

  // Play it in the page.
  await work.getByTestId(`preview-${taskId}`).click();
  const video = page.getByTestId('task-video');
  await video.waitFor();
  await page.waitForFunction(() => (document.querySelector('[data-testid="task-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  await page.evaluate(() => {
    const v = document.querySelector('[data-testid="task-video"]');
    v.muted = true;
    return v.play();
  });
  await page.waitForFunction(() => (document.querySelector('[data-testid="task-video"]')?.currentTime ?? 0) > 1, undefined, { timeout: 20_000 });
  await shot('playing');
  await page.keyboard.press('Escape');

  // Download it as the card's link does and check the duration.
  const link = work.locator(`[data-testid="download-${taskId}"][href*="ticket="]`);
  await link.waitFor();
  const mp4 = await page.evaluate(async (href) => {
    const r = await fetch(href);
    const bytes = new Uint8Array(await r.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: r.status, type: r.headers.get('content-type'), b64: btoa(s) };
  }, await link.getAttribute('href'));
  assert(mp4.status === 200 && (mp4.type ?? '').startsWith('video/'), `download answered ${mp4.status} ${mp4.type}`);
  const file = path.join(dir, `task-${taskId}.mp4`);
  writeFileSync(file, Buffer.from(mp4.b64, 'base64'));
  const seconds = discoveredSeconds(file);
  console.log(`template journey MP4 duration: ${seconds.toFixed(3)} s (the template: ${SECONDS} s)`);
  assert(Math.abs(seconds - SECONDS) < 0.2, `the MP4 lasts ${seconds} s, the template ${SECONDS} s`);

  // The same two screens in English.
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await go('#/template-select');
  await page.getByRole('heading', { name: 'Templates', level: 3 }).waitFor();
  await page.getByTestId(`template-${templateId}`).scrollIntoViewIfNeeded();
  await shot('template-select-en');
  await page.getByTestId(`use-${templateId}`).click();
  await page.getByTestId('fill-form').waitFor();
  await shot('fill-drawer-en');
  await page.keyboard.press('Escape');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByRole('heading', { name: '模板选择', level: 3 }).waitFor();
  assert(findings.length === 0, `the template journey found: ${findings.join('; ')}`);
}
