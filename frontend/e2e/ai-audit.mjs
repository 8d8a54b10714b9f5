// The issue-28 video auditing in Chromium against `reelforge all` (e2e.sh lists the example words
// 样例词 and "demo word" for [ai] video-auditing; tesseract with its Chinese and English data on the
// machine). /ai/list shows it available; /ai/ability/analyze-video-auditing: a 3 s clip whose second
// second shows "样例词" (GStreamer's textoverlay) is uploaded, audited on the farm, and flagged with
// the word, a time within that second and the frame's thumbnail with the box; a clip showing other
// words passes. Last, the page in en-US. Screenshots under <E2E_OUT>/ai-audit/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

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

    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByText('Start audit').waitFor();
    await page.getByTestId('audit-kind').getByText('My work').click();
    await shot('en-us-works');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
