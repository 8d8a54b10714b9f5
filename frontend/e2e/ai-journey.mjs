// The issue-28 AI foundation in Chromium against `reelforge all` (default [ai]: the local abilities
// only): sign in; /ai/list shows the three groups, keyword extraction and the music climax cut
// available, text generation "not configured"; the keyword-extraction page extracts the keywords of a
// Chinese paragraph (人工智能 among them); the text-generation page shows why it is unavailable; the
// list again in en-US. Screenshots under <E2E_OUT>/ai-journey/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

const PARAGRAPH = '人工智能技术正在改变视频制作行业。借助人工智能，视频剪辑、字幕生成和配音都可以自动完成。';

export async function aiJourney({ page, baseUrl, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'ai-journey');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, async () => {
    await signIn(page, 'aijourney');
    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('group-other').waitFor();
    const kw = (await page.getByTestId('ability-keyword-extraction').textContent()) ?? '';
    assert(kw.includes('可用'), `keyword extraction: "${kw}"`);
    const tg = (await page.getByTestId('ability-text-generation').textContent()) ?? '';
    assert(tg.includes('未配置'), `text generation: "${tg}"`);
    await shot('list-zh');

    await page.getByTestId('ability-keyword-extraction').click();
    await page.getByLabel('文本').fill(PARAGRAPH);
    await page.getByRole('button', { name: /提取关键词/ }).click();
    await page.getByTestId('keywords').waitFor({ timeout: 20_000 });
    const words = (await page.getByTestId('keywords').textContent()) ?? '';
    assert(words.includes('人工智能'), `keywords: "${words}"`);
    await shot('keywords-zh');

    await page.goto(`${baseUrl}/#/ai/ability/create-text-generation`, { waitUntil: 'domcontentloaded' });
    await page.getByText('未配置').first().waitFor();
    await shot('text-generation-not-configured');

    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByText('Creation abilities').waitFor();
    await shot('list-en');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
