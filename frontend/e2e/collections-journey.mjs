// Issue 29, curated collections in Chromium against `reelforge all`: a template manager (level 3,
// granted with `reelforge admin grant`, which needs E2E_BIN) creates the topic "夏日专题" on
// /manage/topic-center, adds two approved templates (the tenant's starters), makes the second its
// cover, saves and publishes it; an ordinary user finds it in the home page's 专题 section and opens
// it on /template-select?collection=ID, which shows exactly those two templates in that order. The
// centre is looked at in English too. Screenshots under <E2E_OUT>/collections-journey/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, api, shooter } from './lib.mjs';

const TOPIC = '夏日专题';

export async function collectionsJourney({ page, baseUrl, outDir, assert, signIn, bin }) {
  assert(bin, 'the collections journey needs E2E_BIN (the reelforge binary) to grant the template manager its level');
  const dir = path.join(outDir, 'collections-journey');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  try {
    await afterShot(shot, () => steps({ page, baseUrl, assert, signIn, bin, shot }));
  } finally {
    // The checks after this one share the browser's storage, and expect Chinese.
    await page.evaluate(() => localStorage.setItem('reelforge.lang', 'zh-CN')).catch(() => {});
  }
}

/** The ids of the elements whose data-testid is `prefix` + a number, in document order. */
function idsOf(page, scope, prefix) {
  return page.locator(scope).evaluateAll(
    (nodes, prefix) =>
      nodes.flatMap((n) => [...n.querySelectorAll(`[data-testid^="${prefix}"]`)])
        .map((n) => n.getAttribute('data-testid').slice(prefix.length))
        .filter((rest) => /^\d+$/.test(rest))
        .map(Number),
    prefix,
  );
}

async function steps({ page, baseUrl, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const answer = async (url, click) => {
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes(`/diyvrbt${url}`) && r.request().method() === 'POST'), click()]);
    const body = await response.json();
    assert(body.code === 2000, `POST ${url} answered ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
  const manager = `e2e-curator-${Date.now()}@example.com`;
  const user = `e2e-browser-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });

  // --- The manager: the starters exist, and a topic of the same name from an earlier run is gone (names are unique per kind). ---
  await signIn(page, 'curator', manager);
  const starters = await api(page, '/template/list?pageNum=1&pageSize=12&orderType=1');
  assert(starters.code === 2000 && starters.data.list.length >= 2, `the tenant has two approved templates: ${JSON.stringify(starters).slice(0, 300)}`);
  const earlier = await api(page, '/manage/collection/list?kind=topic');
  assert(earlier.code === 2000, `GET /manage/collection/list answered ${JSON.stringify(earlier).slice(0, 300)}`);
  for (const c of earlier.data.filter((c) => c.name === TOPIC)) await api(page, '/manage/collection/delete', { id: c.id });

  // --- A new topic, two templates, the second as cover, saved and published. ---
  await go('#/manage/topic-center');
  await page.getByTestId('collection-center-topic').waitFor();
  await shot('topic-center-before');
  await page.getByTestId('collection-new').click();
  await page.getByTestId('collection-name-input').fill(TOPIC);
  await page.getByTestId('collection-description-input').fill('清凉一夏：饮品、出游和夏季促销');
  await shot('new-topic');
  const created = await answer('/manage/collection/save', () => page.getByTestId('collection-new-ok').click());
  const id = created.id;
  await page.waitForURL((u) => new URL(u).hash === `#/manage/topic/${id}`);
  await page.getByTestId('collection-detail-topic').waitFor();

  await page.getByTestId('collection-add-templates').click();
  const picker = page.getByTestId('collection-picker');
  await picker.locator('[data-testid^="collection-pick-"]').nth(1).waitFor();
  const offered = await idsOf(page, '[data-testid="collection-picker"]', 'collection-pick-');
  const [first, second] = offered;
  assert(first && second, `the picker offers two approved templates: ${offered}`);
  await page.getByTestId(`collection-pick-${first}`).click();
  await page.getByTestId(`collection-pick-${second}`).click();
  await page.getByTestId(`collection-pick-${second}`).getByText('已添加').waitFor();
  await shot('picker-two-added');
  await page.getByTestId('collection-picker-done').click();
  await picker.waitFor({ state: 'detached' });
  await page.getByTestId(`collection-template-${second}`).waitFor();
  await page.getByTestId(`collection-cover-${second}`).click();
  assert((await page.getByTestId(`collection-cover-${second}`).getAttribute('aria-pressed')) === 'true', 'the second template is the cover');
  await shot('topic-two-templates');
  const saved = await answer('/manage/collection/save', () => page.getByTestId('collection-save').click());
  assert(JSON.stringify(saved.templateIds) === JSON.stringify([first, second]) && saved.coverTemplateId === second, `saved ${JSON.stringify(saved).slice(0, 300)}`);
  await page.getByTestId('collection-unsaved').waitFor({ state: 'detached' });
  await answer('/manage/collection/publish', () => page.getByTestId(`collection-publish-${id}`).click());
  await page.locator(`[data-testid="collection-publish-${id}"][aria-checked="true"]`).waitFor();
  await page.getByTestId('collection-audit').locator('.ant-table-row').first().waitFor();
  await shot('topic-published');

  // --- The centre lists it, published with two templates; once in English. ---
  await page.getByTestId('collection-back').click();
  const row = page.getByTestId(`collection-row-${id}`);
  await row.getByText(TOPIC).waitFor();
  await page.getByTestId(`collection-state-${id}`).getByText('已发布').waitFor();
  assert((await page.getByTestId(`collection-count-${id}`).textContent())?.trim() === '2', 'the centre counts two templates');
  await shot('topic-center');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Topic centre', level: 3 }).waitFor();
  await page.getByTestId(`collection-state-${id}`).getByText('Published').waitFor();
  await shot('topic-center-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByRole('heading', { name: '专题中心', level: 3 }).waitFor();

  // --- An ordinary user: the home page's 专题 section leads to the topic's two templates. ---
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${baseUrl}/#/login`, { waitUntil: 'domcontentloaded' });
  await page.reload({ waitUntil: 'domcontentloaded' });
  await signIn(page, 'browser', user);
  const topics = page.getByTestId('home-topics');
  await topics.getByTestId(`home-topic-${id}`).getByText(TOPIC).waitFor();
  await topics.getByTestId(`home-topic-${id}`).getByText('2 个模板').waitFor();
  await shot('home-topics');
  await topics.getByTestId(`home-topic-${id}`).click();
  await page.waitForURL((u) => new URL(u).hash === `#/template-select?collection=${id}`);
  await page.getByTestId('template-collection-heading').getByText(TOPIC).waitFor();
  await page.getByTestId(`template-${second}`).waitFor();
  const shown = await idsOf(page, '[data-testid="template-collection-grid"]', 'template-');
  assert(JSON.stringify(shown) === JSON.stringify([first, second]), `the picker shows exactly the topic's templates in order: ${shown}`);
  assert(await page.locator(`[data-testid="template-collection-chip-${id}"].ant-tag-checkable-checked`).count() === 1, 'the topic chip is chosen');
  const published = await api(page, `/collection/${id}`);
  assert(published.code === 2000 && published.data.coverTemplateId === second, `the user sees the second template as cover: ${JSON.stringify(published).slice(0, 300)}`);
  await shot('template-select-topic');
}
