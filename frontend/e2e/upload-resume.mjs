// Issue 30, /upload resumes an interrupted upload, in Chromium against `reelforge all`: a ~10 MB clip
// goes in 4 MiB parts (tus); the network drops every part after the first, so the upload stops with
// what was sent kept and the page says how to go on; chosen again, the same file goes on from 4 MB
// (the page says so), and the material it makes is the whole file. zh-CN, then the hint in en-US.
// Screenshots under <E2E_OUT>/upload-resume/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterShot, api, shooter } from './lib.mjs';

/** A ~10 MB H.264 clip (noise resists compression), made once per run. */
function bigClip(dir) {
  const file = path.join(dir, 'snow-clip.mp4');
  execFileSync('gst-launch-1.0', ['-q', 'videotestsrc', 'num-buffers=250', 'pattern=snow', '!', 'video/x-raw,width=640,height=360,framerate=25/1', '!',
    'x264enc', 'bitrate=8000', 'speed-preset=ultrafast', 'key-int-max=25', '!', 'mp4mux', '!', 'filesink', `location=${file}`], { timeout: 120_000 });
  return file;
}

export async function uploadResume({ page, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'upload-resume');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const clip = bigClip(dir);
  const size = statSync(clip).size;
  assert(size > 8 * 1024 * 1024, `the clip spans three parts at least: ${size} bytes`);

  await afterShot(shot, async () => {
    await signIn(page, 'resume');
    await go('#/upload');
    await page.getByTestId('upload-page').waitFor();
    // The network drops every part after the first (and each of the uploader's retries of it).
    let parts = 0;
    let dropped = 0;
    const drop = async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      parts += 1;
      if (parts === 1) return route.continue();
      dropped += 1;
      return route.abort('connectionreset');
    };
    await page.route('**/diyvrbt/upload/resumable/**', drop);
    const input = page.getByTestId('material-upload').locator('input[type=file]');
    await input.setInputFiles(clip);
    const failed = page.locator('[data-testid="upload-item"][data-status="error"]');
    await failed.waitFor({ timeout: 60_000 });
    await failed.getByTestId('upload-resume-hint').waitFor();
    assert(dropped >= 2, `the uploader tried the dropped part again before giving up: ${dropped} drops`);
    await shot('interrupted');
    await page.unroute('**/diyvrbt/upload/resumable/**', drop);

    // The same file again: it goes on from the first part, 4 MB in.
    await input.setInputFiles(clip);
    const done = page.locator('[data-testid="upload-item"][data-status="done"]');
    await done.waitFor({ timeout: 120_000 });
    const resumed = await done.getByTestId('upload-resumed').textContent();
    assert(/已从 4 MB 处继续上传/.test(resumed ?? ''), `the page says where it went on from: "${resumed}"`);
    const materialId = await done.getAttribute('data-material-id');
    const arrived = page.getByTestId('upload-arrived');
    await arrived.locator(`[data-testid="material-${materialId}"] [data-testid="material-state"][data-state="ready"]`).waitFor({ timeout: 120_000 });
    await shot('resumed');
    const info = await api(page, `/material/info/${materialId}`, {});
    assert(info.code === 2000 && Number(info.data.fileSize) === size, `the material is the whole file (${size} bytes): ${JSON.stringify(info).slice(0, 300)}`);

    // en-US: the page's hint says the same.
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByText(/choose the same file again to go on from where it stopped/).first().waitFor();
    await shot('resumed-en');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
