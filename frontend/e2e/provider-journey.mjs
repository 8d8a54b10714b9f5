// Issues 29 and 30, service-provider applications in Chromium against `reelforge all`: a user applies
// on /qs/service/emplacement (an empty form is refused field by field); a template manager (level 3,
// granted with `reelforge admin grant`, which needs E2E_BIN) finds it on /manage/check-service,
// rejects it with a reason; the user reads the reason and applies again; the manager approves it and
// the user's page says they are a provider. The review page is looked at in English too.
// Screenshots under <E2E_OUT>/provider-journey/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, api, shooter } from './lib.mjs';

export async function providerJourney({ page, baseUrl, outDir, assert, signIn, bin }) {
  assert(bin, 'the provider journey needs E2E_BIN (the reelforge binary) to grant the template manager its level');
  const dir = path.join(outDir, 'provider-journey');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  await afterShot(shot, () => steps({ page, baseUrl, assert, signIn, bin, shot }));
}

async function steps({ page, baseUrl, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const save = () => page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  // Another person's session is put back on a neutral page: reloading a manager's page as the
  // applicant would be refused as the spec says (the role mismatch reads as an expired login).
  const restore = async (saved) => {
    await page.evaluate((s) => {
      localStorage.clear();
      for (const [key, value] of JSON.parse(s)) localStorage.setItem(key, value);
    }, saved);
    await page.goto(`${baseUrl}/#/qs/index`, { waitUntil: 'domcontentloaded' });
    await page.reload({ waitUntil: 'domcontentloaded' });
  };
  const signOut = async () => {
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${baseUrl}/#/login`, { waitUntil: 'domcontentloaded' });
    await page.reload({ waitUntil: 'domcontentloaded' });
  };
  const applicant = `e2e-studio-${Date.now()}@example.com`;
  const manager = `e2e-reviewer-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  const apply = async (name) => {
    await page.getByTestId('service-apply-name').fill(name);
    await page.getByTestId('service-apply-contact').fill('13800138000');
    await page.getByTestId('service-apply-intro').fill('擅长婚礼、企业宣传片与电商短视频，三天内交付；样片见作品集。');
    await page.getByTestId('service-apply-submit').click();
    await page.getByTestId('service-apply-waiting').waitFor();
  };

  // --- The user applies: an empty form names what is missing; then it waits. ---
  await signIn(page, 'applicant', applicant);
  await go('#/qs/service/emplacement');
  await page.getByTestId('service-emplacement').waitFor();
  await page.getByTestId('service-apply-submit').click();
  await page.getByText('请填写公司或工作室名称').waitFor();
  await shot('apply-empty-refused');
  await apply('光影工作室');
  await shot('apply-waiting');
  const applicantSession = await save();

  // --- The manager rejects it with a reason. ---
  await signOut();
  await signIn(page, 'reviewer', manager);
  const managerSession = await save();
  await go('#/manage/check-service');
  await page.getByTestId('check-service').waitFor();
  const row = page.locator('.ant-table-row', { hasText: applicant });
  await row.waitFor();
  await shot('queue-pending');
  await row.getByText('光影工作室').click();
  await page.getByTestId('check-service-detail').waitFor();
  await page.getByTestId('service-detail-name').getByText('光影工作室').waitFor();
  await page.getByTestId('service-reject').click();
  await page.getByTestId('reject-ok').click();
  await page.getByText('请填写驳回原因').waitFor();
  await page.getByTestId('reject-reason').fill('样片不足，请补充两部完整作品');
  await page.getByTestId('reject-ok').click();
  await page.locator('[data-testid="service-detail-state"][data-state="rejected"]').waitFor();
  await shot('rejected');

  // --- The user reads the reason and applies again. ---
  await restore(applicantSession);
  await go('#/qs/service/emplacement');
  await page.getByText('驳回原因：样片不足，请补充两部完整作品').waitFor();
  await page.getByTestId('service-apply-form').waitFor();
  await shot('applicant-sees-reason');
  await apply('光影工作室（补充样片）');

  // --- The manager approves the second one (also in English); the user is a provider. ---
  await restore(managerSession);
  await go('#/manage/check-service');
  const again = page.locator('.ant-table-row', { hasText: '光影工作室（补充样片）' });
  await again.waitFor();
  await again.getByText('光影工作室（补充样片）').click();
  await page.getByTestId('service-approve').click();
  await page.locator('[data-testid="service-detail-state"][data-state="approved"]').waitFor();
  await shot('approved');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Service review detail', level: 3 }).waitFor();
  await shot('approved-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByRole('heading', { name: '服务审核详情', level: 3 }).waitFor();
  await go('#/manage/check-service?state=approved');
  await page.locator('.ant-table-row', { hasText: '光影工作室（补充样片）' }).waitFor();

  await restore(applicantSession);
  await go('#/qs/service/emplacement');
  await page.getByTestId('service-provider-yes').getByText('你已成为服务商').waitFor();
  const me = await api(page, '/user/me');
  assert(me.code === 2000 && me.data.serviceProvider === true, `/user/me says the applicant is a provider: ${JSON.stringify(me).slice(0, 300)}`);
  await shot('applicant-is-provider');
}
