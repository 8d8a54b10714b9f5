// Issue 27, the tools of two inputs in Chromium against `reelforge all`, through the UI as a user would go:
//   sign in; replace-video-volume: a 4 s clip with a 997 Hz tone uploaded as the video, a 6 s 440 Hz
//   sound uploaded as the second material (its own picker), loudness −20 LUFS, run and watched over the
//   progress stream, the result shown (video player, its facts), downloaded and put "in the editor";
//   audio-to-video: the same sound chosen from my materials, a picture uploaded as the second material,
//   a portrait frame, run, the result's frame read from its facts; change-screen (9:16) and
//   video-separation (two clips) on the clip; the replace page again in en-US.
//   Screenshots under <E2E_OUT>/toolbox-more/.
// E2E_ONLY=toolbox-more runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';
import { fetchDownload, makeClip, numberInput, runAndWatch } from './toolbox-journey.mjs';

/** Makes a 6 s 440 Hz tone (16-bit WAV) in `dir`; answers its path. */
function makeSong(dir) {
  const file = path.join(dir, '新配乐.wav');
  execFileSync('gst-launch-1.0', [
    '-q', '-e', 'audiotestsrc', 'wave=sine', 'freq=440', 'volume=0.3', 'num-buffers=600', 'samplesperbuffer=480', '!',
    'audio/x-raw,rate=48000,channels=2', '!', 'audioconvert', '!', 'wavenc', '!', 'filesink', `location=${file}`,
  ], { stdio: 'pipe', timeout: 60_000 });
  return file;
}

/** Makes a 640×640 PNG of colour bars in `dir`; answers its path. */
function makePicture(dir) {
  const file = path.join(dir, '封面.png');
  execFileSync('gst-launch-1.0', [
    '-q', '-e', 'videotestsrc', 'num-buffers=1', 'pattern=smpte', '!', 'video/x-raw,width=640,height=640', '!', 'videoconvert', '!', 'pngenc', '!',
    'filesink', `location=${file}`,
  ], { stdio: 'pipe', timeout: 60_000 });
  return file;
}

/** Uploads `file` through the picker with test id `picker`; answers the new material's id once the upload is done. */
export async function upload(page, picker, file) {
  const scope = page.getByTestId(picker);
  await scope.getByTestId('material-upload').locator('input[type=file]').setInputFiles(file);
  await scope.getByTestId('upload-item').first().waitFor();
  await page.waitForFunction(
    (id) => [...document.querySelectorAll(`[data-testid="${id}"] [data-testid="upload-item"]`)].every((el) => el.dataset.status !== 'uploading'),
    picker,
    { timeout: 60_000 },
  );
  return scope.getByTestId('upload-item').first().getAttribute('data-material-id');
}

/** Waits until the run button can be pressed (every input probed and ready, no problem found). */
export async function runnable(page) {
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="tool-run-button"]');
    return b && !b.disabled;
  }, undefined, { timeout: 90_000 });
}

export async function toolboxMore({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'toolbox-more', 'toolbox more', ({ shot, note, dir }) => journey({ page, baseUrl, assert, signIn, shot, note, dir }));
}

async function journey({ page, baseUrl, assert, signIn, shot, note, dir }) {
  await signIn(page, 'toolbox-more');
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-toolbox-more-'));
  const [clip, song, picture] = [makeClip(scratch), makeSong(scratch), makePicture(scratch)];
  note(`clip ${statSync(clip).size} bytes, song ${statSync(song).size} bytes, picture ${statSync(picture).size} bytes`);

  // --- replace-video-volume: the video, then the new sound in its own picker. ---
  await page.goto(`${baseUrl}/#/tools/replace-video-volume`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
  const videoId = await upload(page, 'tool-input-picker', clip);
  assert(videoId, 'the video upload answered a material id');
  await page.getByTestId('input-preview').waitFor({ timeout: 90_000 });
  await page.getByTestId('tool-second-input').waitFor();
  const songId = await upload(page, 'tool-second-picker', song);
  assert(songId, 'the sound upload answered a material id');
  note(`video ${videoId}, sound ${songId}`);
  await page.getByTestId('tool-second-chosen').waitFor({ timeout: 30_000 });
  await numberInput(page, 'option-loudness').fill('-20');
  await numberInput(page, 'option-loudness').blur();
  await runnable(page);
  await shot('replace-options');
  const started = page.waitForRequest((r) => r.url().includes('/diyvrbt/toolbox/run') && r.method() === 'POST');
  const replaceRun = await runAndWatch({ page, assert, note }, 'replace-video-volume');
  const body = (await started).postDataJSON();
  assert(
    JSON.stringify(body.materialIds) === JSON.stringify([videoId, songId]) && body.params.mode === 'replace' && body.params.loudnessLufs === -20,
    `the run asked for the video then the sound: ${JSON.stringify(body)}`,
  );
  await page.getByTestId('output-video').waitFor();
  const facts = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(facts.includes('640×360'), `the result keeps the video's frame: "${facts}"`);
  await shot('replace-result');
  const mp4 = await fetchDownload(page, await page.getByTestId('download-0').getAttribute('href'));
  assert(mp4.status === 200 && mp4.size > 0, `the result downloads: ${JSON.stringify(mp4)}`);
  note(`replace: ${mp4.size} bytes, ${facts}`);
  await page.getByTestId('use-0').click();
  await page.getByTestId('output-used').waitFor({ timeout: 30_000 });
  note(`replace: result is material ${await page.getByTestId('output-used').getAttribute('data-material-id')}`);
  await shot('replace-in-library');

  // The mix mode asks for the level of the added sound; the gain mode takes no second material.
  await page.getByTestId('tool-again').click();
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('option-sound-mode').getByText('混合').click();
  await page.getByTestId('option-gain').waitFor();
  await shot('mix-options');
  await page.getByTestId('option-sound-mode').getByText('调整音量').click();
  assert((await page.getByTestId('tool-second-input').count()) === 0, 'gain asks for no second material');

  // --- audio-to-video: my sound, then an uploaded picture, in a portrait frame. ---
  await page.goto(`${baseUrl}/#/tools/audio-to-video`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${songId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  await page.getByTestId('tool-second-input').waitFor();
  const pictureId = await upload(page, 'tool-second-picker', picture);
  note(`picture ${pictureId}`);
  await page.getByTestId('tool-second-chosen').waitFor({ timeout: 30_000 });
  await page.getByTestId('option-size').getByText('720×1280').click();
  await runnable(page);
  await shot('audio-to-video-options');
  await runAndWatch({ page, assert, note }, 'audio-to-video');
  await page.getByTestId('output-video').waitFor();
  const made = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(made.includes('720×1280') && made.includes('0:06'), `a 6 s portrait video: "${made}"`);
  note(`audio-to-video: ${made}`);
  await shot('audio-to-video-result');

  // --- change-screen (a hidden type, its page reachable): the landscape clip turned 9:16. ---
  await page.goto(`${baseUrl}/#/tools/change-screen`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  const frame = (await page.getByTestId('estimate').textContent()) ?? '';
  assert(frame.includes('640×360') && frame.includes('360×640'), `the frame estimate: "${frame}"`);
  await runAndWatch({ page, assert, note }, 'change-screen');
  const vertical = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(vertical.includes('360×640'), `a 9:16 video: "${vertical}"`);
  note(`change-screen: ${vertical}`);
  await shot('change-screen-result');

  // The same clip cropped by a window that follows the subject (params.mode follow).
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  await page.getByTestId('option-reframe').getByText('跟随主体裁剪').click();
  const window = (await page.getByTestId('follow-window').textContent()) ?? '';
  assert(window.includes('×360') && window.includes('360×640'), `the follow window: "${window}"`);
  await shot('change-screen-follow-options');
  await runAndWatch({ page, assert, note }, 'change-screen follow');
  const followed = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(followed.includes('360×640'), `a 9:16 video that follows: "${followed}"`);
  note(`change-screen follow: ${window}; ${followed}`);
  await shot('change-screen-follow-result');

  // --- video-separation: split in the middle, two clips. ---
  await page.goto(`${baseUrl}/#/tools/video-separation`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  await shot('split-options');
  await runAndWatch({ page, assert, note }, 'video-separation');
  await page.getByTestId('output-1').waitFor();
  assert((await page.getByTestId('output-2').count()) === 0, 'one split point makes two clips');
  note(`video-separation: ${await page.getByTestId('output-0').getAttribute('data-kind')} ×2`);
  await shot('split-result');

  // --- The replace page in English. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.goto(`${baseUrl}/#/tools/replace-video-volume`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('tool-second-input').waitFor();
  const label = (await page.getByTestId('option-sound-mode').textContent()) ?? '';
  assert(label.includes('Replace') && label.includes('Mix') && label.includes('Gain'), `the modes in English: "${label}"`);
  await shot('en-replace-options');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  writeFileSync(path.join(dir, 'runs.json'), `${JSON.stringify({ videoId, songId, pictureId, replaceRun }, null, 2)}\n`);
}
