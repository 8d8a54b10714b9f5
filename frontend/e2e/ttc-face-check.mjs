// One-off check (not in run.mjs): loads the Noto Sans CJK collection with the FontFace API as it
// is (the browser takes its first face, JP) and as the stage now loads it (the SC face taken out by
// src/editor/fonts/ttc.ts, transpiled here), draws characters whose JP
// and SC forms differ, and compares each with the SC face the system font lookup gives.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import ts from 'typescript';

const file = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const ttc = readFileSync(file).toString('base64');
// The module's TypeScript turned into a plain function body.
const ttcTs = ts
  .transpileModule(readFileSync(new URL('../src/editor/fonts/ttc.ts', import.meta.url), 'utf8'), { compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext } })
  .outputText.replace(/^export /gm, '');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage();
const result = await page.evaluate(async ({ ttc, ttcTs }) => {
  const faceOfCollection = new Function(`${ttcTs}; return faceOfCollection;`)();
  const bytes = Uint8Array.from(atob(ttc), (c) => c.charCodeAt(0)).buffer;
  const raw = new FontFace('RawTTC', bytes.slice(0));
  const sc = new FontFace('ExtractedSC', faceOfCollection(bytes, 'Noto Sans CJK SC', { bold: false, italic: false }));
  await raw.load();
  await sc.load();
  document.fonts.add(raw);
  document.fonts.add(sc);
  const draw = (family, text) => {
    const c = document.createElement('canvas');
    c.width = 400;
    c.height = 100;
    const g = c.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 400, 100);
    g.fillStyle = '#000';
    g.font = `80px ${family}`;
    g.fillText(text, 0, 80);
    return g.getImageData(0, 0, 400, 100).data;
  };
  const diff = (a, b) => {
    let n = 0;
    for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) > 64) n += 1;
    return n;
  };
  const text = '骨直刃';
  const local = draw('"Noto Sans CJK SC"', text);
  const localJp = draw('"Noto Sans CJK JP"', text);
  return {
    rawVsLocalSC: diff(draw('RawTTC', text), local),
    rawVsLocalJP: diff(draw('RawTTC', text), localJp),
    extractedVsLocalSC: diff(draw('ExtractedSC', text), local),
    extractedVsLocalJP: diff(draw('ExtractedSC', text), localJp),
  };
}, { ttc, ttcTs });
console.log(JSON.stringify(result));
await browser.close();
