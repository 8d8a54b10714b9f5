// The issue-28 speech recognition in Chromium against `reelforge all` (default [ai]: speech
// recognition local, pocketsphinx and its English model on the machine). The ability page
// /ai/ability/analyze-speech-content-analysis: an English sentence spoken by the server's own
// dubbing voice is uploaded as a sound, recognised on the farm, and its transcript shown with each
// word's times (the transcript must share most of its letters with the sentence). Then in /diy:
// an English dubbing made at 1 s, and 添加文字 → 智能字幕 on it: subtitle layers appear at the
// spoken times (after the dubbing's start, before its end) and are saved as caption text layers.
// Last, the dialog and the page in en-US. Screenshots under <E2E_OUT>/ai-asr/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

const SENTENCE = 'Welcome to the video editing platform, this is a short test of speech recognition.';
const DUB_AT = 1;
const DOC_LENGTH = 9;

async function api(page, url) {
  return page.evaluate(async (url) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    return (await fetch(`/diyvrbt${url}`, { headers })).json();
  }, url);
}

/** Letters and digits shared in order (1 − edit distance / length of `said`), lower case. */
function similarity(said, heard) {
  const norm = (t) => t.toLowerCase().replace(/'/g, '').replace(/[^0-9a-z]+/g, ' ').trim();
  const [a, b] = [norm(said), norm(heard)];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) next.push(Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return 1 - row[b.length] / Math.max(a.length, 1);
}

export async function aiAsr({ page, baseUrl, outDir, assert, signIn }) {
  const dir = path.join(outDir, 'ai-asr');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, async () => {
    await signIn(page, 'aiasr');
    // The sound: the sentence spoken by the voice the server dubs English with (espeak-ng en-us+klatt2).
    const wav = path.join(os.tmpdir(), `asr-e2e-${process.pid}.wav`);
    execFileSync('espeak-ng', ['-v', 'en-us+klatt2', '-w', wav, SENTENCE]);

    await page.goto(`${baseUrl}/#/ai/list`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('group-analyze').waitFor();
    const listed = (await page.getByTestId('ability-speech-content-analysis').textContent()) ?? '';
    assert(listed.includes('可用'), `speech recognition is listed available: "${listed}"`);
    await page.getByTestId('ability-speech-content-analysis').click();
    await page.getByTestId('asr-panel').waitFor();
    await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles({ name: 'sentence.wav', mimeType: 'audio/wav', buffer: readFileSync(wav) });
    await page.waitForFunction(() => !document.querySelector('[data-testid="asr-run"]')?.hasAttribute('disabled'), undefined, { timeout: 30_000 });
    await shot('page-picked');
    await page.getByTestId('asr-run').click();
    await page.getByTestId('transcript-text').waitFor({ timeout: 60_000 });
    const heard = (await page.getByTestId('transcript-text').textContent()) ?? '';
    const score = similarity(SENTENCE, heard);
    console.log(`ai-asr: said "${SENTENCE}", heard "${heard}" (${(score * 100).toFixed(1)} % of the characters)`);
    assert(score >= 0.8, `the page's transcript matches the sentence: ${(score * 100).toFixed(1)} %`);
    const rows = await page.getByTestId('transcript-words').locator('tbody tr').count();
    assert(rows >= 8, `a row per word with its times: ${rows}`);
    await page.getByTestId('transcript').scrollIntoViewIfNeeded();
    await shot('page-transcript');
    // Mandarin: refused with the server's reason under the language.
    await page.getByTestId('asr-language').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '普通话' }).click();
    await page.getByTestId('asr-run').click();
    await page.getByText(/no Mandarin speech model/).waitFor({ timeout: 15_000 });
    await shot('page-mandarin-refused');

    // The editor: a dubbing at 1 s, then smart subtitles from it.
    await page.evaluate(() => (window.location.hash = '#/diy'));
    await page.getByTestId('timeline-ruler').waitFor();
    // One 9 s scene: the dubbing (about 5 s from 1 s) ends inside the document.
    await page.getByTestId('bottom-tab-scenes').click();
    const length = page.getByTestId('scene-strip').getByRole('spinbutton', { name: '时长' }).first();
    await length.fill(String(DOC_LENGTH));
    await length.press('Enter');
    await page.getByTestId('bottom-tab-timeline').click();
    await page.waitForFunction((d) => (document.querySelector('[data-testid="current-time"]')?.textContent ?? '').includes(`/ 00:0${d}.0`), DOC_LENGTH);
    const ruler = await page.getByTestId('timeline-ruler').boundingBox();
    await page.mouse.click(ruler.x + DUB_AT * 100, ruler.y + 5);
    await page.waitForFunction((t) => Math.abs(Number(document.querySelector('[data-testid="current-time"]')?.dataset.time) - t) < 0.06, DUB_AT);
    await page.getByTestId('left-pane').getByText('音频', { exact: true }).evaluate((el) => el.click());
    await page.waitForFunction(() => !document.querySelector('[data-testid="dubbing"]')?.hasAttribute('disabled'), undefined, { timeout: 15_000 });
    await page.getByTestId('dubbing').click();
    await page.getByTestId('dubbing-dialog').waitFor();
    await page.getByTestId('speech-text').fill(SENTENCE);
    await page.getByTestId('speech-voice-en').click();
    await page.getByTestId('dubbing-run').click();
    await page.getByTestId('music-bar').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('dubbing-dialog').waitFor({ state: 'detached', timeout: 10_000 });

    await page.getByTestId('add-text').hover();
    await page.getByRole('menuitem', { name: /智能字幕/ }).click();
    await page.getByTestId('smart-subtitles-dialog').waitFor();
    const sources = (await page.getByTestId('smart-subtitles-sources').textContent()) ?? '';
    assert(sources.includes('配音'), `the dubbing is offered: "${sources}"`);
    await shot('smart-dialog');
    await page.getByTestId('smart-subtitles-run').click();
    await page.getByText(/已添加 \d+ 条字幕/).waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="word"]').length > 0);
    await shot('smart-added');

    const saving = page.waitForResponse((r) => r.url().includes('/diyvrbt/videotask/save'), { timeout: 30_000 });
    await page.getByTestId('save').click();
    const saved = await (await saving).json();
    assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
    const task = await api(page, `/videotask/ofone/${Number(saved.data)}`);
    const info = JSON.parse(task.data.videoCreateInfo ?? task.data.taskInfo ?? '{}');
    const voice = (info.audio ?? []).find((a) => a.type === 'voice');
    const subs = (info.scenes ?? []).flatMap((s) => s.layers).filter((l) => l.type === 'word');
    assert(voice && subs.length >= 1, `saved: a voice and subtitles: ${JSON.stringify(info).slice(0, 400)}`);
    const text = subs.map((l) => l.content).join(' ');
    assert(similarity(SENTENCE, text) >= 0.8, `the subtitles say the sentence: "${text}"`);
    // One scene here: a subtitle's time is the document's.
    assert(subs.every((l) => l.startTime >= voice.startTime - 0.05 && l.endTime <= voice.endTime + 0.05), `the subtitles lie within the dubbing ${voice.startTime}–${voice.endTime}: ${JSON.stringify(subs.map((l) => [l.startTime, l.endTime]))}`);
    console.log(`ai-asr: ${subs.length} subtitle layer(s) from the dubbing at ${voice.startTime.toFixed(2)}–${voice.endTime.toFixed(2)} s: ${JSON.stringify(subs.map((l) => [l.content, l.startTime, l.endTime]))}`);

    // English.
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByTestId('add-text').hover();
    await page.getByRole('menuitem', { name: /Smart subtitles/ }).click();
    await page.getByTestId('smart-subtitles-dialog').waitFor();
    await shot('smart-dialog-en');
    await page.keyboard.press('Escape');
    await page.goto(`${baseUrl}/#/ai/ability/analyze-speech-content-analysis`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('asr-panel').waitFor();
    await shot('page-en');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  });
}
