// Preview = export (issue 15): for each reference document, the editor's stage (`#editor`) and the
// server's exact-frame still at the same time, compared by SSIM over grayscale. Both PNGs are kept
// under <E2E_OUT>/preview/. The SSIM is computed in the page (the browser decodes the PNGs, no
// image package needed): the still is scaled to the stage's size, both turned to luma
// (Rec. 601), then the mean SSIM of 8×8 windows with a 4 px stride (Wang et al. 2004, constants
// K1 0.01, K2 0.03, L 255; the block variant ssim.js calls "fast").
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The goal of the issue: the stage and the export agree at least this well. */
export const SSIM_GOAL = 0.9;
/**
 * The e2e fails below this floor. 0.5 is far below what a stage that draws the right layers in the
 * right places scores (a wrong scene, an empty stage or a layer missing from one side falls under
 * it), while the figure printed is the honest one; the goal above is reported, not enforced.
 */
export const SSIM_FLOOR = 0.5;

/** The call headers of the signed-in user of `page`, as the SPA sends them. */
export async function apiHeaders(page) {
  return page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    return { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
  });
}

/**
 * Uploads a picture drawn in the page (`kind`: 'photo', a colourful scene that filters change
 * visibly) as the signed-in user's material; answers {id, url} (url carries the media ticket).
 */
export async function uploadPicture(page, kind, name) {
  return page.evaluate(async ({ kind, name }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const c = document.createElement('canvas');
    c.width = 480;
    c.height = 320;
    const g = c.getContext('2d');
    const sky = g.createLinearGradient(0, 0, 0, 320);
    sky.addColorStop(0, '#2b6cb0');
    sky.addColorStop(1, '#f6ad55');
    g.fillStyle = sky;
    g.fillRect(0, 0, 480, 320);
    g.fillStyle = kind === 'photo' ? '#2f855a' : '#c53030';
    g.beginPath();
    g.moveTo(0, 320);
    g.lineTo(160, 150);
    g.lineTo(300, 320);
    g.fill();
    g.fillStyle = '#faf089';
    g.beginPath();
    g.arc(360, 90, 50, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#ffffff';
    g.fillRect(330, 220, 120, 60);
    const blob = await new Promise((r) => c.toBlob(r, 'image/png'));
    const form = new FormData();
    for (const [k, v] of Object.entries({ userId: user.id, type: 'picture', expireDay: '1000', categoryId: '-1', styleId: '-1', materialState: '0' })) form.append(k, v);
    form.append('uploadFile', new File([blob], name, { type: 'image/png' }));
    const up = await (await fetch('/diyvrbt/upload/material', { method: 'POST', headers, body: form })).json();
    if (up.code !== 2000) throw new Error(`upload answered ${JSON.stringify(up)}`);
    const id = String(up.data).replace(/^UPLOADED - /, '');
    const info = await (await fetch(`/diyvrbt/material/info/${id}`, { method: 'POST', headers })).json();
    if (info.code !== 2000) throw new Error(`material info answered ${JSON.stringify(info)}`);
    return { id, url: info.data.url };
  }, { kind, name });
}

/** The library font family the faces document is set in: its four files, uploaded as the user's fonts. */
const LIBRARY_FAMILY = { name: 'Liberation Sans', dir: '/usr/share/fonts/truetype/liberation2', files: ['LiberationSans-Regular.ttf', 'LiberationSans-Italic.ttf', 'LiberationSans-Bold.ttf', 'LiberationSans-BoldItalic.ttf'] };

/**
 * Uploads the library family's files as the signed-in user's fonts (`POST /font/upload`); answers
 * the Regular file's id (a text names it and its family; the faces are picked by weight and slant).
 */
export async function uploadLibraryFamily(page) {
  const ids = [];
  for (const file of LIBRARY_FAMILY.files) {
    const b64 = readFileSync(path.join(LIBRARY_FAMILY.dir, file)).toString('base64');
    const up = await page.evaluate(async ({ name, b64 }) => {
      const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
      const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
      const form = new FormData();
      form.append('file', new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: 'font/ttf' }));
      return (await fetch('/diyvrbt/font/upload', { method: 'POST', headers, body: form })).json();
    }, { name: file, b64 });
    if (up.code !== 2000 || up.data.name !== LIBRARY_FAMILY.name) throw new Error(`font upload of ${file} answered ${JSON.stringify(up).slice(0, 300)}`);
    ids.push(up.data.id);
  }
  return ids[0];
}

/** Saves `rule` as a new task of the signed-in user; answers its id. */
export async function saveTask(page, rule, name, sizeCategoryId) {
  const saved = await page.evaluate(async ({ rule, name, sizeCategoryId }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), name, sizeCategoryId: String(sizeCategoryId) });
    return (await fetch('/diyvrbt/videotask/save', { method: 'POST', headers, body })).json();
  }, { rule, name, sizeCategoryId });
  if (saved.code !== 2000) throw new Error(`save answered ${JSON.stringify(saved).slice(0, 400)}`);
  return saved.data;
}

const ratio = (name, width, height, sizeId, targetWidth) => ({ name, width, height, ratio: name, sizeId, targetWidth });
const base = (resolutionRatio, layers, bgColor) => ({
  version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25, resolutionRatio,
  scenes: [{ type: 'canvas', timeLength: 4, bgColor, effectTime: 1, isActive: true, layers }],
  audio: [],
});
const common = (id, z, x, y, w, h) => ({ id, z, x, y, w, h, startTime: 0, endTime: 4, rotate: 0 });

/** The reference documents; `pics` are uploaded pictures {url}; `fontId` the library family's Regular file. */
export function referenceDocuments(pics, fontId) {
  const word = (id, z, x, y, w, h, content, fontSize, color, extra = {}) => ({ type: 'word', ...common(id, z, x, y, w, h), content, fontSize, color, textAlign: 'center', lineHeight: 1.2, ...extra });
  return [
    {
      name: 'text-cjk-9x16',
      size: 50,
      rule: base(ratio('9:16', 360, 640, 50, 720), [
        word('t1', 101, 20, 80, 320, 60, '春节快乐 新年好', 40, '#ffffff', { bold: true }),
        word('t2', 102, 20, 260, 320, 90, '铃声视频 Reelforge 2026', 28, '#fde047', { underline: true }),
        word('t3', 103, 20, 480, 320, 40, '双击编辑文字', 24, '#111827', { bgFillColor: '#ffffff' }),
      ], '#7f1d1d'),
    },
    {
      name: 'pictures-filters-16x9',
      size: 41,
      rule: base(ratio('16:9', 640, 360, 41, 1280), [
        { type: 'picture', ...common('p1', 101, 20, 30, 290, 193), src: pics[0].url, opacity: 1, filter: '', maskClip: -1 },
        { type: 'picture', ...common('p2', 102, 330, 30, 290, 193), src: pics[0].url, opacity: 1, filter: 'blackWhite', maskClip: -1 },
        { type: 'picture', ...common('p3', 103, 175, 240, 180, 110), src: pics[1].url, opacity: 0.8, filter: 'warm', blur: 0, maskClip: -1 },
      ], '#0f172a'),
    },
    {
      name: 'shapes-mask-16x9',
      size: 41,
      rule: base(ratio('16:9', 640, 360, 41, 1280), [
        { type: 'shape', ...common('s1', 101, 40, 40, 160, 160), shape: 'rect', fill: '#22c55e', stroke: '', strokeWidth: 0, borderRadius: 0 },
        { type: 'shape', ...common('s2', 102, 240, 40, 160, 160), shape: 'circle', fill: '#f97316', stroke: '', strokeWidth: 0, borderRadius: 0 },
        { type: 'shape', ...common('s3', 103, 440, 40, 160, 160), shape: 'equilateral-triangle', fill: '#3b82f6', stroke: '', strokeWidth: 0, borderRadius: 0 },
        // The "masked" picture: rounded corners (maskClip names a numeric material id, which user
        // uploads, named by uuid, cannot be; see docs/editor.md).
        { type: 'picture', ...common('p1', 104, 200, 220, 240, 120), src: pics[1].url, opacity: 1, borderRadius: 40, maskClip: -1 },
      ], '#fafafa'),
    },
    {
      // Art words as the material panel's styles make them: gradient, solid, one and two borders, shadow, alpha.
      name: 'art-words-16x9',
      size: 41,
      rule: base(ratio('16:9', 640, 360, 41, 1280), [
        word('a1', 101, 40, 30, 560, 90, '鎏金艺术字', 56, '#ffffff', { type: 'artWord', bold: true, lineHeight: 1.5, color1: '#fff3b0', color2: '#e0a100', fillColor: '#e0a100', border1: { color: '#7a4a00', width: 2 }, border2: '', shadowColor: '#3b2400', alpha: 255 }),
        word('a2', 102, 40, 140, 560, 90, '红白描边 Sale', 48, '#ffffff', { type: 'artWord', bold: true, lineHeight: 1.5, color1: '', color2: '#e5242b', fillColor: '#e5242b', border1: { color: '#ffffff', width: 3 }, border2: { color: '#e5242b', width: 2 }, shadowColor: '', alpha: 255 }),
        word('a3', 103, 40, 250, 560, 90, '霓虹 半透明', 48, '#ffffff', { type: 'artWord', bold: true, lineHeight: 1.5, color1: '#7df9ff', color2: '#1e90ff', fillColor: '#1e90ff', border1: { color: '#ffffff', width: 1 }, border2: { color: '#0b3d91', width: 3 }, shadowColor: '', alpha: 200 }),
      ], '#334155'),
    },
    {
      // Issue 33's widened suite: pictures turned both ways (their corners must show whole), shapes
      // with drop shadows that reach past their box, a catalogue rectangle with a corner radius.
      name: 'rotated-shadows-1x1',
      size: 51,
      rule: base(ratio('1:1', 640, 640, 51, 720), [
        { type: 'picture', ...common('p1', 101, 40, 60, 260, 173), rotate: 12, src: pics[0].url, opacity: 1, filter: '', maskClip: -1 },
        { type: 'picture', ...common('p2', 102, 340, 60, 260, 173), rotate: -15, src: pics[1].url, opacity: 1, filter: '', maskClip: -1 },
        { type: 'shape', ...common('s1', 103, 60, 330, 220, 140), shape: 'rect', shapeCode: CATALOGUE_RECT, fill: '#22c55e', stroke: '', strokeWidth: 0, borderRadius: 36 },
        { type: 'shape', ...common('s2', 104, 360, 330, 200, 200), shape: 'circle', fill: '', fillType: 'gradient', gradientColors: ['#f97316', '#a855f7'], stroke: '', strokeWidth: 0, borderRadius: 0,
          shadowColor: '#000000', shadowSetX: 12, shadowSetY: 12, shadowBlur: 8 },
        { type: 'shape', ...common('s3', 105, 80, 520, 180, 80), shape: 'rect', fill: '#3b82f6', stroke: '#ffffff', strokeWidth: 4, borderRadius: 0,
          shadowColor: '#111827', shadowSetX: 10, shadowSetY: 10, shadowBlur: 6 },
      ], '#e2e8f0'),
    },
    {
      // Issue 33's widened suite: a bordered picture with round corners, a mirrored one, and a title
      // longer than its box (the overflow rule is the same on both sides).
      name: 'borders-overflow-4x3',
      size: 42,
      rule: base(ratio('4:3', 640, 480, 42, 960), [
        { type: 'picture', ...common('p1', 101, 40, 40, 260, 173), src: pics[0].url, opacity: 1, filter: '', maskClip: -1, borderWidth: 6, borderColor: '#ffffff', borderRadius: 24 },
        { type: 'picture', ...common('p2', 102, 340, 40, 260, 173), src: pics[0].url, opacity: 1, filter: '', maskClip: -1, mirror: true },
        word('t1', 103, 40, 260, 560, 60, '一行放不下的长标题 会换到第二行 再到第三行', 36, '#ffffff', { bold: true }),
        word('t2', 104, 40, 400, 560, 50, 'Reelforge 2026', 30, '#fde047', { italic: true }),
      ], '#1e3a8a'),
    },
    ...(fontId
      ? [{
        // Issue 33's widened suite: a library family's four faces, each picked from its own file
        // (by weight and slant) on both sides.
        name: 'library-faces-16x9',
        size: 41,
        rule: base(ratio('16:9', 640, 360, 41, 1280), ['', { italic: true }, { bold: true }, { bold: true, italic: true }].map((style, i) =>
          word(`f${i}`, 101 + i, 40, 30 + i * 80, 560, 60, 'Quick brown fox 2026', 40, '#0f172a', { fontId, fontFamily: LIBRARY_FAMILY.name, ...style }),
        ), '#f8fafc'),
      }]
      : []),
  ];
}

/** The catalogue's rectangle drawing (`GET /shape/rect`), as a picked rectangle carries it. */
const CATALOGUE_RECT = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100" fill="currentColor"><rect width="100" height="100"/></svg>';

/** The mean SSIM of two PNGs (data URLs) in the page, the second scaled to the first's size. */
export async function ssimInPage(page, stageUrl, stillUrl) {
  return page.evaluate(async ({ stageUrl, stillUrl }) => {
    const load = (src) => new Promise((ok, bad) => {
      const img = new Image();
      img.onload = () => ok(img);
      img.onerror = () => bad(new Error('image did not decode'));
      img.src = src;
    });
    const [a, b] = await Promise.all([load(stageUrl), load(stillUrl)]);
    const w = a.naturalWidth;
    const h = a.naturalHeight;
    const luma = (img) => {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      const g = c.getContext('2d');
      g.imageSmoothingQuality = 'high';
      g.drawImage(img, 0, 0, w, h);
      const px = g.getImageData(0, 0, w, h).data;
      const out = new Float64Array(w * h);
      for (let i = 0; i < w * h; i += 1) out[i] = 0.299 * px[i * 4] + 0.587 * px[i * 4 + 1] + 0.114 * px[i * 4 + 2];
      return out;
    };
    const x = luma(a);
    const y = luma(b);
    const C1 = (0.01 * 255) ** 2;
    const C2 = (0.03 * 255) ** 2;
    const N = 8;
    let sum = 0;
    let count = 0;
    for (let top = 0; top + N <= h; top += 4) {
      for (let left = 0; left + N <= w; left += 4) {
        let mx = 0, my = 0;
        for (let j = 0; j < N; j += 1) for (let i = 0; i < N; i += 1) {
          const k = (top + j) * w + left + i;
          mx += x[k];
          my += y[k];
        }
        mx /= N * N;
        my /= N * N;
        let vx = 0, vy = 0, cov = 0;
        for (let j = 0; j < N; j += 1) for (let i = 0; i < N; i += 1) {
          const k = (top + j) * w + left + i;
          vx += (x[k] - mx) ** 2;
          vy += (y[k] - my) ** 2;
          cov += (x[k] - mx) * (y[k] - my);
        }
        vx /= N * N - 1;
        vy /= N * N - 1;
        cov /= N * N - 1;
        sum += ((2 * mx * my + C1) * (2 * cov + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
        count += 1;
      }
    }
    return { ssim: sum / count, width: w, height: h, stillWidth: b.naturalWidth, stillHeight: b.naturalHeight };
  }, { stageUrl, stillUrl });
}

/** Waits until the stage's pictures are decoded, its texts' font files loaded and the page's fonts ready. */
export async function stageSettled(page) {
  const settled = await page
    .waitForFunction(() => {
      const imgs = Array.from(document.querySelectorAll('#editor img'));
      return imgs.every((i) => i.complete && i.naturalWidth > 0) && document.querySelector('#editor [data-font="loading"]') === null;
    }, undefined, { timeout: 60_000 })
    .then(() => null, (e) => e);
  if (settled) {
    // Names what did not settle: a picture whose address does not load (with its status) or a face still loading.
    const left = await page.evaluate(async () => {
      const imgs = Array.from(document.querySelectorAll('#editor img')).filter((i) => !(i.complete && i.naturalWidth > 0));
      const pictures = await Promise.all(imgs.map(async (i) => `${i.src.slice(0, 160)} (${await fetch(i.src).then((r) => r.status, (e) => String(e))})`));
      const texts = Array.from(document.querySelectorAll('#editor [data-font="loading"]')).map((t) => t.textContent);
      return { pictures, texts };
    });
    throw new Error(`the stage did not settle: pictures ${JSON.stringify(left.pictures)}, texts still loading their face ${JSON.stringify(left.texts)}`);
  }
  await page.evaluate(() => document.fonts.ready);
}

/** The editor windows the stage is compared in: the run's own (1280×800), then a full-HD screen. */
const WINDOWS = [null, { width: 1920, height: 1080 }];

/**
 * Opens each reference document in /diy, screenshots the stage, shows the exact frame through
 * the editor's button and compares the two; in the run's window, then in a 1920×1080 one (printed
 * with `@1920x1080`). Answers [{name, ssim}].
 */
export async function previewEqualsExport({ page, baseUrl, outDir, assert }) {
  const dir = path.join(outDir, 'preview');
  mkdirSync(dir, { recursive: true });
  const pics = [await uploadPicture(page, 'photo', 'preview-a.png'), await uploadPicture(page, 'other', 'preview-b.png')];
  const fontId = await uploadLibraryFamily(page);
  const results = [];
  const first = page.viewportSize();
  for (const window of WINDOWS) {
    if (window) await page.setViewportSize(window);
    const at = window ? ` @${window.width}x${window.height}` : '';
    results.push(...(await compareDocuments({ page, baseUrl, dir, assert, pics, fontId, at, suffix: window ? `-${window.width}` : '' })));
  }
  if (first) await page.setViewportSize(first);
  const below = results.filter((r) => r.ssim < SSIM_GOAL).map((r) => r.name);
  if (below.length > 0) console.log(`preview SSIM below the goal ${SSIM_GOAL}: ${below.join(', ')}`);
  writeFileSync(path.join(dir, 'ssim.json'), JSON.stringify(results, null, 2));
  return results;
}

/** Compares every reference document's stage with its still in the page's current window. */
async function compareDocuments({ page, baseUrl, dir, assert, pics, fontId, at, suffix }) {
  const results = [];
  for (const doc of referenceDocuments(pics, fontId)) {
    const taskId = await saveTask(page, doc.rule, `preview ${doc.name}`, doc.size);
    await page.goto(`${baseUrl}/#/diy?taskId=${taskId}`, { waitUntil: 'domcontentloaded' });
    await page.locator('#editor .rf-layer').first().waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('#editor .rf-layer').length === n, doc.rule.scenes[0].layers.length);
    await stageSettled(page);
    // A face the browser refused would leave the text in a fallback font, which the figure would hide.
    const failed = await page.evaluate(() => Array.from(document.querySelectorAll('#editor [data-font="failed"]')).map((t) => t.textContent));
    assert(failed.length === 0, `${doc.name}: texts whose face failed to load: ${JSON.stringify(failed)}`);
    // A stage on fractional pixels shows a column of the backdrop at its edge (issue 33).
    const box = await page.locator('#editor').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height];
    });
    assert(box.every((v) => Math.abs(v - Math.round(v)) < 0.01), `${doc.name}${at}: the stage sits on whole pixels: ${box.join(', ')}`);
    const stage = await page.locator('#editor').screenshot({ path: path.join(dir, `${doc.name}${suffix}-stage.png`) });
    await page.getByTestId('exact-frame').click();
    const img = page.getByTestId('exact-frame-image');
    await img.waitFor({ timeout: 60_000 });
    // The drawer's decoded image, drawn at its own size into a canvas and read back as PNG.
    const still = await page.evaluate(async () => {
      const img = document.querySelector('[data-testid="exact-frame-image"]');
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      c.getContext('2d').drawImage(img, 0, 0);
      return c.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
    });
    writeFileSync(path.join(dir, `${doc.name}${suffix}-still.png`), Buffer.from(still, 'base64'));
    await page.screenshot({ path: path.join(dir, `${doc.name}${suffix}-editor-with-drawer.png`) });
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-close').click().catch(() => {});
    const m = await ssimInPage(page, `data:image/png;base64,${stage.toString('base64')}`, `data:image/png;base64,${still}`);
    const ssim = Math.round(m.ssim * 1000) / 1000;
    console.log(`preview SSIM ${doc.name}${at}: ${ssim} (stage ${m.width}×${m.height}, still ${m.stillWidth}×${m.stillHeight})`);
    results.push({ name: `${doc.name}${at}`, ssim });
    assert(m.ssim >= SSIM_FLOOR, `preview SSIM ${doc.name}${at} ${ssim} is below the floor ${SSIM_FLOOR}`);
  }
  return results;
}
