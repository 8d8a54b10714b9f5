// Issue 29, the manage area in Chromium against `reelforge all`: a user submits two stickers to the
// public library from /workbench/my-material; a template manager (level 3, granted with `reelforge
// admin grant`, which needs E2E_BIN) sees them counted on /manage, rejects one with a reason and
// approves the other; the owner reads the reason on their card and finds the approved sticker in the
// editor's picture library; the manager uploads a music track that shows in the music library with
// its length, loudness and waveform. The queue is looked at in English too. Screenshots under
// <E2E_OUT>/manage-journey/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

/** Two different stickers (PNG) and a 3-second tone (WAV), made by GStreamer's test sources. */
function media() {
  const dir = mkdtempSync(path.join(tmpdir(), 'rf-manage-'));
  const gst = (args) => execFileSync('gst-launch-1.0', ['-q', ...args], { stdio: 'pipe' });
  const stickers = ['贴纸-白边.png', '贴纸-星星.png'].map((name, i) => {
    const file = path.join(dir, name);
    gst(['videotestsrc', 'num-buffers=1', `pattern=${i === 0 ? 'ball' : 'pinwheel'}`, '!', 'video/x-raw,width=256,height=256', '!', 'pngenc', '!', 'filesink', `location=${file}`]);
    return file;
  });
  const music = path.join(dir, '开场音乐.wav');
  gst(['audiotestsrc', 'wave=sine', 'freq=440', 'volume=0.4', 'num-buffers=130', '!', 'audio/x-raw,rate=44100,channels=1', '!', 'wavenc', '!', 'filesink', `location=${music}`]);
  return { stickers, music };
}

export async function manageJourney({ page, baseUrl, outDir, assert, signIn, bin }) {
  assert(bin, 'the manage journey needs E2E_BIN (the reelforge binary) to grant the template manager its level');
  const dir = path.join(outDir, 'manage-journey');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir, 'animations');
  await afterShot(shot, () => steps({ page, baseUrl, assert, signIn, bin, shot }));
}

async function steps({ page, baseUrl, assert, signIn, bin, shot }) {
  const go = (hash) => page.evaluate((h) => (window.location.hash = h), hash);
  const signOut = async () => {
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${baseUrl}/#/login`, { waitUntil: 'domcontentloaded' });
    await page.reload({ waitUntil: 'domcontentloaded' });
  };
  const { stickers, music } = media();
  const owner = `e2e-sticker-${Date.now()}@example.com`;
  const manager = `e2e-manager-${Date.now()}@example.com`;
  execFileSync(bin, ['admin', 'grant', '--mail', manager, '--level', '3', '--tenant', 'qs'], { stdio: 'pipe', timeout: 60_000 });

  // --- The owner uploads two stickers and submits both. ---
  await signIn(page, 'sticker-owner', owner);
  await go('#/workbench/my-material');
  await page.getByTestId('my-material').waitFor();
  await page.getByTestId('material-upload').locator('input[type=file]').setInputFiles(stickers);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="upload-item"][data-status="done"]').length === 2, undefined, { timeout: 60_000 });
  const idOf = (file) => page.locator('[data-testid="upload-item"]', { hasText: path.basename(file) }).getAttribute('data-material-id');
  const [rejected, approved] = [await idOf(stickers[0]), await idOf(stickers[1])];
  assert(rejected && approved, `uploaded ids ${rejected} ${approved}`);
  for (const id of [rejected, approved]) {
    await page.locator(`[data-testid="material-${id}"] [data-testid="material-state"][data-state="ready"]`).waitFor({ timeout: 120_000 });
    await page.getByTestId(`submit-${id}`).click();
    await page.getByTestId(`verdict-${id}`).getByText('审核中').waitFor();
  }
  await shot('owner-submitted');
  // The owner comes back later in this session: a second code for the same address within the
  // resend interval (60 s) would be refused.
  const ownerSession = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));

  // --- The manager: the index counts them; one rejected with a reason, the other approved. ---
  await signOut();
  await signIn(page, 'manager', manager);
  await go('#/manage');
  await page.getByTestId('manage-index').waitFor();
  const count = Number((await page.getByTestId('queue-chartlet').locator('.ant-statistic-content-value').textContent())?.replace(/\D/g, '') ?? 0);
  assert(count >= 2, `the index counts the two stickers waiting: ${count}`);
  await shot('manage-index');
  await page.getByTestId('queue-chartlet').click();
  await page.getByTestId('review-chartlet').waitFor();
  await page.getByTestId(`review-name-${rejected}`).waitFor();
  await shot('sticker-queue-pending');
  await page.getByTestId(`reject-${rejected}`).click();
  await page.getByTestId('reject-ok').click();
  await page.getByText('请填写驳回原因').waitFor();
  await page.getByTestId('reject-reason').fill('边缘有白边，请裁干净再提交');
  await shot('reject-with-reason');
  await page.getByTestId('reject-ok').click();
  await page.getByTestId(`review-name-${rejected}`).waitFor({ state: 'detached' });
  await page.getByTestId(`approve-${approved}`).click();
  await page.getByTestId(`review-name-${approved}`).waitFor({ state: 'detached' });
  await page.getByTestId('state-rejected').click();
  await page.locator('.ant-table-row', { has: page.getByTestId(`review-name-${rejected}`) }).getByText('边缘有白边，请裁干净再提交').waitFor();
  await shot('sticker-queue-rejected');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Sticker review', level: 3 }).waitFor();
  await page.getByText('Rejection reason').waitFor();
  await shot('sticker-queue-rejected-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByRole('heading', { name: '贴图审核', level: 3 }).waitFor();

  // --- The manager uploads a track into the music library. ---
  await go('#/manage/music-content');
  await page.getByTestId('music-content').waitFor();
  const [uploading] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/diyvrbt/manage/music/upload')),
    page.getByTestId('music-content').locator('input[type=file]').setInputFiles(music),
  ]);
  const uploaded = await uploading.json();
  assert(uploaded.code === 2000, `POST /manage/music/upload answered ${JSON.stringify(uploaded).slice(0, 300)}`);
  const track = uploaded.data.id;
  const row = page.locator('.ant-table-row', { has: page.getByTestId(`music-name-${track}`) });
  await row.getByText('开场音乐.wav').waitFor();
  await row.getByTestId('waveform').waitFor({ timeout: 90_000 });
  await row.getByText('0:03').waitFor();
  await page.getByTestId(`loudness-${track}`).getByText(/dB/).waitFor({ timeout: 30_000 });
  await shot('music-uploaded');
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Music content', level: 3 }).waitFor();
  await shot('music-uploaded-en');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByRole('heading', { name: '音乐内容', level: 3 }).waitFor();

  // --- The owner reads the reason, and finds the approved sticker in the editor's library. ---
  await page.evaluate((saved) => {
    localStorage.clear();
    for (const [key, value] of JSON.parse(saved)) localStorage.setItem(key, value);
  }, ownerSession);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await go('#/workbench/my-material');
  await page.getByTestId('my-material').waitFor();
  await page.getByTestId(`verdict-${rejected}`).getByText('驳回原因：边缘有白边，请裁干净再提交').waitFor();
  await page.getByTestId(`verdict-${approved}`).getByText('已通过').waitFor();
  await shot('owner-sees-verdicts');
  await go('#/diy');
  await page.getByTestId('material-panel').waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    const tab = [...document.querySelectorAll('[data-testid="material-panel"] .ant-tabs-tab')].find((t) => t.textContent === '图片');
    tab?.querySelector('.ant-tabs-tab-btn')?.click();
  });
  const card = page.getByTestId('material-panel').getByTestId(`material-${approved}`);
  await card.waitFor({ timeout: 30_000 });
  await card.scrollIntoViewIfNeeded();
  assert((await page.getByTestId('material-panel').getByTestId(`material-${rejected}`).count()) === 0, 'the rejected sticker is not offered');
  await shot('editor-picture-library');
}
