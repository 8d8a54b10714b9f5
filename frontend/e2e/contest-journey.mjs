// Issue 30, contests in Chromium against `reelforge all`: a template manager (level 3, granted with
// `reelforge admin grant`, which needs E2E_BIN) opens a contest ranked by likes at /manage/contest;
// two users each render a work on the farm and enter it at /qs/competition-content through the
// submit dialog; the second likes the first's entry (a second like is not offered) and plays it;
// the manager closes the contest (its end moved into the past in the form); the result page ranks
// the liked entry first. Looked at in English too. Screenshots under <E2E_OUT>/contest/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, api, sessions, shooter } from './lib.mjs';
import { saveTask } from './preview.mjs';

/** A local time as the contest form reads it. */
function clock(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** A 2 s work rendered on the farm; answers its task id. */
export async function renderedWork(page, name, colour, assert) {
  const rule = {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
    scenes: [{ type: 'canvas', timeLength: 2, bgColor: colour, effectTime: 1, isActive: true, layers: [
      { type: 'word', id: 'w1', z: 101, x: 120, y: 140, w: 400, h: 80, startTime: 0, endTime: 2, rotate: 0, content: name, fontSize: 48, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 },
    ] }],
    audio: [],
  };
  const taskId = await saveTask(page, rule, name, 41);
  const run = await api(page, '/videotask/runtask', { taskId });
  assert(run.code === 2000, `runtask answered ${JSON.stringify(run).slice(0, 300)}`);
  for (let i = 0; i < 240; i += 1) {
    const t = await api(page, `/videotask/ofone/${taskId}`);
    if (t.data?.status === 10) return taskId;
    assert(t.data?.status !== 9, `the work ${name} failed to render: ${t.data?.reason}`);
    await page.waitForTimeout(500);
  }
  assert(false, `the work ${name} never rendered`);
  return taskId;
}

export async function contestJourney({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the journey needs E2E_BIN (the reelforge binary) to grant the manager its level');
  const dir = path.join(outDir, 'contest');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  await afterShot(shot, () => steps({ page, assert, signIn, bin, shot }));
}

async function steps({ page, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const { keep, resume, leave } = sessions(page);

  // --- The manager opens a contest ranked by likes. ---
  const manager = `e2e-judge-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'judge', manager);
  await go('#/manage/contest');
  await page.getByTestId('manage-contest').waitFor();
  await page.getByTestId('contest-new').click();
  const title = `拜年大赛${Date.now().toString(36)}`;
  await page.getByTestId('contest-title-input').fill(title);
  await page.getByTestId('contest-theme-input').fill('用 15 秒给家人拜年');
  await page.getByTestId('contest-rules-input').fill('每人一件作品；按点赞数排名。');
  const now = Date.now();
  const setTime = async (testId, ms) => {
    await page.getByTestId(testId).click();
    await page.getByTestId(testId).fill(clock(ms));
    await page.getByTestId(testId).press('Enter');
  };
  await setTime('contest-start-input', now - 60_000);
  await setTime('contest-end-input', now + 3_600_000);
  await page.getByTestId('contest-ranking-likes').check();
  await shot('manager-new-contest');
  const [saved] = await Promise.all([page.waitForResponse((r) => r.url().includes('/manage/contest/save')), page.getByTestId('contest-form-ok').click()]);
  const contest = (await saved.json()).data;
  assert(contest?.state === 'open', `the contest saved as ${JSON.stringify(contest).slice(0, 300)}`);
  await page.getByTestId(`contest-row-${contest.id}`).waitFor();
  await shot('manager-contest-listed');
  const managerSession = await keep();
  await leave();

  // --- Two users render a work each and enter it. ---
  const enter = async (who, colour) => {
    await signIn(page, who);
    const taskId = await renderedWork(page, `${who}的拜年`, colour, assert);
    await go(`#/qs/competition-content?id=${contest.id}`);
    await page.getByTestId('contest-detail').waitFor();
    await page.getByTestId('contest-submit').click();
    await page.getByTestId(`contest-pick-${taskId}`).click();
    await shot(`${who}-picks-a-work`);
    await page.getByTestId('contest-submit-ok').click();
    await page.getByTestId('contest-my-entry').waitFor();
    const detail = await api(page, `/contest/${contest.id}`);
    const entry = detail.data.entries.find((e) => e.mine);
    assert(entry && entry.taskId === taskId, `the entry of ${who}: ${JSON.stringify(detail).slice(0, 300)}`);
    return { taskId, entryId: entry.id, session: await keep() };
  };
  const first = await enter('lin', '#b91c1c');
  await shot('lin-entered');
  await leave();
  const second = await enter('zhou', '#1d4ed8');

  // Zhou likes Lin's entry: once (the button then is not offered), never their own; and plays it.
  const like = page.getByTestId(`contest-like-${first.entryId}`);
  await like.click();
  await page.waitForFunction((id) => (document.querySelector(`[data-testid="contest-likes-${id}"]`)?.textContent ?? '').includes('1'), first.entryId);
  assert(await like.isDisabled(), 'a second like is not offered');
  assert(await page.getByTestId(`contest-like-${second.entryId}`).isDisabled(), 'liking one\'s own entry is not offered');
  const again = await api(page, '/contest/like', { entryId: first.entryId });
  assert(again.code === 3000 && /already liked/.test(again.desc), `a second like answered ${JSON.stringify(again).slice(0, 300)}`);
  await page.getByTestId(`contest-play-${first.entryId}`).click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="contest-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  await shot('zhou-liked-and-plays');
  await page.keyboard.press('Escape');
  await page.getByTestId('contest-result-link').click();
  await page.getByTestId('contest-result-pending').waitFor();
  await shot('result-pending');

  // --- The manager closes it: the end moved into the past. ---
  await resume(managerSession, '#/manage/contest');
  await page.getByTestId(`contest-edit-${contest.id}`).click();
  await setTime('contest-start-input', now - 7_200_000);
  await setTime('contest-end-input', Date.now() - 5_000);
  await page.getByTestId('contest-form-ok').click();
  await page.getByTestId(`contest-state-${contest.id}`).getByText('已结束').waitFor();
  await shot('manager-closed');

  // --- Lin sees the result: the liked entry first. ---
  await resume(first.session, `#/qs/contest-result?id=${contest.id}`);
  await page.getByTestId('contest-result').waitFor();
  await page.getByTestId(`contest-rank-row-${first.entryId}`).waitFor();
  const ranks = await page.locator('[data-testid^="contest-rank-row-"]').evaluateAll((rows) => rows.map((r) => Number(r.dataset.testid.replace('contest-rank-row-', ''))));
  assert(ranks[0] === first.entryId && ranks[1] === second.entryId, `the result ranks ${ranks.join(',')}`);
  assert((await page.getByTestId(`contest-rank-${first.entryId}`).textContent()).includes('1'), 'the liked entry is first');
  await shot('result-ranked');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByTestId(`contest-rank-row-${first.entryId}`).waitFor();
  await shot('result-ranked-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  const closedLike = await api(page, '/contest/like', { entryId: second.entryId });
  assert(closedLike.code === 3000 && /likes ended/.test(closedLike.desc), `a like after the close answered ${JSON.stringify(closedLike).slice(0, 300)}`);
}
