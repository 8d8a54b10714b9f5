// The issue-30 qs portal in Chromium against `reelforge all`, in the qs variant (`?variant=qs`): a signed-in
// user with one saved work walks the portal's pages through its own nav (home with the newest templates
// and the work to continue, templates, my works, make a template (the work offered, then pending under my
// templates), my tools, the introduction, the editor in the portal), sees the service marketplace
// inside the portal frame (not being a provider, with the way to become one), then the app's home
// page with its new sections; the portal's home, the introduction and the app's home also in en-US,
// and the portal's header in the cc variant.
// A screenshot per step under <E2E_OUT>/qs-portal/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';
import { saveTask } from './preview.mjs';

/** A 16:9 document with one replaceable text, so it can be offered as a template. */
const WORK = {
  version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
  resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
  scenes: [{ type: 'canvas', timeLength: 3, bgColor: '#312e81', effectTime: 1, isActive: true, layers: [
    { type: 'word', id: 1, z: 101, x: 120, y: 130, w: 400, h: 90, startTime: 0, endTime: 3, rotate: 0, canModify: 1, content: '门户作品', fontSize: 44, color: '#ffffff', textAlign: 'center', lineHeight: 1.2, maxLength: 12 },
  ] }],
  audio: [],
};

export async function qsPortal({ page, baseUrl, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'qs-portal');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const name = `门户作品 ${Date.now().toString(36)}`;
  /** Clicks a portal nav entry and waits for its page. */
  const nav = async (key, testId) => {
    await page.getByTestId(`qs-nav-${key}`).click();
    await page.getByTestId(testId).waitFor();
  };

  await afterShot(shot, async () => {
    await signIn(page, 'qs-portal');
    const taskId = await saveTask(page, WORK, name, 41);
    await page.goto(`${baseUrl}/?variant=qs#/qs`, { waitUntil: 'domcontentloaded' });

    // --- The portal's home: its frame, the newest templates (the tenant's starters) and the work. ---
    await page.getByTestId('qs-index').waitFor();
    assert(new URL(page.url()).hash === '#/qs/index', `/qs opens the portal's home: ${page.url()}`);
    assert((await page.getByTestId('qs-layout').locator('header').getAttribute('data-variant')) === 'qs', 'the portal header is the qs variant');
    assert((await page.getByTestId('logo').count()) === 0, "the portal shows its own header, not the app's");
    const featured = page.getByTestId('featured-templates');
    await featured.locator('[data-testid^="featured-use-"]').first().waitFor({ timeout: 30_000 });
    const featuredCount = await featured.locator('[data-testid^="featured-use-"]').count();
    assert(featuredCount >= 1 && featuredCount <= 4, `the portal's home shows up to four templates: ${featuredCount}`);
    const recent = page.getByTestId(`recent-work-${taskId}`);
    await recent.waitFor();
    assert((await recent.getAttribute('href')) === `#/qs/diy?taskId=${taskId}`, `a recent work opens the portal's editor: ${await recent.getAttribute('href')}`);
    await shot('index');

    // --- Templates, my works, my tools: the app's pages inside the portal. ---
    await nav('template', 'template-select');
    await page.locator('[data-testid^="use-"]').first().waitFor({ timeout: 30_000 });
    await shot('template');
    await nav('mydiy', 'my-works');
    await page.getByTestId(`work-${taskId}`).waitFor();
    await shot('mydiy');
    await nav('myTools', 'my-tools');
    await shot('my-tools');

    // --- Make a template: the work offered, then pending under my templates. ---
    await go('#/qs/template-page');
    await page.getByTestId('qs-make-template').waitFor();
    await page.getByTestId(`offer-${taskId}`).click();
    const submitOk = page.getByTestId('submit-ok');
    await submitOk.waitFor();
    await shot('make-template');
    await submitOk.click();
    await page.locator('.ant-message').getByText('已提交，等待审核').waitFor();
    await submitOk.waitFor({ state: 'hidden' });
    await nav('myTemplate', 'my-templates');
    const mine = page.getByTestId('my-templates').locator('.ant-card[data-testid^="template-"]', { hasText: name });
    await mine.waitFor();
    assert(/待审核/.test(await mine.textContent()), `the offered work is pending review: ${await mine.textContent()}`);
    await shot('my-template');

    // --- The introduction, the service marketplace in the frame, the editor in the portal. ---
    await nav('introduce', 'qs-introduce');
    await shot('introduce');
    await go('#/qs/service');
    await page.getByTestId('qs-layout').getByTestId('market-become-provider').waitFor();
    await shot('service-market');
    await go('#/qs/index');
    await page.getByTestId(`recent-work-${taskId}`).click();
    await page.getByTestId('diy-editor').waitFor({ timeout: 60_000 });
    assert(new URL(page.url()).hash === `#/qs/diy?taskId=${taskId}`, `the work opens in the portal's editor: ${page.url()}`);
    const box = await page.getByTestId('diy-editor').boundingBox();
    const height = page.viewportSize().height;
    assert(box && Math.abs(box.y + box.height - height) <= 2, `the editor fills the window under the portal header: ${JSON.stringify(box)} in ${height}`);
    await shot('diy');

    // --- The app's home page: works to continue, newest templates, the toolbox. ---
    await go('#/');
    await page.getByTestId('home').waitFor();
    await page.getByTestId('home').getByTestId(`recent-work-${taskId}`).waitFor();
    await page.getByTestId('featured-templates').locator('[data-testid^="featured-use-"]').first().waitFor();
    await page.getByTestId('home-tools').locator('[data-testid^="home-tool-"]').first().waitFor();
    await page.screenshot({ path: path.join(dir, 'home-full.png'), fullPage: true });
    await shot('home');

    // --- English. ---
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByText('Continue recent works').waitFor();
    await page.screenshot({ path: path.join(dir, 'home-full-en.png'), fullPage: true });
    await go('#/qs/index');
    await page.getByTestId('qs-index').getByText('Newest templates').waitFor();
    await page.getByTestId(`recent-work-${taskId}`).waitFor();
    await shot('index-en');
    await nav('introduce', 'qs-introduce');
    await page.getByText('A video in four steps').waitFor();
    await shot('introduce-en');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();

    // --- The cc variant's portal header (a visitor: the session is the qs tenant's). ---
    await page.evaluate(() => localStorage.removeItem('reelforge.user'));
    await page.goto(`${baseUrl}/?variant=cc#/qs/introduce`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('qs-introduce').waitFor();
    await page.locator('header[data-variant="cc"]').waitFor();
    await page.getByTestId('qs-logo').getByText('彩铃创作', { exact: false }).waitFor();
    await shot('introduce-cc');
  });
}
