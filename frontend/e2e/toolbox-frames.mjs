// Issue 27, ai-frame-cut (VIDEO_KEY_FRAMES) in Chromium against `reelforge all`, through the UI as a user
// would go: sign in; a 4.4 s clip of three scenes (still red, moving bars, still blue) imported by its
// address (URL import: an unlisted host refused first, nothing fetched from it), the method
// said on the page, one picture per scene, run and watched over the progress stream; three pictures shown,
// each with its scene's stretch, the first red and the last blue (measured from the pictures the page shows);
// the blue one used in the editor (a picture material); then a picture every second (5 pictures); smart clips
// (/aitask/smartClips, /aitask/get) from the editor's AI template mode: the same video's liveliest scene
// becomes a clip material; the page in en-US. Screenshots under <E2E_OUT>/toolbox-frames/. E2E_ONLY=toolbox-frames runs it alone.
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';
import { numberInput, runAndWatch } from './toolbox-journey.mjs';
import { runnable } from './toolbox-more.mjs';

/** Makes a 4.4 s 640×360 clip of three scenes (cuts at 1.2 and 3.2 s) in `dir`; answers its path. */
function makeScenes(dir) {
  const file = path.join(dir, '三个镜头.mp4');
  const scene = (pattern, frames) => [
    'videotestsrc', `num-buffers=${frames}`, ...pattern, '!', 'video/x-raw,format=I420,width=640,height=360,framerate=25/1', '!', 'c.',
  ];
  execFileSync('gst-launch-1.0', [
    '-q', '-e',
    'concat', 'name=c', '!', 'x264enc', 'speed-preset=ultrafast', 'bitrate=2000', 'key-int-max=50', '!', 'h264parse', '!', 'mux.',
    ...scene(['pattern=red'], 30), ...scene(['pattern=smpte', 'horizontal-speed=4'], 50), ...scene(['pattern=blue'], 30),
    'mp4mux', 'name=mux', '!', 'filesink', `location=${file}`,
  ], { stdio: 'pipe', timeout: 120_000 });
  return file;
}

/** The mean red, green and blue of the output picture `index` as the page shows it. */
async function pictureColour(page, index) {
  const img = page.getByTestId(`output-${index}`).getByTestId('output-picture');
  await img.waitFor();
  await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle(), { timeout: 20_000 });
  return img.evaluate((el) => {
    const canvas = document.createElement('canvas');
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(el, 0, 0);
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c += 1) sum[c] += data[i + c];
    const n = data.length / 4;
    return { size: `${el.naturalWidth}×${el.naturalHeight}`, rgb: sum.map((s) => Math.round(s / n)) };
  });
}

export async function toolboxFrames({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'toolbox-frames', 'toolbox frames', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, shot, note }));
}

async function journey({ page, baseUrl, assert, signIn, shot, note }) {
  await signIn(page, 'toolbox-frames');
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-toolbox-frames-'));
  const clip = makeScenes(scratch);
  note(`clip ${statSync(clip).size} bytes`);

  // --- The clip imported by its address: the site lists only this server (deploy/scripts/e2e.sh). ---
  const port = Number(process.env.E2E_IMPORT_PORT);
  assert(port > 0, 'E2E_IMPORT_PORT names the import server');
  const asked = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url);
    res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': statSync(clip).size });
    createReadStream(clip).pipe(res);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  let videoId;
  try {
    await page.goto(`${baseUrl}/#/tools/ai-frame-cut`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
    const input = page.getByTestId('url-import-input');
    await input.fill(`http://localhost:${port}/scenes.mp4`);
    await page.getByTestId('url-import-button').click();
    const refused = (await page.getByTestId('url-import-refused').textContent({ timeout: 20_000 })) ?? '';
    assert(refused.startsWith('urls[0]') && refused.includes('localhost'), `an unlisted host is refused naming the address: "${refused}"`);
    assert(asked.length === 0, `nothing was fetched from an unlisted host: ${asked.join(', ')}`);
    await shot('url-import-refused');
    await input.fill(`http://127.0.0.1:${port}/scenes.mp4`);
    const imported = page.waitForResponse((r) => r.url().includes('/batchUrlVideoAddResult'));
    await page.getByTestId('url-import-button').click();
    const answer = await (await imported).json();
    assert(answer.code === 2000 && answer.data?.materialIds?.length === 1, `the import: ${JSON.stringify(answer).slice(0, 200)}`);
    videoId = answer.data.materialIds[0];
    note(`imported ${videoId} from ${asked.join(', ')}`);
  } finally {
    server.close();
  }

  // --- One picture per scene: the method said, the scenes found, one picture each. ---
  await page.getByTestId('input-preview').waitFor({ timeout: 90_000 });
  const method = (await page.getByTestId('frames-method').textContent()) ?? '';
  assert(method.includes('未使用 AI 模型') && method.includes('最清晰'), `the page says how pictures are chosen: "${method}"`);
  await numberInput(page, 'option-min-scene').fill('0.5');
  await numberInput(page, 'option-min-scene').blur();
  await runnable(page);
  await shot('scenes-options');
  const taskId = await runAndWatch({ page, assert, note }, 'ai-frame-cut-scenes');
  await page.getByTestId('output-2').waitFor();
  assert((await page.getByTestId('output-3').count()) === 0, 'three scenes make three pictures');
  const stretches = [];
  for (const i of [0, 1, 2]) {
    assert((await page.getByTestId(`output-${i}`).getAttribute('data-kind')) === 'picture', `output ${i} is a picture`);
    stretches.push((await page.getByTestId(`output-ranges-${i}`).textContent()) ?? '');
  }
  assert(stretches[0].includes('0:00.0–0:01.2') && stretches[1].includes('0:01.2–0:03.2') && stretches[2].includes('0:03.2–0:04.4'), `each picture's scene: ${stretches.join(' | ')}`);
  const [red, bars, blue] = [await pictureColour(page, 0), await pictureColour(page, 1), await pictureColour(page, 2)];
  note(`pictures: ${JSON.stringify([red, bars, blue])}`);
  assert(red.size === '640×360' && red.rgb[0] > 200 && red.rgb[2] < 50, `the first scene's picture is red: ${JSON.stringify(red)}`);
  assert(blue.rgb[2] > 200 && blue.rgb[0] < 50, `the last scene's picture is blue: ${JSON.stringify(blue)}`);
  assert(Math.min(...bars.rgb) > 50, `the bars' picture holds every colour: ${JSON.stringify(bars)}`);
  await page.getByTestId('output-0').scrollIntoViewIfNeeded();
  await shot('scenes-result');
  const used = page.waitForResponse((r) => r.url().includes('/diyvrbt/toolbox/use'));
  await page.getByTestId('use-2').click();
  const answer = await (await used).json();
  assert(answer.code === 2000 && answer.data?.materialId, `use: ${JSON.stringify(answer).slice(0, 200)}`);
  await page.getByTestId('output-used').waitFor();
  note(`run ${taskId}: frame-3.jpg became material ${answer.data.materialId}`);
  await shot('scenes-used');

  // --- A picture every second: 0, 1, 2, 3 and 4 s. ---
  await page.getByTestId('tool-again').click();
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await page.getByTestId('input-preview').waitFor({ timeout: 30_000 });
  await page.getByTestId('option-frames-mode').getByText('每隔几秒一张').click();
  await numberInput(page, 'option-every').fill('1');
  await numberInput(page, 'option-every').blur();
  const estimate = (await page.getByTestId('estimate').textContent()) ?? '';
  assert(estimate.includes('5 张图片'), `the interval's picture count: "${estimate}"`);
  await runnable(page);
  await shot('interval-options');
  await runAndWatch({ page, assert, note }, 'ai-frame-cut-interval');
  await page.getByTestId('output-4').waitFor();
  assert((await page.getByTestId('output-5').count()) === 0, 'a picture every second of 4.4 s makes five');
  const last = (await page.getByTestId('output-ranges-4').textContent()) ?? '';
  assert(last.includes('0:04.0–0:04.4'), `the last picture stands for 4–4.4 s: "${last}"`);
  await shot('interval-result');

  // --- Smart clips in the editor's AI template mode: the same video, its liveliest scene as a clip material. ---
  await page.goto(`${baseUrl}/#/diy?usedFor=AI_TEMPLATE`, { waitUntil: 'domcontentloaded' });
  await page.locator('#editor').waitFor({ timeout: 30_000 });
  await page.getByTestId('smart-clips').click();
  const drawer = page.getByTestId('smart-clips-drawer');
  await drawer.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  await numberInput(page, 'smart-task-length').fill('10');
  await numberInput(page, 'smart-task-length').blur();
  await shot('smart-clips-options');
  const queued = page.waitForResponse((r) => r.url().includes('/diyvrbt/aitask/smartClips'));
  await drawer.getByTestId('smart-task-start').click();
  const smart = await (await queued).json();
  assert(smart.code === 2000 && smart.data?.id, `smartClips: ${JSON.stringify(smart).slice(0, 200)}`);
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('[data-testid="smart-task"]')?.dataset.state ?? ''), undefined, { timeout: 120_000 });
  const done = (await drawer.getByTestId('smart-task').textContent()) ?? '';
  // Red and blue (1.2 s) are shorter than the 1.5 s kept at least: the bars alone are kept.
  assert(done.includes('1 个片段已加入我的素材') && done.includes('0:01.2–0:03.2'), `the smart task's clips: "${done}"`);
  note(`smart task ${smart.data.id}: ${done}`);
  await shot('smart-clips-done');

  // --- The page in English (opened afresh: the same address would keep the result on screen). ---
  await page.goto(`${baseUrl}/#/tools-index`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.goto(`${baseUrl}/#/tools/ai-frame-cut`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`material-${videoId}`).click({ timeout: 20_000 });
  const english = (await page.getByTestId('frames-method').textContent({ timeout: 30_000 })) ?? '';
  assert(english.includes('no AI model') && english.includes('sharpest'), `the method in English: "${english}"`);
  await shot('en-options');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
