// The issue-16 audio check in Chromium against `reelforge all`: a browser of its own whose fake
// microphone plays a 2 kHz tone (a WAV made with gst-launch-1.0, --use-file-for-fake-audio-capture).
// Signed in, /diy with one 8 s scene; in the audio tab a starter track (category 6001) is previewed
// and added (0–8 s, ducked), given a 1 s fade-in in the property panel; the playhead goes to 4 s
// and about 2 s of voice-over are recorded, uploaded and added there; saved, made, downloaded.
// The MP4's sound is decoded with GStreamer to mono 48 kHz float and checked in node: sound
// present, the level rising through the first second (fade-in), and the music (the sound under
// 700 Hz, low-passed) at least 8 dB lower inside the voice's span than before it.
// Screenshots: <E2E_OUT>/audio/NN-<step>.png (zh; the English labels last).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, downloadTask, shooter } from './lib.mjs';

const RATE = 48000;
const DOC_LENGTH = 8;
const VOICE_AT = 4;
const RECORD_MS = 2200;

/** Makes the fake microphone's sound: a 2 kHz sine of 10 s as a 16-bit mono WAV. */
function voiceWav(dir) {
  const file = path.join(dir, 'voice-2khz.wav');
  execFileSync('gst-launch-1.0', ['-q', 'audiotestsrc', 'wave=sine', 'freq=2000', 'volume=0.5', 'num-buffers=480', 'samplesperbuffer=1000', '!', 'audio/x-raw,format=S16LE,channels=1,rate=48000', '!', 'wavenc', '!', 'filesink', `location=${file}`], { stdio: 'pipe' });
  return file;
}

/** Decodes an MP4's sound to mono 48 kHz float samples. */
function decodeSound(mp4, dir) {
  const raw = path.join(dir, 'sound.f32');
  execFileSync('gst-launch-1.0', ['-q', 'filesrc', `location=${mp4}`, '!', 'decodebin', '!', 'audioconvert', '!', 'audioresample', '!', `audio/x-raw,format=F32LE,channels=1,rate=${RATE}`, '!', 'filesink', `location=${raw}`], { stdio: 'pipe', timeout: 120_000 });
  const b = readFileSync(raw);
  return new Float32Array(b.buffer, b.byteOffset, Math.floor(b.length / 4));
}

/** RMS in dBFS of samples [from, to) seconds. */
function rmsDb(x, from, to) {
  const a = Math.floor(from * RATE);
  const b = Math.min(x.length, Math.floor(to * RATE));
  let sum = 0;
  for (let i = a; i < b; i++) sum += x[i] * x[i];
  return 10 * Math.log10(sum / Math.max(1, b - a) + 1e-12);
}

/** Four cascaded RBJ biquad low-passes (Q 0.707): the 2 kHz voice falls by far more than 40 dB. */
function lowPass(x, cutoff) {
  let y = x;
  const w = (2 * Math.PI * cutoff) / RATE;
  const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
  const c = Math.cos(w);
  const a0 = 1 + alpha;
  const b0 = (1 - c) / 2 / a0, b1 = (1 - c) / a0, b2 = (1 - c) / 2 / a0, a1 = (-2 * c) / a0, a2 = (1 - alpha) / a0;
  for (let stage = 0; stage < 4; stage++) {
    const out = new Float32Array(y.length);
    let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
    for (let i = 0; i < y.length; i++) {
      const v = b0 * y[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1; x1 = y[i]; y2 = y1; y1 = v;
      out[i] = v;
    }
    y = out;
  }
  return y;
}

export async function audioCheck({ baseUrl, outDir, assert, signIn, executablePath }) {
  const dir = path.join(outDir, 'audio');
  mkdirSync(dir, { recursive: true });
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-audio-'));
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--autoplay-policy=no-user-gesture-required',
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${voiceWav(scratch)}`],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN', permissions: ['microphone'] });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const shot = shooter(page, dir, 0);
    await page.goto(`${baseUrl}/#/login`, { waitUntil: 'domcontentloaded' });
    await signIn(page, 'audio');
    await page.evaluate(() => (window.location.hash = '#/diy'));
    await page.getByTestId('timeline-ruler').waitFor();

    // One 8 s scene, from the scene strip's length field.
    await page.getByTestId('bottom-tab-scenes').click();
    const length = page.getByTestId('scene-strip').getByRole('spinbutton', { name: '时长' }).first();
    await length.fill(String(DOC_LENGTH));
    await length.press('Enter');
    await page.getByTestId('bottom-tab-timeline').click();
    await page.waitForFunction((d) => (document.querySelector('[data-testid="current-time"]')?.textContent ?? '').includes(`/ 00:0${d}.0`), DOC_LENGTH);

    // The audio tab: the starter music, previewed then added.
    await page.getByTestId('left-pane').getByText('音频', { exact: true }).evaluate((el) => el.click());
    await page.getByTestId('music-library').waitFor();
    const first = page.getByTestId('music-play').first();
    await first.waitFor({ timeout: 30_000 });
    await first.click();
    await page.waitForFunction(() => {
      const a = document.querySelector('[data-testid="music-preview"]');
      return a && !a.paused && a.currentTime > 0.2;
    }, undefined, { timeout: 15_000 });
    await shot('music-tab-preview');
    await first.click();
    await page.getByTestId('music-add').first().click();
    await page.getByTestId('music-bar').first().waitFor();
    const added = await page.evaluate(() => document.querySelector('[data-testid="audio-props"]') !== null);
    assert(added, 'an added track shows its properties');
    const fadeIn = page.getByTestId('audio-fade-in');
    await fadeIn.fill('1');
    await fadeIn.press('Enter');
    await page.waitForTimeout(300);
    await shot('music-properties');

    // The playhead to 4 s, then about 2 s of voice-over from the fake microphone.
    const ruler = await page.getByTestId('timeline-ruler').boundingBox();
    await page.mouse.click(ruler.x + VOICE_AT * 100, ruler.y + 5);
    await page.waitForFunction((t) => Math.abs(Number(document.querySelector('[data-testid="current-time"]')?.dataset.time) - t) < 0.06, VOICE_AT);
    await page.getByTestId('voice-record').click();
    await page.getByTestId('voice-elapsed').waitFor();
    await page.waitForTimeout(RECORD_MS);
    await shot('recording');
    await page.getByTestId('voice-record').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="music-bar"]').length === 2, undefined, { timeout: 60_000 });
    await shot('voice-added');
    await page.getByTestId('material-slot').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(300);
    await shot('audio-list-and-mix');
    const voiceText = await page.getByTestId('doc-audio-1').textContent();
    assert(/配音/.test(voiceText ?? ''), `the second item is a voice: ${voiceText}`);

    // Save, make the video and download it.
    const saving = page.waitForResponse((r) => r.url().includes('/diyvrbt/videotask/save'), { timeout: 30_000 });
    await page.getByTestId('save').click();
    const saved = await (await saving).json();
    assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
    const taskId = Number(saved.data);
    const task = await api(page, `/videotask/ofone/${taskId}`);
    const info = JSON.parse(task.data.videoCreateInfo ?? task.data.taskInfo ?? '{}');
    const [music, voice] = info.audio ?? [];
    assert(music?.type === 'audio' && music.fadeInTime === 1 && music.duck === true && music.endTime === DOC_LENGTH, `saved music: ${JSON.stringify(music)}`);
    assert(voice?.type === 'voice' && Math.abs(voice.startTime - VOICE_AT) < 0.06 && voice.endTime - voice.startTime > 1, `saved voice: ${JSON.stringify(voice)}`);
    console.log(`audio: voice recorded ${(voice.endTime - voice.startTime).toFixed(2)} s at ${voice.startTime.toFixed(2)} s`);
    await page.getByTestId('run').click();
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline && !(await page.getByTestId('run-play').isVisible())) await page.waitForTimeout(500);
    assert(await page.getByTestId('run-play').isVisible(), 'the render finished');
    const mp4 = await downloadTask(page, taskId, dir);
    assert(mp4.status === 200, `download answered ${mp4.status}`);
    const { file } = mp4;

    // The sound: present, fading in, and the music ducked under the voice.
    const x = decodeSound(file, scratch);
    const seconds = x.length / RATE;
    assert(seconds > DOC_LENGTH - 0.5, `the MP4 has ${seconds.toFixed(2)} s of sound`);
    const whole = rmsDb(x, 0, seconds);
    const quarters = [0, 1, 2, 3].map((q) => rmsDb(x, q * 0.25, (q + 1) * 0.25));
    const low = lowPass(x, 700);
    const vStart = voice.startTime, vEnd = voice.endTime;
    const before = rmsDb(low, 1.5, vStart - 0.4);
    const under = rmsDb(low, vStart + 0.3, vEnd - 0.1);
    const voiceLevel = rmsDb(x, vStart + 0.3, vEnd - 0.1);
    const figures = `whole ${whole.toFixed(1)} dBFS; first second by quarters ${quarters.map((q) => q.toFixed(1)).join(', ')} dB; music (<700 Hz) before the voice ${before.toFixed(1)} dB, under it ${under.toFixed(1)} dB (${(before - under).toFixed(1)} dB lower); everything under the voice ${voiceLevel.toFixed(1)} dB`;
    console.log(`audio MP4: ${figures}`);
    writeFileSync(path.join(dir, 'figures.txt'), `${figures}\n`);
    assert(whole > -40, `the MP4 has sound: ${whole.toFixed(1)} dBFS`);
    assert(quarters[0] < quarters[1] && quarters[1] < quarters[2] && quarters[2] < quarters[3], `the level rises through the fade-in: ${quarters.join(', ')}`);
    assert(quarters[3] - quarters[0] > 6, `the fade-in spans more than 6 dB: ${quarters.join(', ')}`);
    assert(before - under >= 8, `the music is ducked by at least 8 dB under the voice: ${(before - under).toFixed(1)} dB`);

    // The English labels of the audio tab and the properties.
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.setItem('reelforge.lang', 'en-US'));
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.evaluate((id) => (window.location.hash = `#/diy?taskId=${id}`), taskId);
    await page.getByTestId('music-bar').first().waitFor({ timeout: 20_000 });
    await page.getByTestId('left-pane').getByText('Audio', { exact: true }).evaluate((el) => el.click());
    await page.getByTestId('music-bar').first().click();
    await page.getByTestId('audio-props').waitFor();
    await page.waitForTimeout(500);
    await shot('en-audio');
    assert(errors.length === 0, `page errors: ${errors.join(' | ')}`);
  } finally {
    await browser.close();
  }
}
