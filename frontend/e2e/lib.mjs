// What several browser checks share: numbered screenshots of a check's steps, and a rendered
// task's MP4 fetched as the page's download link fetches it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Returns `shot(name, p = page)`: a screenshot `NN-name.png` in `dir`, numbered in order, taken once
 * the page has settled (`settle` ms, or 'animations': every running animation finished); `shot.last`
 * is the name of the last one.
 */
export function shooter(page, dir, settle = 250) {
  let n = 0;
  const shot = async (name, p = page) => {
    n += 1;
    shot.last = name;
    // An infinite animation (a spinner, an active progress bar) never finishes: only finite ones are
    // waited for, and never longer than 2 s (an unbounded wait here hung a whole e2e run).
    if (settle === 'animations')
      await p.evaluate(() => {
        const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
        const settled = Promise.all(finite.map((a) => a.finished.catch(() => {})));
        return Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 2000))]);
      });
    else if (settle > 0) await p.waitForTimeout(settle);
    await p.screenshot({ path: path.join(dir, `${String(n).padStart(2, '0')}-${name}.png`) });
  };
  shot.last = '(none yet)';
  return shot;
}

/** Runs a check's steps; a failure names the last screenshot taken before it (where it stopped). */
export async function afterShot(shot, steps) {
  try {
    await steps();
  } catch (e) {
    e.message = `${e.message} (after the step '${shot.last}')`;
    throw e;
  }
}

/**
 * Runs a journey under `<outDir>/<name>/` with its screenshots (`shot`) and a `notes.txt` of what it
 * noted (`note`, also logged with `label`), named by its last screenshot when it fails; then leaves
 * the browser's storage in Chinese, which the checks after it share.
 */
export async function notedJourney(page, outDir, name, label, steps) {
  const dir = path.join(outDir, name);
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  const notes = [];
  const note = (line) => {
    notes.push(line);
    console.log(`${label}: ${line}`);
  };
  try {
    await afterShot(shot, () => steps({ shot, note, dir }));
  } finally {
    await page.evaluate(() => localStorage.setItem('reelforge.lang', 'zh-CN')).catch(() => {});
    writeFileSync(path.join(dir, 'notes.txt'), `${notes.join('\n')}\n`);
  }
}

/** Downloads a task's MP4 as the signed-in page does into `dir/task-N.mp4`; returns its path, the status and the content type. */
export async function downloadTask(page, taskId, dir) {
  const mp4 = await page.evaluate(async (taskId) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const r = await fetch(`/diyvrbt/videotask/download?taskId=${taskId}`, { headers });
    const bytes = new Uint8Array(await r.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: r.status, type: r.headers.get('content-type'), b64: btoa(s) };
  }, taskId);
  const file = path.join(dir, `task-${taskId}.mp4`);
  if (mp4.status === 200) writeFileSync(file, Buffer.from(mp4.b64, 'base64'));
  return { file, status: mp4.status, type: mp4.type };
}

/** Calls the API as the signed-in user (GET without a body, else POST JSON). */
export async function api(page, url, body) {
  return page.evaluate(async ({ url, body }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs', 'Content-Type': 'application/json' };
    const r = await fetch(`/diyvrbt${url}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
    return r.json();
  }, { url, body });
}

/**
 * Keeps and puts back people's sessions in one browser: each person signs in once (a second code
 * for the same address within the resend interval is refused). `keep` answers the storage,
 * `resume(saved, hash)` puts it back and opens `hash` signed in, `leave` signs out locally.
 */
export function sessions(page) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  return {
    keep: () => page.evaluate(() => JSON.stringify(Object.entries(localStorage))),
    resume: async (saved, hash) => {
      await go('#/');
      await page.evaluate((entries) => {
        localStorage.clear();
        for (const [key, value] of JSON.parse(entries)) localStorage.setItem(key, value);
      }, saved);
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.getByTestId('user-role').waitFor();
      await go(hash);
    },
    leave: async () => {
      await page.evaluate(() => localStorage.clear());
      await go('#/login');
      await page.reload({ waitUntil: 'domcontentloaded' });
    },
  };
}
