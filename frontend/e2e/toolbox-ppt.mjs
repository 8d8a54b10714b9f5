// Issue 27, PPT to video in Chromium against `reelforge all`, through the UI as a user would go:
//   sign in; /tools/ppt: a three-page pptx (saved by LibreOffice from a flat ODF written here) uploaded,
//   1 s a page with a 300 ms crossfade, run and watched over the progress stream, the result shown and
//   played (its length 3 s, its frame 1280×720); the options and the result in zh-CN, then en-US.
//   Screenshots under <E2E_OUT>/toolbox-ppt/. Needs soffice and pdftoppm (make deps-debian).
// E2E_ONLY=toolbox-ppt runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notedJourney } from './lib.mjs';
import { numberInput, runAndWatch } from './toolbox-journey.mjs';

export async function toolboxPpt({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'toolbox-ppt', 'toolbox ppt', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, shot, note }));
}

/** A 16:9 presentation of three pages, each a large rectangle of its own colour, saved as pptx by LibreOffice. */
export function makeDeck(dir) {
  const colours = ['#f0f040', '#20a040', '#2020a0'];
  const styles = colours
    .map((c, i) => `<style:style style:name="r${i}" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="${c}" draw:stroke="none"/></style:style>`)
    .join('');
  const pages = colours
    .map((_, i) => `<draw:page draw:name="p${i}" draw:master-page-name="Default"><draw:rect draw:style-name="r${i}" svg:x="2cm" svg:y="2cm" svg:width="24cm" svg:height="11.75cm"/></draw:page>`)
    .join('');
  const flat = path.join(dir, '演示文稿.fodp');
  writeFileSync(
    flat,
    `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:automatic-styles><style:page-layout style:name="PM1"><style:page-layout-properties fo:margin-top="0cm" fo:margin-bottom="0cm" fo:margin-left="0cm" fo:margin-right="0cm" fo:page-width="28cm" fo:page-height="15.75cm"/></style:page-layout>${styles}</office:automatic-styles>
<office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1"/></office:master-styles>
<office:body><office:presentation>${pages}</office:presentation></office:body></office:document>`,
  );
  execFileSync('soffice', [`-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--headless', '--convert-to', 'pptx', '--outdir', dir, flat], {
    stdio: 'pipe',
    timeout: 120_000,
    env: { ...process.env, HOME: dir },
  });
  return path.join(dir, '演示文稿.pptx');
}

async function journey({ page, baseUrl, assert, signIn, shot, note }) {
  await signIn(page, 'toolbox-ppt');
  const scratch = mkdtempSync(path.join(tmpdir(), 'rf-toolbox-ppt-'));
  const deck = makeDeck(scratch);
  note(`deck ${statSync(deck).size} bytes`);

  await page.goto(`${baseUrl}/#/tools/ppt`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('tool-input-picker').waitFor({ timeout: 20_000 });
  await page.getByTestId('tool-input-picker').getByTestId('material-upload').locator('input[type=file]').setInputFiles(deck);
  await page.getByTestId('option-seconds-per-page').waitFor({ timeout: 60_000 });
  await numberInput(page, 'option-seconds-per-page').fill('1');
  await numberInput(page, 'option-seconds-per-page').blur();
  await numberInput(page, 'option-crossfade').fill('300');
  await numberInput(page, 'option-crossfade').blur();
  const method = (await page.getByTestId('tool-method').textContent()) ?? '';
  assert(method.includes('LibreOffice'), `the page says how: "${method}"`);
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="tool-run-button"]');
    return b && !b.disabled;
  }, undefined, { timeout: 90_000 });
  await shot('ppt-options');
  const started = page.waitForRequest((r) => r.url().includes('/diyvrbt/toolbox/run') && r.method() === 'POST');
  await runAndWatch({ page, assert, note }, 'ppt');
  const body = (await started).postDataJSON();
  assert(body.type === 'PPT_CONVERTER' && body.params.secondsPerPage === 1 && body.params.crossfadeMs === 300, `the run asked for the options: ${JSON.stringify(body)}`);
  await page.getByTestId('output-video').waitFor();
  const facts = (await page.getByTestId('output-facts').textContent()) ?? '';
  assert(facts.includes('1280×720'), `the result is a 720p frame: "${facts}"`);
  // The result plays: its length is 3 pages × 1 s, and its time moves once started.
  const played = await page.getByTestId('output-video').evaluate(
    (v) =>
      new Promise((resolve) => {
        const done = () => resolve({ duration: v.duration, time: v.currentTime, error: v.error?.code ?? null });
        const go = () => {
          v.muted = true;
          v.play().then(() => setTimeout(done, 800), () => done());
        };
        if (v.readyState >= 1) go();
        else v.addEventListener('loadedmetadata', go, { once: true });
        v.addEventListener('error', done, { once: true });
        setTimeout(done, 15_000);
      }),
  );
  note(`played ${JSON.stringify(played)}`);
  assert(played.error === null && Math.abs(played.duration - 3) < 0.1 && played.time > 0.2, `the result plays: ${JSON.stringify(played)}`);
  await shot('ppt-result');

  // --- The same page in English. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await shot('en-ppt-result');
  await page.getByTestId('tool-again').click();
  await page.getByTestId('tool-input-picker').getByTestId('upload-item').first().waitFor({ timeout: 10_000 }).catch(() => {});
  const pick = (await page.getByTestId('tool-input-picker').textContent()) ?? '';
  assert(pick.includes('presentation'), `the picker asks for a presentation in English: "${pick.slice(0, 200)}"`);
  await shot('en-ppt-page');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
}
