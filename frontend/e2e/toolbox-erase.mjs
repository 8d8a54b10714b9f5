// Issue 27, the erasing tools in Chromium against `reelforge all`, through the UI as a user would go:
//   sign in; smart-watermark-remove (a hidden type, its page reachable): a 640×360 clip uploaded, a box
//   dragged on its frame (the numbers follow the drag, the box follows the numbers), blur, run and
//   watched over the progress stream, the result shown and downloaded; remove-captions: the band drawn
//   by its numbers, "find it for me" showing the lower third searched, in zh-CN then en-US.
//   Screenshots under <E2E_OUT>/toolbox-erase/.
// E2E_ONLY=toolbox-erase runs it alone.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';
import { fetchDownload, makeClip, numberInput, runAndWatch } from './toolbox-journey.mjs';

export async function toolboxErase({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'toolbox-erase', 'toolbox erase', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, shot, note }));
}

/** The box's place on the page as shares of the frame: left, top, width, height (0–1). */
async function boxShare(page, id) {
  return page.evaluate((testId) => {
    const frame = document.querySelector(`[data-testid="${testId}"]`)?.getBoundingClientRect();
    const box = document.querySelector(`[data-testid="${testId}-box"]`)?.getBoundingClientRect();
    if (!frame || !box) return null;
    return [(box.left - frame.left) / frame.width, (box.top - frame.top) / frame.height, box.width / frame.width, box.height / frame.height];
  }, id);
}

const near = (a, b) => Math.abs(a - b) < 0.02;

async function journey({ page, baseUrl, assert, signIn, shot, note }) {
  await signIn(page, 'toolbox-erase');
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-toolbox-erase-'));
  const clip = makeClip(scratch);
  note(`clip ${statSync(clip).size} bytes`);

  // --- smart-watermark-remove: upload, drag a box on the frame, blur, run. ---
  await page.goto(`${baseUrl}/#/tools/smart-watermark-remove`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
  await page.getByTestId('tool-input-picker').getByTestId('material-upload').locator('input[type=file]').setInputFiles(clip);
  // The frame takes drags once the clip is probed (its size known): the player shows then.
  await page.getByTestId('input-preview').waitFor({ timeout: 90_000 });
  await page.getByTestId('frame-box').waitFor();
  const videoId = await page.getByTestId('tool-input-picker').getByTestId('upload-item').first().getAttribute('data-material-id');
  note(`video ${videoId}`);
  // Drag from a quarter across and down to the middle: the box is 160×90 at (160, 90) of 640×360.
  const frame = await page.getByTestId('frame-box').boundingBox();
  assert(frame && frame.width > 100, `the frame is shown: ${JSON.stringify(frame)}`);
  await page.mouse.move(frame.x + frame.width * 0.25, frame.y + frame.height * 0.25);
  await page.mouse.down();
  await page.mouse.move(frame.x + frame.width * 0.4, frame.y + frame.height * 0.4, { steps: 4 });
  await page.mouse.move(frame.x + frame.width * 0.5, frame.y + frame.height * 0.5, { steps: 4 });
  await page.mouse.up();
  const drawn = await Promise.all(['x', 'y', 'width', 'height'].map((k) => numberInput(page, `option-box-${k}`).inputValue()));
  const [x, y, w, h] = drawn.map(Number);
  assert(Math.abs(x - 160) <= 3 && Math.abs(y - 90) <= 3 && Math.abs(w - 160) <= 4 && Math.abs(h - 90) <= 4, `the drag set the box: ${drawn.join(', ')}`);
  // The numbers move the box live.
  await numberInput(page, 'option-box-x').fill('320');
  await numberInput(page, 'option-box-x').blur();
  const moved = await boxShare(page, 'frame-box');
  assert(moved && near(moved[0], 0.5) && near(moved[2], w / 640), `the box follows the numbers: ${JSON.stringify(moved)}`);
  await page.getByTestId('option-method').getByText('模糊').click();
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="tool-run-button"]');
    return b && !b.disabled;
  }, undefined, { timeout: 90_000 });
  await shot('watermark-options');
  const started = page.waitForRequest((r) => r.url().includes('/diyvrbt/toolbox/run') && r.method() === 'POST');
  await runAndWatch({ page, assert, note }, 'smart-watermark-remove');
  const body = (await started).postDataJSON();
  assert(
    body.type === 'VIDEO_REMOVE_WATERMARK' && body.params.x === 320 && body.params.y === y && body.params.method === 'blur',
    `the run asked for the drawn box: ${JSON.stringify(body)}`,
  );
  await page.getByTestId('output-video').waitFor();
  const facts = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(facts.includes('640×360'), `the result keeps the video's frame: "${facts}"`);
  const mp4 = await fetchDownload(page, await page.getByTestId('download-0').getAttribute('href'));
  assert(mp4.status === 200 && mp4.size > 0, `the result downloads: ${JSON.stringify(mp4)}`);
  note(`smart-watermark-remove: ${mp4.size} bytes, ${facts}`);
  await shot('watermark-result');

  // --- remove-captions: a band by its numbers, then "find it for me". ---
  await page.goto(`${baseUrl}/#/tools/remove-captions`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  await numberInput(page, 'option-box-y').fill('288');
  await numberInput(page, 'option-box-y').blur();
  await numberInput(page, 'option-box-height').fill('36');
  await numberInput(page, 'option-box-height').blur();
  const band = await boxShare(page, 'frame-box');
  assert(band && near(band[0], 0) && near(band[1], 0.8) && near(band[2], 1) && near(band[3], 0.1), `the band spans the width at its rows: ${JSON.stringify(band)}`);
  await shot('captions-band');
  await page.getByTestId('option-band-mode').getByText('自动识别').click();
  const searched = await boxShare(page, 'frame-box');
  assert(searched && near(searched[1], 2 / 3) && near(searched[3], 1 / 3), `the lower third is searched: ${JSON.stringify(searched)}`);
  await shot('captions-detect');

  // --- The same page in English. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  const label = (await page.getByTestId('option-band-mode').textContent()) ?? '';
  assert(label.includes('Draw the band') && label.includes('Find it for me'), `the modes in English: "${label}"`);
  await shot('en-captions-detect');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
