// The issue-16 autosave check in Chromium against `reelforge all`: a new document's edit is stored
// after it rests and offered back after a reload (restore puts the layer back, unsaved); a saved
// task edited and left (the page closed) is offered back when opened again, and a save makes the
// offer go away. Screenshots: <E2E_OUT>/autosave/NN-<step>.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { shooter } from './lib.mjs';

export async function autosaveCheck({ page, baseUrl, outDir, assert, context }) {
  const dir = path.join(outDir, 'autosave');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  const shapes = (p) => p.locator('#editor .rf-layer[data-type="shape"]').count();
  const addRect = async (p) => {
    const before = await shapes(p);
    await p.getByTestId('add-shape').hover();
    await p.getByRole('menuitem', { name: '矩形' }).click();
    await p.waitForFunction((k) => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === k, before + 1);
  };
  // The autosave is stored 2 s after the last change; wait until the server has it.
  const storedFor = (p, taskId) =>
    p.evaluate(async (taskId) => {
      const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
      const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
      for (let i = 0; i < 40; i += 1) {
        const r = await (await fetch(`/diyvrbt/redis/history/getOne?taskId=${taskId}`, { headers })).json();
        if (typeof r.data === 'string' && r.data.includes('"basedOn"') && r.data.includes('"shape"')) return true;
        await new Promise((res) => setTimeout(res, 250));
      }
      return false;
    }, taskId);

  // A new document: a rectangle, stored once it rests; the reload (leave guard accepted) offers it back.
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${baseUrl}/#/diy`, { waitUntil: 'domcontentloaded' });
  await page.locator('#editor').waitFor();
  await addRect(page);
  assert(await storedFor(page, -1), 'the new document\'s edit is autosaved');
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.locator('#editor').waitFor();
  await page.getByTestId('autosave-offer').waitFor();
  await shot('new-document-offer', page);
  assert((await shapes(page)) === 0, 'the reloaded page starts blank');
  await page.getByTestId('autosave-restore').click();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 1);
  assert((await page.getByTestId('autosave-offer').count()) === 0, 'the offer closes');
  await shot('new-document-restored', page);

  // Saved as a task, then edited and the page closed: opening the task offers the edit back.
  await page.getByTestId('save').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('已于'));
  const taskId = await page.evaluate(async () => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const mine = await (await fetch('/diyvrbt/videotask/mine?pageNum=1&pageSize=5', { headers })).json();
    return mine.data.list[0].id;
  });
  const second = await context.newPage();
  second.on('dialog', (d) => void d.accept());
  await second.goto(`${baseUrl}/#/diy?taskId=${taskId}`, { waitUntil: 'domcontentloaded' });
  await second.locator('#editor').waitFor();
  await second.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 1);
  await second.waitForTimeout(500);
  assert((await second.getByTestId('autosave-offer').count()) === 0, 'a task opened as saved offers nothing');
  await addRect(second);
  // Left at once, before the debounce: the page's leave handler stores it.
  await second.close({ runBeforeUnload: true });
  const third = await context.newPage();
  third.on('dialog', (d) => void d.accept());
  await third.goto(`${baseUrl}/#/diy?taskId=${taskId}`, { waitUntil: 'domcontentloaded' });
  await third.locator('#editor').waitFor();
  await third.getByTestId('autosave-offer').waitFor();
  await shot('task-offer', third);
  await third.getByTestId('autosave-restore').click();
  await third.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 2);
  await third.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('未保存'));
  await shot('task-restored-unsaved', third);
  await third.getByTestId('save').click();
  await third.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('已于'));
  await third.reload({ waitUntil: 'domcontentloaded' });
  await third.locator('#editor').waitFor();
  await third.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 2);
  await third.waitForTimeout(800);
  assert((await third.getByTestId('autosave-offer').count()) === 0, 'after a save nothing is offered');
  await shot('saved-no-offer', third);
  await third.close();
}
