// Issue 28, the media abilities (docs/ai.md "Media abilities") in Chromium against `reelforge all`, from their
// ability pages as a user would go: sign in; audio noise reduction: a noisy 440 Hz tone uploaded from the
// page, the method said, "high", run on the farm and watched to its end, the cleaned WAV in a player;
// cover generation: a clip of black, blurred bars and sharp bars uploaded, two covers asked for, both shown
// as pictures and the best one from the sharp bars; the cover page again in en-US.
// Screenshots under <E2E_OUT>/ai-media/. E2E_ONLY=ai-media runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';
import { numberInput } from './toolbox-journey.mjs';
import { upload } from './toolbox-more.mjs';

const RUN_MS = 120_000;

/** Makes 5 s of a 440 Hz tone in white noise in `dir`; answers its path. */
function makeNoisy(dir) {
  const file = path.join(dir, '嘈杂录音.wav');
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    'audiomixer', 'name=m', '!', 'audio/x-raw,rate=48000,channels=1', '!', 'audioconvert', '!', 'wavenc', '!', 'filesink', `location=${file}`,
    'audiotestsrc', 'wave=sine', 'freq=440', 'volume=0.3', 'num-buffers=500', 'samplesperbuffer=480', '!', 'audio/x-raw,rate=48000,channels=1', '!',
    'm.',
    'audiotestsrc', 'wave=white-noise', 'volume=0.08', 'num-buffers=500', 'samplesperbuffer=480', '!', 'audio/x-raw,rate=48000,channels=1', '!', 'm.',
  ], { stdio: 'pipe', timeout: 60_000 });
  return file;
}

/** Makes a 3 s 640×360 clip in `dir`: 1 s black, 1 s of the colour bars blurred, 1 s of them sharp and moving. */
function makeClip(dir) {
  const file = path.join(dir, '封面素材.mp4');
  const part = (...src) => [...src, '!', 'video/x-raw,format=I420,width=640,height=360,framerate=25/1', '!', 'c.'];
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    'concat', 'name=c', '!', 'x264enc', 'speed-preset=ultrafast', 'key-int-max=25', '!', 'h264parse', '!', 'mp4mux', '!', 'filesink', `location=${file}`,
    ...part('videotestsrc', 'num-buffers=25', 'pattern=black'),
    ...part('videotestsrc', 'num-buffers=25', 'pattern=smpte', '!', 'video/x-raw,width=32,height=18', '!', 'videoscale', 'method=bilinear'),
    ...part('videotestsrc', 'num-buffers=25', 'pattern=smpte', 'horizontal-speed=3'),
  ], { stdio: 'pipe', timeout: 60_000 });
  return file;
}

/** Waits until the page's run button can be pressed (the input probed and ready). */
async function runnable(page) {
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="media-run"]');
    return b && !b.disabled;
  }, undefined, { timeout: 90_000 });
}

/** Runs the page's ability and follows it to its end; answers the task id. */
async function runAndWatch({ page, assert, note }, name) {
  const started = page.waitForResponse((r) => r.url().includes('/diyvrbt/toolbox/run') && r.request().method() === 'POST', { timeout: 30_000 });
  await page.getByTestId('media-run').click();
  const answer = await (await started).json();
  assert(answer.code === 2000 && answer.data?.taskId, `${name}: POST /toolbox/run answered ${JSON.stringify(answer).slice(0, 300)}`);
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
  note(`${name}: run ${answer.data.taskId}, stages seen ${[...seen].join(' → ')}; status ${status}`);
  if (status === '9') throw new Error(`${name}: the run failed: ${await page.getByTestId('tool-failed').textContent().catch(() => '')}`);
  assert(status === '10', `${name}: the run did not finish in ${RUN_MS / 1000} s (status ${status})`);
  await page.getByTestId('tool-outputs').waitFor({ timeout: 30_000 });
  return answer.data.taskId;
}

export async function aiMedia({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'ai-media', 'ai media', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, shot, note }));
}

async function journey({ page, baseUrl, assert, signIn, shot, note }) {
  await signIn(page, 'ai-media');
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-ai-media-'));
  const [noisy, clip] = [makeNoisy(scratch), makeClip(scratch)];
  note(`noisy ${statSync(noisy).size} bytes, clip ${statSync(clip).size} bytes`);

  // --- audio noise reduction: a noisy recording cleaned on the farm. ---
  await page.goto(`${baseUrl}/#/ai/ability/create-audio-noise-reduction`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('media-panel').waitFor({ timeout: 30_000 });
  const method = (await page.getByTestId('media-method').textContent()) ?? '';
  assert(method.includes('WebRTC') && method.includes('webrtcdsp'), `the method said: "${method}"`);
  const soundId = await upload(page, 'media-input', noisy);
  assert(soundId, 'the recording upload answered a material id');
  await page.getByTestId('media-format').click();
  await page.locator('.ant-select-item-option').getByText('WAV', { exact: true }).click();
  await runnable(page);
  await shot('noise-reduction-options');
  await runAndWatch({ page, assert, note }, 'audio-noise-reduction');
  await page.getByTestId('output-audio').waitFor();
  const name = await page.getByTestId('output-0').locator('.ant-card-head-title').textContent();
  assert(name === 'denoised.wav', `the cleaned sound: ${name}`);
  const facts = (await page.getByTestId('output-facts').first().textContent()) ?? '';
  assert(facts.includes('0:05'), `5 s of sound: "${facts}"`);
  note(`noise reduction: ${name}, ${facts}`);
  await page.getByTestId('output-0').scrollIntoViewIfNeeded();
  await shot('noise-reduction-result');

  // --- cover generation: two covers, the best from the sharp bars. ---
  await page.goto(`${baseUrl}/#/ai/ability/create-cover-generation`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('media-panel').waitFor({ timeout: 30_000 });
  const videoId = await upload(page, 'media-input', clip);
  assert(videoId, 'the clip upload answered a material id');
  const count = numberInput(page, 'media-count');
  await count.fill('2');
  await count.blur();
  await runnable(page);
  await shot('cover-options');
  const taskId = await runAndWatch({ page, assert, note }, 'cover-generation');
  await page.getByTestId('output-picture').first().waitFor();
  const pictures = await page.getByTestId('output-picture').count();
  assert(pictures >= 1 && pictures <= 2, `one or two covers: ${pictures}`);
  const ranges = (await page.getByTestId('output-ranges-0').textContent()) ?? '';
  // The sharp bars are 2–3 s.
  assert(/0:02\.\d/.test(ranges), `the best cover is from the sharp bars: "${ranges}"`);
  note(`cover generation: run ${taskId}, ${pictures} pictures, the best at ${ranges}`);
  await page.getByTestId('output-picture').first().scrollIntoViewIfNeeded();
  await shot('cover-result');

  // --- The cover page in English. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.goto(`${baseUrl}/#/ai/ability/create-cover-generation`, { waitUntil: 'domcontentloaded' });
  const english = (await page.getByTestId('media-method').textContent({ timeout: 30_000 })) ?? '';
  assert(english.includes('Hasler') && english.includes('sharpness'), `the method in English: "${english}"`);
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await runnable(page);
  await shot('en-cover-options');
  await page.goto(`${baseUrl}/#/ai/ability/create-echo-cancellation`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('media-far-end').waitFor({ timeout: 30_000 });
  await shot('en-echo-cancellation');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
