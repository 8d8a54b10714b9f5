// Visual smoke of the editor (reliability catalogue F6) in Chromium against `reelforge all`: at
// 1440×900, /diy signed in with a title and a rectangle added; one screenshot of the page, and in
// it the stage, the timeline, the toolbar and both side panels each hold a picture, not a flat box:
// the brightness of their pixels spreads (standard deviation) and takes several values. A region
// drawn blank (a crashed panel, an unstyled stage) is one colour and fails. Screenshot:
// <E2E_OUT>/editor-smoke/01-editor.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { shooter } from './lib.mjs';
import { readPng } from './newcomer-journey.mjs';

const VIEWPORT = { width: 1440, height: 900 };

/** The regions checked: a locator each, as the editor marks them. */
const REGIONS = {
  stage: '[data-testid="stage-frame"]',
  timeline: '[data-testid="timeline"]',
  toolbar: '[data-testid="editor-toolbar"]',
  'left panel': '[data-testid="material-slot"]',
  'property panel': '[data-testid="property-panel"]',
};

/** The spread of brightness in `box` of `frame`: standard deviation, and the number of distinct grey levels. */
function spread(frame, box) {
  const x0 = Math.max(0, Math.round(box.x));
  const y0 = Math.max(0, Math.round(box.y));
  const x1 = Math.min(frame.width, Math.round(box.x + box.width));
  const y1 = Math.min(frame.height, Math.round(box.y + box.height));
  let n = 0, sum = 0, squares = 0;
  const levels = new Set();
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const i = (y * frame.width + x) * 3;
      const lum = Math.round(0.299 * frame.rgb[i] + 0.587 * frame.rgb[i + 1] + 0.114 * frame.rgb[i + 2]);
      n += 1;
      sum += lum;
      squares += lum * lum;
      levels.add(lum);
    }
  }
  const mean = n ? sum / n : 0;
  return { pixels: n, deviation: n ? Math.sqrt(Math.max(0, squares / n - mean * mean)) : 0, levels: levels.size };
}

export async function editorSmoke({ page, baseUrl, outDir, assert }) {
  const dir = path.join(outDir, 'editor-smoke');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await page.setViewportSize(VIEWPORT);
  await page.goto(`${baseUrl}/#/diy`, { waitUntil: 'domcontentloaded' });
  await page.locator('#editor').waitFor();
  // The title first, then the shape, each menu closed before the next opens (as editor-journey
  // does): a hover over 添加文字 while the shape menu was still closing sometimes opened nothing.
  await page.getByTestId('add-text').hover();
  await page.getByRole('menuitem', { name: /^标题/ }).click();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer').length === 1);
  await page.mouse.move(VIEWPORT.width / 2, 5);
  await page.getByRole('menu').waitFor({ state: 'hidden' }).catch(() => {});
  await page.getByTestId('add-shape').hover();
  await page.getByRole('menuitem', { name: '矩形' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer').length === 2);
  // The menus close and the pointer leaves the toolbar: the screenshot shows the editor alone.
  await page.mouse.move(VIEWPORT.width / 2, 5);
  await page.getByRole('menu').waitFor({ state: 'hidden' }).catch(() => {});
  await shot('editor');
  const frame = readPng(path.join(dir, '01-editor.png'));
  assert(frame.width === VIEWPORT.width && frame.height === VIEWPORT.height, `the screenshot is ${frame.width}×${frame.height}, not 1440×900`);
  const failures = [];
  for (const [name, selector] of Object.entries(REGIONS)) {
    const box = await page.locator(selector).first().boundingBox();
    if (!box || box.width < 40 || box.height < 20) {
      failures.push(`${name}: no box on screen (${JSON.stringify(box)})`);
      continue;
    }
    const s = spread(frame, box);
    console.log(`editor-smoke: ${name} ${Math.round(box.width)}×${Math.round(box.height)} at ${Math.round(box.x)},${Math.round(box.y)}: deviation ${s.deviation.toFixed(1)}, ${s.levels} grey levels`);
    if (s.deviation < 3 || s.levels < 8) failures.push(`${name} looks blank: deviation ${s.deviation.toFixed(1)}, ${s.levels} grey levels`);
  }
  assert(failures.length === 0, failures.join('; '));
}
