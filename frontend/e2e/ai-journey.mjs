// The issue-28 AI foundation in Chromium against `reelforge all` (default [ai]: the local abilities
// only): sign in; /ai/list shows the three groups, keyword extraction and the music climax cut
// available, text generation "not configured"; the keyword-extraction page extracts the keywords of a
// Chinese paragraph (人工智能 among them); the title page picks the paragraph's central sentence and
// says it is extracted; the text-generation page shows why it is unavailable, and the text-to-image
// page its form with why it is unavailable; /gesture lists its 24
// gestures and says recognition is not configured; /ai/test runs the
// local text abilities on its sample and skips text generation; the list and the self-check in
// en-US. Screenshots under <E2E_OUT>/ai-journey/.
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

    // A title made of the paragraph's own most central sentence, said to be so.
    await page.goto(`${baseUrl}/#/ai/ability/create-title-generation`, { waitUntil: 'domcontentloaded' });
    await page.getByLabel('文本').fill(`${PARAGRAPH}今天中午吃了面条。`);
    await page.getByRole('button', { name: /生\s?成/ }).click();
    await page.getByTestId('generated').waitFor({ timeout: 20_000 });
    const title = ((await page.getByTestId('generated').textContent()) ?? '').trim();
    assert(title.includes('人工智能') && !title.includes('面条'), `title: "${title}"`);
    assert(((await page.getByTestId('generated-by').textContent()) ?? '').includes('摘自原文'), 'the title does not say it is extracted');
    await shot('title-extracted');

    await page.goto(`${baseUrl}/#/ai/ability/create-text-generation`, { waitUntil: 'domcontentloaded' });
    await page.getByText('未配置').first().waitFor();
    await shot('text-generation-not-configured');

    // Text to image with no image provider configured: its real form, the reason with what would
    // enable it, and no run offered (nothing is faked).
    await page.goto(`${baseUrl}/#/ai/ability/create-text-to-image`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('picture-panel').waitFor();
    await page.getByText('未配置').first().waitFor();
    await page.getByText(/provider = "http" with base_url/).first().waitFor();
    await page.getByTestId('picture-prompt').waitFor();
    assert(await page.getByTestId('picture-run').isDisabled(), 'text to image offers a run with no provider');
    await shot('text-to-image-not-configured');

    // Gesture recognition, from its catalogue card: the 24 gestures, and why it is not offered.
    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('ability-gesture-recognition').click();
    await page.getByTestId('gesture-not-configured').getByText(/手势识别未配置/).waitFor();
    await page.getByTestId('gesture-not-configured').getByText(/no gesture-recognition model ships in a registry package/).waitFor();
    const gestures = await page.locator('[data-testid^="gesture-"]').evaluateAll((els) => els.filter((e) => e.closest('.ant-col')).length);
    assert(gestures === 24, `the gesture page lists 24 gestures: ${gestures}`);
    await page.getByTestId('gesture-Heart_single').getByText('单手比心').waitFor();
    await shot('gesture-not-configured');

    // The self-check: the local text abilities answer the sample, text generation is skipped.
    await page.goto(`${baseUrl}/#/ai/test`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('ai-test-run').click();
    for (const key of ['title-generation', 'dialogue-summary', 'keyword-extraction']) {
      await page.getByTestId(`ai-test-state-${key}`).getByText('通过').waitFor({ timeout: 30_000 });
    }
    const skipped = (await page.getByTestId('ai-test-state-text-generation').textContent()) ?? '';
    assert(skipped.includes('已跳过'), `text generation in the self-check: "${skipped}"`);
    await shot('self-check-zh');

    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByText('Creation abilities').waitFor();
    await shot('list-en');
    await page.goto(`${baseUrl}/#/ai/test`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('ai-test-run').click();
    await page.getByTestId('ai-test-state-keyword-extraction').getByText('Passed').waitFor({ timeout: 30_000 });
    await shot('self-check-en');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
