// Issue 30, the enterprise workspace in Chromium against `reelforge all`: two users sign in (one
// renders a work on the farm); an administrator (level 0, granted with `reelforge admin grant`, which
// needs E2E_BIN) sees the empty state at /yqx (in no enterprise), makes an enterprise on the users
// page and adds both by account; user A shares the work at /workbench/yqx; user B sees it with who
// shared it, plays it and copies it into their own works (A's work unchanged). Looked at in English
// too. Screenshots under <E2E_OUT>/enterprise/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { renderedWork } from './contest-journey.mjs';
import { afterShot, api, sessions, shooter } from './lib.mjs';

export async function enterpriseJourney({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the journey needs E2E_BIN (the reelforge binary) to grant the administrator its level');
  const dir = path.join(outDir, 'enterprise');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  await afterShot(shot, () => steps({ page, assert, signIn, bin, shot }));
}

async function steps({ page, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const { keep, resume, leave } = sessions(page);
  const stamp = Date.now().toString(36);

  // --- A renders a work; B signs in once, so both are users of the tenant. ---
  const mailA = await signIn(page, 'ent-a', `e2e-ent-a-${stamp}@example.com`);
  const work = await renderedWork(page, '年会开场', '#0f766e', assert);
  const sessionA = await keep();
  await leave();
  const mailB = await signIn(page, 'ent-b', `e2e-ent-b-${stamp}@example.com`);
  const sessionB = await keep();
  await leave();

  // --- The administrator: in no enterprise, an empty state; then makes one with A and B. ---
  const admin = `e2e-ent-admin-${stamp}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', admin, '--level', '0', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'ent-admin', admin);
  await go('#/yqx');
  await page.getByTestId('enterprise-none').waitFor();
  await shot('admin-not-in-an-enterprise');
  await go('#/eb-maintain/users');
  await page.getByTestId('manage-enterprises').waitFor();
  const name = `星河传媒${stamp}`;
  await page.getByTestId('enterprise-new-name').fill(name);
  const [saved] = await Promise.all([page.waitForResponse((r) => r.url().includes('/manage/enterprise/save')), page.getByTestId('enterprise-create').click()]);
  const enterprise = (await saved.json()).data;
  assert(enterprise?.name === name, `the enterprise saved as ${JSON.stringify(enterprise).slice(0, 300)}`);
  await page.getByTestId(`enterprise-row-${enterprise.id}`).click();
  for (const mail of [mailA, mailB]) {
    await page.getByTestId(`member-input-${enterprise.id}`).fill(mail);
    await page.getByTestId(`member-add-${enterprise.id}`).click();
    await page.getByTestId(`members-${enterprise.id}`).getByText(mail, { exact: true }).waitFor();
  }
  // A user of another tenant (or nobody) is refused by name.
  await page.getByTestId(`member-input-${enterprise.id}`).fill('nobody@example.com');
  await page.getByTestId(`member-add-${enterprise.id}`).click();
  await page.getByTestId(`member-error-${enterprise.id}`).getByText('没有找到用户', { exact: false }).waitFor();
  await page.getByTestId('manage-enterprises').scrollIntoViewIfNeeded();
  await shot('admin-enterprise-with-two-members');
  await leave();

  // --- A shares the rendered work. ---
  await resume(sessionA, '#/workbench/yqx');
  await page.getByTestId('enterprise-name').getByText(name).waitFor();
  await page.getByTestId('enterprise-share').click();
  await page.getByTestId(`share-pick-${work}`).click();
  await shot('a-picks-the-work');
  const [shared] = await Promise.all([page.waitForResponse((r) => r.url().includes('/enterprise/share')), page.getByTestId('share-ok').click()]);
  const share = (await shared.json()).data;
  assert(share?.itemId === String(work) && share.mine, `the share answered ${JSON.stringify(share).slice(0, 300)}`);
  await page.getByTestId(`share-${share.id}`).waitFor();
  const twice = await api(page, '/enterprise/share', { kind: 'work', itemId: work });
  assert(twice.code === 3000 && /already shared/.test(twice.desc), `a second share answered ${JSON.stringify(twice).slice(0, 300)}`);
  await shot('a-shared-the-work');
  await leave();

  // --- B sees it with who shared it, plays it, copies it into their works. ---
  await resume(sessionB, '#/yqx');
  await page.getByTestId(`share-${share.id}`).waitFor();
  assert((await page.getByTestId(`share-by-${share.id}`).textContent()).includes(mailA), 'B sees who shared it');
  assert((await page.getByTestId(`share-unshare-${share.id}`).count()) === 0, "B is offered no unshare of A's share");
  await page.getByTestId(`share-play-${share.id}`).click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="share-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  await shot('b-plays-the-shared-work');
  await page.keyboard.press('Escape');
  const [copied] = await Promise.all([page.waitForResponse((r) => r.url().includes('/enterprise/copy')), page.getByTestId(`share-copy-${share.id}`).click()]);
  const copy = (await copied.json()).data;
  assert(copy?.taskId > 0, `the copy answered ${JSON.stringify(copy).slice(0, 300)}`);
  await page.getByTestId(`share-to-works-${share.id}`).waitFor();
  await shot('b-copied-the-work');
  const mine = await api(page, `/videotask/ofone/${copy.taskId}`);
  assert(mine.code === 2000 && mine.data.taskName === '年会开场 副本' && mine.data.status === 10, `B's copy: ${JSON.stringify(mine).slice(0, 300)}`);
  const theirs = await api(page, `/videotask/ofone/${work}`);
  assert(theirs.code === 3000, `A's work stays A's: ${JSON.stringify(theirs).slice(0, 200)}`);
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByTestId(`share-by-${share.id}`).getByText('Shared by', { exact: false }).waitFor();
  await shot('b-workspace-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
