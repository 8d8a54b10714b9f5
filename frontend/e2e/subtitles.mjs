// The issue-16 subtitles check in Chromium against `reelforge all`: an SRT file imported from the
// add-text menu becomes caption layers on the timeline (a cue past the video's end left out, the
// message saying so), one undo step; a broken file is refused naming its line. Screenshots:
// <E2E_OUT>/subtitles/NN-<step>.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const SRT = '1\n00:00:00,500 --> 00:00:01,500\n第一句字幕\n\n2\n00:00:01,800 --> 00:00:02,900\nSecond line\n\n3\n00:00:09,000 --> 00:00:10,000\n超出时长\n';

export async function subtitlesCheck({ page, baseUrl, outDir, assert }) {
  const dir = path.join(outDir, 'subtitles');
  mkdirSync(dir, { recursive: true });
  const words = () => page.locator('#editor .rf-layer[data-type="word"]').count();
  await page.goto(`${baseUrl}/#/diy`, { waitUntil: 'domcontentloaded' });
  await page.locator('#editor').waitFor();
  await page.getByTestId('add-text').hover();
  await page.getByRole('menuitem', { name: /导入字幕/ }).waitFor();
  // Speech recognition runs here (pocketsphinx, issue 28): smart subtitles are offered (e2e/ai-asr.mjs runs them).
  assert((await page.getByRole('menuitem', { name: /智能字幕/ }).getAttribute('aria-disabled')) !== 'true', 'smart subtitles are offered');
  await page.screenshot({ path: path.join(dir, '01-menu.png') });
  await page.getByTestId('subtitle-file').setInputFiles({ name: 'subs.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT) });
  await page.getByText('已添加 2 条字幕，1 条超出视频时长已忽略').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="word"]').length === 2);
  const texts = await page.locator('#editor .rf-layer[data-type="word"]').allInnerTexts();
  assert(texts.some((x) => x.includes('第一句字幕')) && texts.some((x) => x.includes('Second line')), `captions on the stage: ${texts.join(' | ')}`);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, '02-imported.png') });
  await page.getByTestId('undo').click();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="word"]').length === 0);
  await page.getByTestId('subtitle-file').setInputFiles({ name: 'bad.srt', mimeType: 'application/x-subrip', buffer: Buffer.from('1\n00:00:02,000 --> 00:00:01,000\nx\n') });
  await page.getByText('字幕导入失败：第 2 行：the cue ends before it starts').waitFor();
  assert((await words()) === 0, 'a broken file adds nothing');
  await page.screenshot({ path: path.join(dir, '03-refused.png') });
}
