// Issue 30, the service marketplace in Chromium against `reelforge all`: a user applies to become a
// service provider and a template manager (level 3, granted with `reelforge admin grant`, which
// needs E2E_BIN) approves; the provider renders a sample work, publishes a video-making service at
// /qs/service/new with it; a buyer finds it at /qs/service/select, plays the sample and places a
// request; the provider delivers a rendered work from /qs/service/my-service; the buyer finds it
// delivered and plays it in their works. Looked at in English too. Screenshots under <E2E_OUT>/market/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { renderedWork } from './contest-journey.mjs';
import { afterShot, api, sessions, shooter } from './lib.mjs';

export async function marketJourney({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the journey needs E2E_BIN (the reelforge binary) to grant the manager its level');
  const dir = path.join(outDir, 'market');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  await afterShot(shot, () => steps({ page, assert, signIn, bin, shot }));
}

async function steps({ page, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const { keep, resume, leave } = sessions(page);

  // --- A provider: applies, a manager approves. ---
  const manager = `e2e-market-manager-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'studio');
  const applied = await api(page, '/service/apply', { name: '光影工作室', contact: '13800138000', intro: '拜年视频，三天交付' });
  assert(applied.code === 2000, `the application answered ${JSON.stringify(applied).slice(0, 300)}`);
  const sample = await renderedWork(page, '样片·拜年', '#b45309', assert);
  const delivery = await renderedWork(page, '给王家的拜年', '#047857', assert);
  const studio = await keep();
  await leave();
  await signIn(page, 'manager', manager);
  const decided = await api(page, '/manage/service/decide', { id: applied.data.id, approve: true });
  assert(decided.code === 2000, `the approval answered ${JSON.stringify(decided).slice(0, 300)}`);
  await leave();

  // --- The provider publishes a service with the sample. ---
  await resume(studio, '#/qs/service/new');
  await page.getByTestId('market-title-input').waitFor();
  await page.getByTestId('market-title-input').fill('拜年视频定制');
  await page.getByTestId('market-kind-video').check();
  await page.getByTestId('market-description-input').fill('提供照片和祝福语，三天内交付 15 秒拜年视频。');
  await page.getByTestId('market-price-input').fill('99 元起');
  await page.getByTestId('market-days-input').fill('3');
  await page.getByTestId(`market-sample-pick-${sample}`).check();
  await shot('provider-new-service');
  const [saved] = await Promise.all([page.waitForResponse((r) => r.url().includes('/market/service/save')), page.getByTestId('market-save').click()]);
  const service = (await saved.json()).data;
  assert(service?.id > 0 && service.published === false, `the save answered ${JSON.stringify(service).slice(0, 300)}`);
  await page.getByTestId('market-unpublished').waitFor();
  await page.getByTestId('market-publish-now').click();
  await page.getByTestId('market-unpublished').waitFor({ state: 'detached' });
  await shot('provider-published');
  const provider = await keep();
  await leave();

  // --- A buyer finds it, plays the sample and places a request. ---
  await signIn(page, 'buyer');
  await go('#/qs/service/select');
  await page.getByTestId(`market-card-${service.id}`).click();
  await page.getByTestId('market-title').waitFor();
  await page.getByTestId(`market-sample-${sample}`).click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="market-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  await shot('buyer-plays-sample');
  await page.keyboard.press('Escape');
  await page.getByTestId('market-request').click();
  await page.getByTestId('market-request-note').fill('给爸妈拜年，带上全家福和“新年快乐”。');
  await page.getByTestId('market-request-ok').click();
  await page.getByTestId('market-request-waiting').waitFor();
  await shot('buyer-requested');
  const mine = await api(page, '/market/mine');
  const request = mine.data.sent[0];
  assert(request?.state === 'open' && request.serviceId === service.id, `the buyer's requests: ${JSON.stringify(mine).slice(0, 300)}`);
  const buyer = await keep();

  // --- The provider delivers a work. ---
  await resume(provider, '#/qs/service/my-service');
  await page.getByTestId('market-tab-received').click();
  await page.getByTestId(`market-received-${request.id}`).waitFor();
  await page.getByTestId(`market-deliver-${request.id}`).click();
  await page.getByTestId(`market-deliver-pick-${delivery}`).check();
  await shot('provider-delivers');
  await page.getByTestId('market-deliver-ok').click();
  await page.getByTestId(`market-received-state-${request.id}`).getByText('已交付').waitFor();
  await shot('provider-delivered');

  // --- The buyer finds it delivered and plays it among their works. ---
  await resume(buyer, '#/qs/service/my-service');
  await page.getByTestId('market-tab-sent').click();
  await page.getByTestId(`market-sent-state-${request.id}`).getByText('已交付').waitFor();
  await shot('buyer-sees-delivered');
  await page.getByTestId(`market-delivered-${request.id}`).click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="task-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  await shot('buyer-plays-delivered');
  await page.keyboard.press('Escape');
  const works = await api(page, '/videotask/mine');
  assert(works.data.list.some((w) => w.taskName === '给王家的拜年' && w.status === 10), `the buyer's works: ${JSON.stringify(works).slice(0, 300)}`);
  await go('#/qs/service/select');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByTestId(`market-card-${service.id}`).waitFor();
  await shot('select-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
