// The issue-28 video auditing in Chromium against `reelforge all` (e2e.sh lists the example words
// 样例词 and "demo word" for [ai] video-auditing; tesseract with its Chinese and English data on the
// machine). /ai/list shows it available; /ai/ability/analyze-video-auditing: a 3 s clip whose second
// second shows "样例词" (GStreamer's textoverlay) is uploaded, audited on the farm, and flagged with
// the word, a time within that second and the frame's thumbnail with the box; a clip showing other
// words passes. Then 我的作品: a work rendered on the farm whose title "样例词" shows from 2 s to 3 s,
// with a second text layer spelling "d.e.m.o w-o-r-d" off the picture, is flagged on its frames (at
// 0:02.x) and in both text layers (named by id). Last, the page in en-US. Screenshots under
// <E2E_OUT>/ai-audit/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterShot, api, shooter } from './lib.mjs';
import { saveTask } from './preview.mjs';

/** A 640×360 clip of three one-second parts on black, the middle one showing `caption`. */
function clip(name, caption) {
  const file = path.join(os.tmpdir(), `audit-e2e-${process.pid}-${name}.mp4`);
  const part = (text) =>
    ['videotestsrc', 'num-buffers=25', 'pattern=black', '!', 'video/x-raw,format=I420,width=640,height=360,framerate=25/1']
      .concat(text ? ['!', 'textoverlay', `text=${text}`, 'font-desc=Noto Sans CJK SC 40', 'valignment=center', 'halignment=center'] : [])
      .concat(['!', 'videoconvert', '!', 'c.']);
  execFileSync('gst-launch-1.0', ['-q', 'concat', 'name=c', '!', 'videoconvert', '!', 'x264enc', 'speed-preset=ultrafast', '!', 'mp4mux', '!', 'filesink', `location=${file}`, ...part(''), ...part(caption), ...part('')]);
  return file;
}

/** Uploads a clip; the page picks the new material (its card outlined), and the run is offered. */
async function upload(page, file, name) {
  await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles({ name, mimeType: 'video/mp4', buffer: readFileSync(file) });
  await page.waitForFunction((name) => (document.querySelector('[data-testid="audit-input"] [data-selected="true"]')?.textContent ?? '').includes(name), name, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="audit-run"]')?.hasAttribute('disabled'), undefined, { timeout: 60_000 });
}

/** A 4 s 640×360 work rendered on the farm: its title 样例词 from 2 s to 3 s, a hidden "demo word" layer. */
async function renderedWork(page, assert) {
  const word = (id, content, x, y, fontSize, startTime, endTime) => ({ type: 'word', id, z: 101, x, y, w: 320, h: 100, startTime, endTime, rotate: 0, content, fontSize, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 });
  const rule = {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 640 },
    scenes: [{ type: 'canvas', timeLength: 4, bgColor: '#000000', effectTime: 1, isActive: true, layers: [
      word('title', '样例词', 160, 130, 64, 2, 3),
      word('hidden', 'd.e.m.o w-o-r-d', 5000, 5000, 20, 0, 4),
    ] }],
    audio: [],
  };
  const taskId = await saveTask(page, rule, '审核样片', 41);
  const run = await api(page, '/videotask/runtask', { taskId });
  assert(run.code === 2000, `runtask answered ${JSON.stringify(run).slice(0, 300)}`);
  for (let i = 0; i < 240; i += 1) {
    const t = await api(page, `/videotask/ofone/${taskId}`);
    if (t.data?.status === 10) return taskId;
    assert(t.data?.status !== 9, `the work failed to render: ${t.data?.reason}`);
    await page.waitForTimeout(500);
  }
  assert(false, 'the work never rendered');
  return taskId;
}

export async function aiAudit({ page, baseUrl, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'ai-audit');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, async () => {
    await signIn(page, 'aiaudit');
    const flagged = clip('flagged', '这里有样例词');
    const clean = clip('clean', '欢迎观看');

    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('group-analyze').waitFor();
    const listed = (await page.getByTestId('ability-video-auditing').textContent()) ?? '';
    assert(listed.includes('可用'), `video auditing is listed available: "${listed}"`);
    await page.getByTestId('ability-video-auditing').click();
    await page.getByTestId('audit-panel').waitFor();
    await upload(page, flagged, 'flagged.mp4');
    await shot('picked');
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-progress').waitFor({ timeout: 15_000 });
    await shot('running');
    await page.getByTestId('audit-verdict').waitFor({ timeout: 120_000 });
    assert((await page.getByTestId('audit-verdict').getAttribute('data-verdict')) === 'flagged', 'the clip with the word is flagged');
    const words = await page.getByTestId('audit-word').allTextContents();
    assert(words.length >= 1 && words.every((w) => w === '样例词'), `the listed word is named: ${JSON.stringify(words)}`);
    const times = await page.getByTestId('audit-time').allTextContents();
    assert(times.every((t) => /0:01\.\d/.test(t)), `found while it is shown, in the clip's second second: ${JSON.stringify(times)}`);
    await page.getByTestId('audit-frame').first().waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="audit-frame"]');
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
    }, undefined, { timeout: 15_000 });
    const box = await page.getByTestId('audit-box').first().boundingBox();
    const frame = await page.getByTestId('audit-frame').first().boundingBox();
    assert(box && frame && box.x > frame.x && box.x + box.width < frame.x + frame.width, `the box lies on the frame: ${JSON.stringify({ box, frame })}`);
    await page.getByTestId('audit-report').scrollIntoViewIfNeeded();
    await shot('flagged');

    await upload(page, clean, 'clean.mp4');
    await page.getByTestId('audit-run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="audit-verdict"]')?.getAttribute('data-verdict') === 'pass', undefined, { timeout: 120_000 });
    await shot('passed');

    const work = await renderedWork(page, assert);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByTestId('audit-kind').getByText('我的作品').click();
    await page.getByTestId(`audit-work-${work}`).click();
    await page.getByTestId('audit-run').click();
    await page.getByTestId('audit-verdict').waitFor({ timeout: 120_000 });
    assert((await page.getByTestId('audit-verdict').getAttribute('data-verdict')) === 'flagged', 'the work is flagged');
    const workTimes = await page.getByTestId('audit-time').allTextContents();
    assert(workTimes.length >= 1 && workTimes.every((t) => /0:02\.\d/.test(t)), `the title's frames, while it is shown: ${JSON.stringify(workTimes)}`);
    const layers = await page.getByTestId('audit-layer').allTextContents();
    assert(layers.some((l) => l.includes('title')) && layers.some((l) => l.includes('hidden')), `both text layers named: ${JSON.stringify(layers)}`);
    await page.getByTestId('audit-report').scrollIntoViewIfNeeded();
    await shot('work-flagged');

    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByText('Start audit').waitFor();
    await page.getByTestId('audit-kind').getByText('My work').click();
    await shot('en-us-works');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
