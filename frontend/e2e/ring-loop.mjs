// The issue-26 loop-aware ringtone in Chromium against `reelforge all`: signed in, /diy with two
// scenes of 4 s; a starter track from the library is added and cut to its climax (POST
// /ai/climax answers, the item's cut follows); the in-call panel's "make it loop" crosses the
// seam (a bridge item) and adds the closing copy of the opening scene; then /channel-temring.
// Screenshots: <E2E_OUT>/ring-loop/NN-<step>.png (zh, then the channel page in English).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

const SCENE_LENGTH = 4;

export async function ringLoopCheck({ page, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'ring-loop');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 400);
  try {
    await afterShot(shot, () => steps({ page, assert, signIn, shot }));
  } finally {
    await page.evaluate(() => localStorage.setItem('reelforge.lang', 'zh-CN')).catch(() => {});
  }
}

async function steps({ page, assert, signIn, shot }) {
  await signIn(page, 'ring-loop');
  await page.evaluate(() => (window.location.hash = '#/diy'));
  await page.getByTestId('timeline-ruler').waitFor();
  await page.getByTestId('bottom-tab-scenes').click();
  const length = page.getByTestId('scene-strip').getByRole('spinbutton', { name: '时长' }).first();
  await length.fill(String(SCENE_LENGTH));
  await length.press('Enter');
  await page.getByTestId('bottom-tab-timeline').click();

  await page.getByTestId('left-pane').getByText('音频', { exact: true }).evaluate((el) => el.click());
  await page.getByTestId('music-library').waitFor();
  await page.getByTestId('music-add').first().click({ timeout: 30_000 });
  await page.getByTestId('music-bar').first().waitFor();
  const climax = page.waitForResponse((r) => r.url().includes('/diyvrbt/ai/climax'), { timeout: 60_000 });
  await page.getByTestId('audio-climax').click();
  const answer = await (await climax).json();
  console.log(`ring-loop: climax answered ${JSON.stringify(answer)}`);
  await page.waitForTimeout(500);
  await shot('cut-to-climax');
  if (answer.code === 2000) {
    const cutIn = Number(await page.getByTestId('audio-cut-in').inputValue());
    assert(Math.abs(cutIn - answer.data.startMs / 1000) < 0.01, `the cut follows the climax: ${cutIn} against ${answer.data.startMs} ms`);
  }

  await page.getByTestId('in-call-toggle').click();
  await page.getByTestId('make-it-loop').waitFor();
  await shot('make-it-loop-panel');
  await page.getByTestId('loop-apply').click();
  await page.waitForTimeout(500);
  await shot('make-it-loop-applied');
  const bars = await page.getByTestId('music-bar').count();
  console.log(`ring-loop: ${bars} music bars after make it loop`);

  await page.evaluate(() => (window.location.hash = '#/channel-temring'));
  await page.getByTestId('channel-templates').waitFor();
  await shot('channel-temring-zh');
  await page.evaluate(() => localStorage.setItem('reelforge.lang', 'en-US'));
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.getByTestId('channel-templates').waitFor();
  assert((await page.getByTestId('channel-templates').textContent())?.includes('Channel template rings'), 'the channel page in English');
  await shot('channel-temring-en');
}
