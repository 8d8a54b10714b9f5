// The issue-28 dubbing in Chromium against `reelforge all` (default [ai]: text to speech local,
// espeak-ng on the machine): signed in, /diy with one 8 s scene, the playhead at 2 s; the audio tab's
// 文字配音 dialog speaks a Mandarin sentence (普通话) on the farm, showing its progress (recorded as it
// changes: it is over within a second), and the sound lands on the timeline as a voice item starting
// at the playhead, as long as the WAV the farm made; the saved document has it. Then /ai/list lists
// speech synthesis as available, and its ability page speaks an English sentence into a player that
// reads its length. Last, the dialog's English labels.
// Screenshots under <E2E_OUT>/ai-dubbing/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

const DOC_LENGTH = 8;
const DUB_AT = 2;
const SENTENCE = '欢迎使用视频编辑平台，这是一段文字配音。';

async function api(page, url) {
  return page.evaluate(async (url) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    return (await fetch(`/diyvrbt${url}`, { headers })).json();
  }, url);
}

export async function aiDubbing({ page, baseUrl, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'ai-dubbing');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, async () => {
    await signIn(page, 'aidubbing');
    await page.evaluate(() => (window.location.hash = '#/diy'));
    await page.getByTestId('timeline-ruler').waitFor();
    await page.getByTestId('bottom-tab-scenes').click();
    const length = page.getByTestId('scene-strip').getByRole('spinbutton', { name: '时长' }).first();
    await length.fill(String(DOC_LENGTH));
    await length.press('Enter');
    await page.getByTestId('bottom-tab-timeline').click();
    await page.waitForFunction((d) => (document.querySelector('[data-testid="current-time"]')?.textContent ?? '').includes(`/ 00:0${d}.0`), DOC_LENGTH);
    const ruler = await page.getByTestId('timeline-ruler').boundingBox();
    await page.mouse.click(ruler.x + DUB_AT * 100, ruler.y + 5);
    await page.waitForFunction((t) => Math.abs(Number(document.querySelector('[data-testid="current-time"]')?.dataset.time) - t) < 0.06, DUB_AT);

    // The audio tab's dubbing: the dialog, a Mandarin sentence, run on the farm.
    await page.getByTestId('left-pane').getByText('音频', { exact: true }).evaluate((el) => el.click());
    const dubbing = page.getByTestId('dubbing');
    await dubbing.waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="dubbing"]')?.hasAttribute('disabled'), undefined, { timeout: 15_000 });
    await dubbing.click();
    await page.getByTestId('dubbing-dialog').waitFor();
    await page.getByTestId('speech-text').fill(SENTENCE);
    await page.getByTestId('speech-voice-cmn').click();
    await shot('dubbing-dialog');
    // The progress is over within a second here (espeak-ng speaks ~400× faster than real time), too
    // fast to photograph: what it showed is recorded as it changes.
    await page.evaluate(() => {
      window.__dubbingProgress = [];
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="dubbing-progress"]')?.textContent ?? '';
        if (text && window.__dubbingProgress.at(-1) !== text) window.__dubbingProgress.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByTestId('dubbing-run').click();
    await page.getByTestId('music-bar').first().waitFor({ timeout: 60_000 });
    const progress = await page.evaluate(() => window.__dubbingProgress);
    console.log(`ai-dubbing: the dialog's progress showed ${JSON.stringify(progress)}`);
    assert(progress.length > 0, "the dialog showed the run's progress");
    await page.getByTestId('dubbing-dialog').waitFor({ state: 'detached', timeout: 10_000 });
    await shot('dubbing-on-timeline');
    const item = (await page.getByTestId('doc-audio-0').textContent()) ?? '';
    assert(item.includes('配音'), `the item is a dubbing: "${item}"`);

    // Saved: a voice item at the playhead, as long as the farm's WAV.
    const saving = page.waitForResponse((r) => r.url().includes('/diyvrbt/videotask/save'), { timeout: 30_000 });
    await page.getByTestId('save').click();
    const saved = await (await saving).json();
    assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
    const task = await api(page, `/videotask/ofone/${Number(saved.data)}`);
    const info = JSON.parse(task.data.videoCreateInfo ?? task.data.taskInfo ?? '{}');
    const [voice] = info.audio ?? [];
    assert(voice?.type === 'voice' && Math.abs(voice.startTime - DUB_AT) < 0.06, `saved voice: ${JSON.stringify(voice)}`);
    const spoken = voice.endTime - voice.startTime;
    assert(spoken > 2 && Math.abs(spoken - voice.len) < 0.05, `the voice lasts as its WAV: ${JSON.stringify(voice)}`);
    console.log(`ai-dubbing: ${[...SENTENCE].length} characters spoken in ${spoken.toFixed(2)} s, placed at ${voice.startTime.toFixed(2)} s`);

    // The catalogue and the ability page: an English sentence into a player.
    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('group-analyze').waitFor();
    const listed = (await page.getByTestId('ability-text-to-speech').textContent()) ?? '';
    assert(listed.includes('可用'), `speech synthesis: "${listed}"`);
    await page.getByTestId('ability-text-to-speech').click();
    await page.getByTestId('speech-panel').waitFor();
    await page.getByTestId('speech-text').fill('Hello, this is a voice made on this machine.');
    await page.getByTestId('speech-voice-en').click();
    await page.getByTestId('speech-run').click();
    await page.getByTestId('output-audio').waitFor({ timeout: 60_000 });
    const played = await page.getByTestId('output-audio').evaluate((a) => new Promise((resolve) => {
      if (a.readyState >= 1) resolve(a.duration);
      else a.addEventListener('loadedmetadata', () => resolve(a.duration), { once: true });
    }));
    assert(played > 1, `the player reads the WAV's length: ${played} s`);
    await page.getByTestId('tool-outputs').scrollIntoViewIfNeeded();
    await shot('ability-page-result');

    // The dialog's English labels.
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.evaluate(() => (window.location.hash = '#/diy'));
    await page.getByTestId('timeline-ruler').waitFor();
    await page.getByTestId('left-pane').getByText('Audio', { exact: true }).evaluate((el) => el.click());
    await page.getByTestId('dubbing').click();
    await page.getByTestId('dubbing-dialog').waitFor();
    await page.getByTestId('speech-text').fill('A short English line.');
    await shot('dubbing-dialog-en');
    await page.keyboard.press('Escape');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
