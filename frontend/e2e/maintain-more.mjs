// Issue 29, the maintenance area's farm pages in Chromium against `reelforge all`: a user's render
// fails for real on the farm (a video layer whose material is a sound); an administrator (level 0,
// granted with `reelforge admin grant`, which needs E2E_BIN) finds it on the task page, sees the failed
// attempt and requeues it; turns maintenance mode on (the user's next run is refused in words) and off;
// changes a run-time setting out of range (refused, naming the key) and in range (audited). The task
// page is looked at in English too. Screenshots under <E2E_OUT>/maintain-more/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterShot, api, shooter } from './lib.mjs';
import { saveTask } from './preview.mjs';
import { uploadMedia } from './timeline.mjs';

/** A 3 s sine tone as MP3, base64. */
function tone() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rf-maintain-more-')), 'tone.mp3');
  execFileSync('gst-launch-1.0', ['-q', 'audiotestsrc', 'wave=sine', 'freq=440', 'num-buffers=130', '!', 'audioconvert', '!', 'lamemp3enc', '!', 'filesink', `location=${file}`], { stdio: 'pipe' });
  return readFileSync(file).toString('base64');
}

/** Waits until the user's task `id` has status `status` (a render on the farm). */
async function settled(page, id, status, assert) {
  for (let i = 0; i < 240; i += 1) {
    const t = await api(page, `/videotask/ofone/${id}`);
    if (t.data?.status === status) return t.data;
    await page.waitForTimeout(500);
  }
  assert(false, `task ${id} never reached status ${status}`);
}

export async function maintainMore({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the journey needs E2E_BIN (the reelforge binary) to grant the administrator its level');
  const dir = path.join(outDir, 'maintain-more');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, () => steps({ page, assert, signIn, bin, shot }));
}

async function steps({ page, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);

  // --- A user's render fails on the farm: its video layer names a sound. ---
  // Each person signs in once: a second code for the same address within the resend interval (60 s)
  // is refused, so the journey keeps each session's storage and puts it back to switch people.
  const keep = () => page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  const resume = async (saved) => {
    await page.evaluate((entries) => {
      localStorage.clear();
      for (const [key, value] of JSON.parse(entries)) localStorage.setItem(key, value);
    }, saved);
    await page.reload({ waitUntil: 'domcontentloaded' });
  };
  const leave = async () => {
    await page.evaluate(() => localStorage.clear());
    await go('#/login');
    await page.reload({ waitUntil: 'domcontentloaded' });
  };
  await signIn(page, 'maintain-more-user');
  const sound = await uploadMedia(page, tone(), 'audio', 'tone.mp3', 'audio/mpeg');
  const info = await api(page, `/material/info/${sound}`, {});
  const url = info.data.url;
  const layer = { type: 'video', id: 'v1', z: 101, x: 0, y: 0, w: 640, h: 360, startTime: 0, endTime: 2, rotate: 0, materialId: sound, videoSrc: url, source: url, cutBy: '', volume: 50, noAudio: true };
  const rule = {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
    scenes: [{ type: 'canvas', timeLength: 2, bgColor: '#1f2937', effectTime: 1, isActive: true, layers: [layer] }],
    audio: [],
  };
  const taskId = await saveTask(page, rule, `维护任务${Date.now().toString(36)}`, 41);
  const run = await api(page, '/videotask/runtask', { taskId });
  assert(run.code === 2000, `runtask answered ${JSON.stringify(run).slice(0, 300)}`);
  const failed = await settled(page, taskId, 9, assert);
  const other = await saveTask(page, { ...rule, scenes: [{ ...rule.scenes[0], layers: [] }] }, '维护期间', 41);
  const userSession = await keep();
  await leave();

  // --- The administrator finds it, sees the failed attempt, requeues it. ---
  const admin = `e2e-admin-more-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', admin, '--level', '0', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'admin', admin);
  await go('#/eb-maintain/task');
  await page.getByTestId('maintain-task').waitFor();
  await page.getByTestId('task-search-id').locator('input').fill(String(taskId));
  await page.getByTestId('task-search-id').locator('input').press('Enter');
  await page.getByTestId(`status-${taskId}`).getByText('失败').waitFor();
  await page.getByTestId(`attempts-${taskId}`).click();
  await page.getByTestId('attempts').locator('.ant-table-row').first().waitFor();
  assert(failed.reason, 'the failed task carries its reason');
  await page.locator('.ant-drawer').getByText('失败', { exact: true }).first().waitFor();
  await shot('task-attempts-failed');
  await page.keyboard.press('Escape');
  const [requeued] = await Promise.all([page.waitForResponse((r) => r.url().includes('/diyvrbt/maintain/task/requeue')), page.getByTestId(`requeue-${taskId}`).click()]);
  const answer = await requeued.json();
  assert(answer.code === 2000 && answer.data.jobId, `requeue answered ${JSON.stringify(answer).slice(0, 300)}`);
  await page.locator('.ant-message').getByText(`任务 ${taskId} 已重新排队`).waitFor();
  // The new attempt ran on the farm (and, the document being the same, failed again with its reason).
  for (let i = 0; i < 240; i += 1) {
    const attempts = await api(page, `/maintain/task/attempts/${taskId}`);
    if (attempts.data?.length === 2 && attempts.data[0].endedTime) break;
    await page.waitForTimeout(500);
  }
  await page.getByTestId(`attempts-${taskId}`).click();
  await page.getByTestId('attempts').locator('.ant-table-row').nth(1).waitFor();
  await page.getByTestId(`audit-task:${taskId}`).getByText('requeue').waitFor();
  await shot('task-requeued-attempts-and-audit');
  // The drawer's mask covers the header: close it, switch, open it again in English.
  await page.keyboard.press('Escape');
  await page.locator('.ant-drawer-mask').waitFor({ state: 'hidden' });
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByTestId(`attempts-${taskId}`).click();
  await page.locator('.ant-drawer').getByText('Audit trail').waitFor();
  await shot('task-requeued-en');
  await page.keyboard.press('Escape');
  await page.locator('.ant-drawer-mask').waitFor({ state: 'hidden' });
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();

  // --- Maintenance mode: on refuses the user's next run; off resumes. ---
  await go('#/eb-maintain/upgrade');
  await page.getByTestId('maintain-upgrade').waitFor();
  // Every service's migrations, all applied by the server's start.
  for (const service of ['auth', 'material', 'category', 'favourite', 'font', 'task', 'ring']) {
    await page.getByTestId(`migration-state-${service}`).getByText('已是最新').waitFor();
  }
  await shot('upgrade-migrations');
  await page.getByTestId('maintenance-switch').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s?定/ }).click();
  await page.getByTestId('maintenance-state').getByText('已开启').waitFor();
  await page.getByTestId('drain-state').waitFor();
  await shot('maintenance-on');
  const adminSession = await keep();
  await resume(userSession);
  const refused = await api(page, '/videotask/runtask', { taskId: other });
  assert(refused.code === 3000 && /maintenance/.test(refused.desc), `a run in maintenance answered ${JSON.stringify(refused).slice(0, 300)}`);
  await resume(adminSession);
  await go('#/eb-maintain/upgrade');
  await page.getByTestId('maintenance-switch').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s?定/ }).click();
  await page.getByTestId('maintenance-state').getByText('已关闭').waitFor();
  await page.getByTestId('audit-farm:maintenance').locator('.ant-table-row').nth(1).waitFor();
  await shot('maintenance-off-audited');

  // --- A setting: out of range refused naming the key; in range saved and audited. ---
  await go('#/eb-maintain/config');
  await page.getByTestId('maintain-config').waitFor();
  const input = page.getByTestId('setting-toolbox-maxActivePerUser').locator('input');
  await input.fill('99');
  await page.getByTestId('save-toolbox-maxActivePerUser').click();
  await page.locator('.ant-message').getByText('toolbox.maxActivePerUser：99 超出允许范围 1–50').first().waitFor();
  await shot('config-out-of-range');
  await input.fill('3');
  await page.getByTestId('save-toolbox-maxActivePerUser').click();
  await page.locator('.ant-message').getByText('设置已保存').waitFor();
  await page.getByTestId('audit-config:toolbox.maxActivePerUser').getByText('config').waitFor();
  await shot('config-saved-audited');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Configuration', level: 3 }).waitFor();
  await shot('config-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  // The later journeys of this run share the tenant: its default comes back.
  const restored = await api(page, '/maintain/config', { key: 'toolbox.maxActivePerUser', value: '20' });
  assert(restored.code === 2000, `restoring the setting answered ${JSON.stringify(restored).slice(0, 300)}`);
}
