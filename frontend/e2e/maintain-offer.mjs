// Issue 29, the maintenance area's catalogue pages in Chromium against `reelforge all`: an
// administrator (level 0, granted with `reelforge admin grant`, which needs E2E_BIN) hides the art-word
// style 鎏金 and moves 冰雪 to the top (/eb-maintain/artfont), hides the fade-in (/eb-maintain/animation),
// saves each (audited) and tries to hide everything (the save refuses); then the editor offers the
// styles in that order without 鎏金, and a title's in-animations without the fade. The pages are looked
// at in English too; the tenant's offers are put back for the journeys after this one. Screenshots
// under <E2E_OUT>/maintain-offer/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, api, shooter } from './lib.mjs';

export async function maintainOffer({ page, outDir, assert, signIn, bin }) {
  assert(bin, 'the journey needs E2E_BIN (the reelforge binary) to grant the administrator its level');
  const dir = path.join(outDir, 'maintain-offer');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  const admin = `e2e-admin-offer-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', admin, '--level', '0', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });
  await signIn(page, 'admin', admin);
  const before = { artWord: await api(page, '/catalogue/offer/artWord'), animation: await api(page, '/catalogue/offer/animation') };
  assert(before.artWord.code === 2000 && before.animation.code === 2000, `the offers read ${JSON.stringify(before).slice(0, 300)}`);
  try {
    await afterShot(shot, () => steps({ page, assert, shot, styles: before.artWord.data.items.map((i) => i.key) }));
  } finally {
    // The later journeys of this run share the tenant (editor-modes picks 鎏金): everything back.
    for (const catalogue of ['artWord', 'animation']) {
      const items = before[catalogue].data.items.map((i) => ({ key: i.key, offered: true }));
      const r = await api(page, '/maintain/catalogue/offer', { catalogue, items }).catch((e) => ({ error: String(e) }));
      assert(r.code === 2000, `putting the ${catalogue} offer back answered ${JSON.stringify(r).slice(0, 300)}`);
    }
  }
}

async function steps({ page, assert, shot, styles }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const saved = async () => {
    await page.getByTestId('offer-save').click();
    await page.locator('.ant-message').getByText('修改成功').last().waitFor();
  };

  // --- Art-word styles: 鎏金 hidden, 冰雪 first. ---
  await go('#/eb-maintain/artfont');
  await page.getByTestId('maintain-artfont').waitFor();
  await page.getByTestId('offer-preview-ice').waitFor();
  await shot('artfont-as-shipped');
  await page.getByTestId('offer-switch-gold').click();
  for (let i = styles.indexOf('ice'); i > 0; i -= 1) await page.getByTestId('offer-up-ice').click();
  await saved();
  await page.getByTestId('audit-catalogue:artWord').getByText('gold').first().waitFor();
  const order = await page.locator('[data-testid^="offer-name-"]').evaluateAll((els) => els.map((el) => el.dataset.testid.replace('offer-name-', '')));
  assert(order[0] === 'ice' && order.length === styles.length, `the page lists ${order.join(',')}`);
  await shot('artfont-saved-audited');

  // Hiding every style: the save is not offered, and says why.
  for (const key of styles) {
    const on = await page.getByTestId(`offer-switch-${key}`).getAttribute('aria-checked');
    if (on === 'true') await page.getByTestId(`offer-switch-${key}`).click();
  }
  await page.getByTestId('offer-none-hint').waitFor();
  assert(await page.getByTestId('offer-save').isDisabled(), 'saving nothing offered is not possible');
  await shot('artfont-none-offered');
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.getByTestId('maintain-artfont').waitFor();

  // --- Animations: the fade-in hidden. ---
  await go('#/eb-maintain/animation');
  await page.getByTestId('maintain-animation').waitFor();
  await page.getByTestId('offer-switch-MOTIONIN_OPACITY').click();
  await saved();
  await page.getByTestId('audit-catalogue:animation').getByText('MOTIONIN_OPACITY').first().waitFor();
  await page.getByTestId('offer-preview-MOTIONIN_MOVE_LEFT').hover();
  await shot('animation-saved-audited');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByTestId('offer-save').getByText('Save').waitFor();
  await shot('animation-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();

  // --- The editor offers what the tenant chose. ---
  await go('#/diy');
  await page.locator('#editor').waitFor();
  await page.evaluate(() => {
    const tab = [...document.querySelectorAll('[data-testid="material-panel"] .ant-tabs-tab')].find((t) => t.textContent === '文字');
    tab?.querySelector('.ant-tabs-tab-btn')?.click();
  });
  await page.getByTestId('artword-presets').waitFor();
  await page.getByTestId('artword-ice').waitFor();
  const offered = await page.locator('[data-testid="artword-presets"] [data-testid^="artword-"]').evaluateAll((els) => els.map((el) => el.dataset.testid.replace('artword-', '')));
  assert(offered[0] === 'ice' && !offered.includes('gold') && offered.length === styles.length - 1, `the editor offers ${offered.join(',')}`);
  await page.getByTestId('artword-ice').click();
  await page.locator('#editor .rf-layer[data-type="artWord"]').waitFor();
  await page.getByTestId('anim-in').waitFor();
  await page.getByTestId('anim-in-effect-move').waitFor();
  assert((await page.getByTestId('anim-in-effect-opacity').count()) === 0, 'the fade-in is not offered');
  await shot('editor-offers');
}
