// Issue 27, the tools built on scene detection and the vocal separation, in Chromium against `reelforge all`,
// through the UI as a user would go: sign in; ai-video-cut: a 6 s clip of four scenes (still red, moving bars,
// still blue, noise) uploaded, the method said on the page, 2 s to keep, run and watched over the progress
// stream, the result's kept ranges listed (the moving bars, the liveliest: scaled down for the analysis
// the encoded noise averages out to a flat grey);
// video-separation by scene changes: four clips; vocal-separate: a stereo song (a centred 440 Hz, a 2500 Hz
// on the left) uploaded, the voice and the accompaniment; ai-video-cut's page again in en-US.
// Screenshots under <E2E_OUT>/toolbox-scenes/.
// E2E_ONLY=toolbox-scenes runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';
import { numberInput, runAndWatch } from './toolbox-journey.mjs';
import { runnable, upload } from './toolbox-more.mjs';

/** Makes a 6 s 640×360 clip of four scenes (cuts at 1.2, 3.2 and 4.4 s) in `dir`; answers its path. */
function makeScenes(dir) {
  const file = path.join(dir, '四个镜头.mp4');
  const scene = (pattern, frames) => [
    'videotestsrc', `num-buffers=${frames}`, ...pattern, '!', 'video/x-raw,format=I420,width=640,height=360,framerate=25/1', '!', 'c.',
  ];
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    // No B-frames: through concat they leave the joined parts' times out of order.
    'concat', 'name=c', '!', 'x264enc', 'speed-preset=ultrafast', 'bitrate=2000', 'key-int-max=50', '!', 'h264parse', '!', 'mux.',
    ...scene(['pattern=red'], 30), ...scene(['pattern=smpte', 'horizontal-speed=4'], 50), ...scene(['pattern=blue'], 30), ...scene(['pattern=snow'], 40),
    'mp4mux', 'name=mux', '!', 'filesink', `location=${file}`,
  ], { stdio: 'pipe', timeout: 120_000 });
  return file;
}

/** Makes a 4 s stereo song in `dir`: a centred 440 Hz "voice" and a 2500 Hz "instrument" on the left; answers its path. */
function makeSong(dir) {
  const file = path.join(dir, '立体声歌曲.wav');
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    'audiomixer', 'name=m', '!', 'audioconvert', '!', 'audio/x-raw,channels=2', '!', 'wavenc', '!', 'filesink', `location=${file}`,
    'audiotestsrc', 'wave=sine', 'freq=440', 'volume=0.25', 'num-buffers=400', 'samplesperbuffer=480', '!', 'audio/x-raw,rate=48000,channels=1', '!',
    'audioconvert', '!', 'audio/x-raw,channels=2', '!', 'm.',
    'audiotestsrc', 'wave=sine', 'freq=2500', 'volume=0.25', 'num-buffers=400', 'samplesperbuffer=480', '!', 'audio/x-raw,rate=48000,channels=1', '!',
    'audiopanorama', 'method=simple', 'panorama=-1', '!', 'audioconvert', '!', 'm.',
  ], { stdio: 'pipe', timeout: 60_000 });
  return file;
}

export async function toolboxScenes({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'toolbox-scenes', 'toolbox scenes', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, shot, note }));
}

async function journey({ page, baseUrl, assert, signIn, shot, note }) {
  await signIn(page, 'toolbox-scenes');
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-toolbox-scenes-'));
  const [clip, song] = [makeScenes(scratch), makeSong(scratch)];
  note(`clip ${statSync(clip).size} bytes, song ${statSync(song).size} bytes`);

  // --- ai-video-cut: the method said, 2 s of the liveliest scenes kept. ---
  await page.goto(`${baseUrl}/#/tools/ai-video-cut`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
  const videoId = await upload(page, 'tool-input-picker', clip);
  assert(videoId, 'the clip upload answered a material id');
  await page.getByTestId('input-preview').waitFor({ timeout: 90_000 });
  const rule = (await page.getByTestId('highlights-rule').textContent()) ?? '';
  assert(rule.includes('不使用 AI 模型'), `the page says no model is used: "${rule}"`);
  for (const [id, value] of [['option-min-scene', '0.5'], ['option-min-keep', '0.3'], ['option-target-length', '2']]) {
    await numberInput(page, id).fill(value);
    await numberInput(page, id).blur();
  }
  await runnable(page);
  await shot('ai-video-cut-options');
  await runAndWatch({ page, assert, note }, 'ai-video-cut');
  await page.getByTestId('output-video').waitFor();
  const kept = (await page.getByTestId('output-ranges-0').textContent()) ?? '';
  // The moving bars (1.2–3.2 s) score highest and fill the 2 s alone.
  assert(kept.includes('（1 段）：0:01.2–0:03.2'), `the kept ranges: "${kept}"`);
  const facts = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(facts.includes('0:02') && facts.includes('640×360'), `a 2 s video: "${facts}"`);
  note(`ai-video-cut: ${kept}; ${facts}`);
  await shot('ai-video-cut-result');

  // --- video-separation by scene changes: four clips. ---
  await page.goto(`${baseUrl}/#/tools/video-separation`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  await page.getByTestId('option-split-mode').getByText('按镜头切换').click();
  await numberInput(page, 'option-min-scene').fill('0.5');
  await numberInput(page, 'option-min-scene').blur();
  await runnable(page);
  await shot('scene-split-options');
  await runAndWatch({ page, assert, note }, 'video-separation-scenes');
  await page.getByTestId('output-3').waitFor();
  assert((await page.getByTestId('output-4').count()) === 0, 'four scenes make four clips');
  const second = (await page.getByTestId('output-ranges-1').textContent()) ?? '';
  assert(second.includes('0:01.2–0:03.2'), `the second clip is the bars: "${second}"`);
  note(`video-separation by scenes: 4 clips, the second ${second}`);
  await shot('scene-split-result');

  // --- vocal-separate: the voice and the accompaniment of a stereo song. ---
  await page.goto(`${baseUrl}/#/tools/vocal-separate`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
  const songId = await upload(page, 'tool-input-picker', song);
  assert(songId, 'the song upload answered a material id');
  await page.getByTestId('vocals-method').waitFor({ timeout: 30_000 });
  await runnable(page);
  await shot('vocal-separate-options');
  await runAndWatch({ page, assert, note }, 'vocal-separate');
  await page.getByTestId('output-1').waitFor();
  const names = [await page.getByTestId('output-0').locator('.ant-card-head-title').textContent(), await page.getByTestId('output-1').locator('.ant-card-head-title').textContent()];
  assert(names[0] === 'voice.m4a' && names[1] === 'accompaniment.m4a', `the voice and the accompaniment: ${names.join(', ')}`);
  note(`vocal-separate: ${names.join(', ')}`);
  await shot('vocal-separate-result');

  // --- The ai-video-cut page in English. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.goto(`${baseUrl}/#/tools/ai-video-cut`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  const english = (await page.getByTestId('highlights-rule').textContent({ timeout: 30_000 })) ?? '';
  assert(english.includes('no AI model') && english.includes('motion plus contrast'), `the rule in English: "${english}"`);
  await shot('en-ai-video-cut-options');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
