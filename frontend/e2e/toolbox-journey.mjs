// The issue-27 journey in Chromium against `reelforge all`, through the UI as a user would go:
//   sign in; the catalogue (/tools-index); a 4 s clip with sound (GStreamer: bars and a tone, H.264 and
//   AAC in MP4) uploaded from the extract-audio page with its progress, probed until ready; three tools
//   run from their pages on it: extract-audio (WAV), video-to-gif (1–3 s, 10 fps, 320 px, its size
//   estimate) and video-compress (a target size, its estimate), each watched to its end over the
//   progress stream (stage and percent), its result shown (audio player, the GIF, the video player)
//   and fetched as the download link fetches it; the GIF's result put "in the editor" (a material of
//   mine, then the editor opened); my tools listing the three runs. The GIF page and my tools also
//   in en-US. Screenshots under <E2E_OUT>/toolbox-journey/.
// In the default list; E2E_ONLY=toolbox-journey runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';

/** How long a tool run may take on the farm. */
const RUN_MS = 120_000;
/** The compress target, bytes (the clip is larger than this). */
const TARGET_MB = 0.1;

/** Makes a 4 s 640×360 clip with a 440 Hz tone (H.264 + AAC in MP4) in `dir`; answers its path. */
export function makeClip(dir) {
  const file = path.join(dir, '工具箱片段.mp4');
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    'videotestsrc', 'num-buffers=100', 'pattern=smpte', '!', 'video/x-raw,width=640,height=360,framerate=25/1', '!', 'videoconvert', '!',
    'x264enc', 'speed-preset=faster', 'bitrate=2000', '!', 'h264parse', '!', 'mux.',
    'audiotestsrc', 'wave=sine', 'freq=440', 'num-buffers=172', '!', 'audioconvert', '!', 'avenc_aac', '!', 'aacparse', '!', 'mux.',
    'mp4mux', 'name=mux', '!', 'filesink', `location=${file}`,
  ], { stdio: 'pipe', timeout: 120_000 });
  return file;
}

/** The input of a number field, wherever antd puts the field's test id (on the input, or around it). */
export const numberInput = (page, id) => page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

/** Fetches a result as the page's download link does (with its ticket); answers its status, type and size. */
export async function fetchDownload(page, href) {
  return page.evaluate(async (url) => {
    const r = await fetch(url);
    const bytes = await r.arrayBuffer();
    return { status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'), size: bytes.byteLength };
  }, href);
}

export async function toolboxJourney({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'toolbox-journey', 'toolbox journey', ({ shot, note, dir }) => journey({ page, baseUrl, assert, signIn, shot, note, dir }));
}

/** Runs the tool of the page open now on the chosen clip and waits for its end; answers the run's id. */
export async function runAndWatch({ page, assert, note }, name) {
  const started = page.waitForResponse((r) => r.url().includes('/diyvrbt/toolbox/run') && r.request().method() === 'POST', { timeout: 30_000 });
  await page.getByTestId('tool-run-button').click();
  const answer = await (await started).json();
  assert(answer.code === 2000 && answer.data?.taskId, `${name}: POST /toolbox/run answered ${JSON.stringify(answer).slice(0, 300)}`);
  const taskId = answer.data.taskId;
  note(`${name}: run ${taskId} started`);
  // Progress: the stage and percent from the stream, until the run has ended.
  await page.getByTestId('task-progress').waitFor();
  const seen = new Set();
  const deadline = Date.now() + RUN_MS;
  let status = null;
  while (Date.now() < deadline) {
    status = await page.getByTestId('tool-run').getAttribute('data-status');
    const stage = await page.getByTestId('task-stage').textContent().catch(() => '');
    if (stage) seen.add(stage);
    if (['9', '10', '11'].includes(status)) break;
    await page.waitForTimeout(200);
  }
  note(`${name}: stages seen ${[...seen].join(' → ')}; status ${status}`);
  if (status === '9') {
    const why = await page.getByTestId('tool-failed').textContent().catch(() => '');
    throw new Error(`${name}: the run failed: ${why}`);
  }
  assert(status === '10', `${name}: the run did not finish in ${RUN_MS / 1000} s (status ${status})`);
  await page.getByTestId('tool-outputs').waitFor({ timeout: 30_000 });
  return taskId;
}

async function journey({ page, baseUrl, assert, signIn, shot, note, dir }) {
  await signIn(page, 'toolbox');

  // --- The catalogue: the six tools available, the others saying why not. ---
  await page.goto(`${baseUrl}/#/tools-index`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('catalogue-extract-audio').waitFor({ timeout: 20_000 });
  for (const tool of ['extract-audio', 'video-to-gif', 'video-compress']) {
    assert((await page.getByTestId(`catalogue-${tool}`).getAttribute('data-available')) === 'true', `the catalogue lists ${tool} as available`);
  }
  await shot('catalogue');

  // --- extract-audio: the clip uploaded from the page, with its progress, then chosen. ---
  const clip = makeClip(mkdtempSync(path.join(tmpdir(), 'rf-toolbox-')));
  note(`clip ${path.basename(clip)}, ${statSync(clip).size} bytes`);
  await page.goto(`${baseUrl}/#/tools/extract-audio`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
  await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles(clip);
  await page.getByTestId('upload-item').first().waitFor();
  await shot('extract-audio-uploading');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="upload-item"]')].every((el) => el.dataset.status !== 'uploading'), undefined, { timeout: 60_000 });
  const materialId = await page.getByTestId('upload-item').first().getAttribute('data-material-id');
  assert(materialId, 'the upload answered a material id');
  note(`material ${materialId} uploaded`);
  // The upload is chosen at once; the options come when probing has found its length and sound.
  await page.getByTestId('input-preview').waitFor({ timeout: 90_000 });
  await page.getByTestId('option-format').getByText('WAV', { exact: false }).click();
  await shot('extract-audio-options');
  const audioRun = await runAndWatch({ page, assert, note }, 'extract-audio');
  await page.getByTestId('output-audio').waitFor();
  await shot('extract-audio-result');
  const wav = await fetchDownload(page, await page.getByTestId('download-0').getAttribute('href'));
  assert(wav.status === 200 && wav.size > 44, `the WAV downloads: ${JSON.stringify(wav)}`);
  note(`extract-audio: ${wav.size} bytes, ${wav.type}`);

  // --- video-to-gif: a stretch, frame rate and width, its size estimate; then "use in the editor". ---
  await page.goto(`${baseUrl}/#/tools/video-to-gif`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${materialId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor();
  await numberInput(page, 'gif-start').fill('1');
  await numberInput(page, 'gif-end').fill('3');
  await numberInput(page, 'option-fps').fill('10');
  await numberInput(page, 'option-width').fill('320');
  await numberInput(page, 'option-width').blur();
  const estimate = (await page.getByTestId('estimate').textContent()) ?? '';
  assert(estimate.includes('320×180') && estimate.includes('20 帧'), `the GIF estimate names its frame and frames: "${estimate}"`);
  await shot('gif-options');
  const gifRun = await runAndWatch({ page, assert, note }, 'video-to-gif');
  await page.getByTestId('output-picture').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="output-picture"]')?.naturalWidth > 0, undefined, { timeout: 20_000 });
  const gif = await fetchDownload(page, await page.getByTestId('download-0').getAttribute('href'));
  assert(gif.status === 200 && gif.type?.includes('gif'), `the GIF downloads as a GIF: ${JSON.stringify(gif)}`);
  note(`video-to-gif: ${gif.size} bytes (estimate "${estimate}")`);
  await page.getByTestId('use-0').click();
  await page.getByTestId('output-used').waitFor({ timeout: 30_000 });
  const usedId = await page.getByTestId('output-used').getAttribute('data-material-id');
  note(`video-to-gif: result is material ${usedId}`);
  await shot('gif-result-in-library');
  await page.getByTestId('open-editor').click();
  await page.waitForURL(/#\/diy/);
  await page.locator('#editor').waitFor({ timeout: 30_000 });
  await shot('editor-opened');

  // --- video-compress: a target size and its estimate. ---
  await page.goto(`${baseUrl}/#/tools/video-compress`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${materialId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor();
  await page.getByTestId('option-compress-by').getByText('目标大小').click();
  await numberInput(page, 'option-target').fill(String(TARGET_MB));
  await numberInput(page, 'option-target').blur();
  await shot('compress-options');
  const compressRun = await runAndWatch({ page, assert, note }, 'video-compress');
  await page.getByTestId('output-video').waitFor();
  await shot('compress-result');
  const mp4 = await fetchDownload(page, await page.getByTestId('download-0').getAttribute('href'));
  assert(mp4.status === 200 && mp4.size > 0, `the compressed video downloads: ${JSON.stringify(mp4)}`);
  note(`video-compress: ${mp4.size} bytes for a ${TARGET_MB} MB target`);

  // --- My tools: the three runs, done. ---
  await page.goto(`${baseUrl}/#/my-tool`, { waitUntil: 'domcontentloaded' });
  for (const id of [audioRun, gifRun, compressRun]) await page.getByTestId(`result-${id}`).waitFor({ timeout: 20_000 });
  await shot('my-tools');
  await page.getByTestId(`result-${gifRun}`).click();
  await page.getByTestId('output-picture').waitFor();
  await shot('my-tools-result');
  await page.keyboard.press('Escape');

  // --- The same in English: the GIF page and my tools. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'My tools', level: 3 }).waitFor();
  // The English text is set in a proportional face at its normal spacing (a fallback to a monospaced
  // or full-width face once spread its letters and digits wide): ten i's are far narrower than ten
  // M's, and ten digits narrower than ten CJK characters, in the page's own fonts.
  const widths = await page.evaluate(() => {
    const heading = document.querySelector('h3');
    const host = heading?.parentElement ?? document.body;
    const measure = (text) => {
      const el = document.createElement('span');
      el.textContent = text;
      el.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
      host.appendChild(el);
      const w = el.getBoundingClientRect().width;
      el.remove();
      return Math.round(w);
    };
    return {
      i: measure('iiiiiiiiii'),
      m: measure('MMMMMMMMMM'),
      digits: measure('0123456789'),
      han: measure('工具工具工具工具工具'),
      spacing: getComputedStyle(heading ?? document.body).letterSpacing,
      lang: document.documentElement.lang,
    };
  });
  note(`en-US text widths: ${JSON.stringify(widths)}`);
  assert(widths.i < widths.m * 0.5 && widths.digits < widths.han * 0.75 && widths.spacing === 'normal', `English text spread wide: ${JSON.stringify(widths)}`);
  await shot('en-my-tools');
  await page.goto(`${baseUrl}/#/tools/video-to-gif`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${materialId}`).click({ timeout: 20_000 });
  await page.getByTestId('estimate').waitFor();
  const english = (await page.getByTestId('estimate').textContent()) ?? '';
  assert(english.startsWith('About'), `the English estimate: "${english}"`);
  await shot('en-gif-options');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  writeFileSync(path.join(dir, 'runs.json'), `${JSON.stringify({ materialId, audioRun, gifRun, compressRun, usedId }, null, 2)}\n`);
}
