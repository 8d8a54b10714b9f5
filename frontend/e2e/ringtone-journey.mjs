// The issue-26 journey in Chromium against `reelforge all` (its built-in ring platform takes the
// delivery: no `[ring.platforms.qs] url`), through the UI as a user would go:
//   sign in; a short 9:16 work (6 s, a title at the very top, a line in the middle) saved; opened in
//   the editor, the in-call preview turned on: the phone screen and its safe zones over the stage,
//   and the warning naming the title under the top band; music from the library (a ringtone with
//   sound), 生成视频 to its end; my works (/mydiyring): 设为视频彩铃 on the work, the in-call preview of
//   the finished video with its safe zones, the profile check, the number asked of the server, the
//   copyright statement, submit (saveRing then ringUpload); "my ringtones" until the order is
//   delivered (设置成功, SUCCESS from the built-in platform). The modal and my ringtones also in
//   en-US. Screenshots under <E2E_OUT>/ringtone-journey/.
import { notedJourney } from './lib.mjs';
import { saveTask } from './preview.mjs';

/** The work's length: inside every built-in profile's duration window (5–30 s for cu, the shortest). */
const SECONDS = 6;
/** A number the built-in ring platform takes (a mainland mobile number). */
const PHONE = '13800138000';
/** How long the built-in platform may take to set the ringtone (deliveries go through the outbox). */
const DELIVERY_MS = 90_000;

/** A 9:16 document: a title in the top band (the in-call screen covers it), a line in the middle. */
function ringDocument() {
  const layer = (id, z, x, y, w, h) => ({ id, z, x, y, w, h, startTime: 0, endTime: SECONDS, rotate: 0 });
  return {
    version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 25,
    resolutionRatio: { name: '9:16', width: 360, height: 640, ratio: '9:16', sizeId: 50, targetWidth: 720 },
    scenes: [{ type: 'canvas', timeLength: SECONDS, bgColor: '#7c2d12', effectTime: 1, isActive: true, layers: [
      { type: 'word', ...layer(1, 101, 20, 20, 320, 60), content: '顶部标题', fontSize: 40, color: '#ffffff', textAlign: 'center', lineHeight: 1.2 },
      { type: 'word', ...layer(2, 102, 20, 290, 320, 60), content: '来电请接听', fontSize: 36, color: '#fde68a', textAlign: 'center', lineHeight: 1.2 },
    ] }],
    audio: [],
  };
}

export async function ringtoneJourney({ page, baseUrl, outDir, assert, signIn }) {
  await notedJourney(page, outDir, 'ringtone-journey', 'ringtone journey', ({ shot, note }) => journey({ page, baseUrl, assert, signIn, shot, note }));
}

async function journey({ page, baseUrl, assert, signIn, shot, note }) {
  await signIn(page, 'ringtone');
  const name = `彩铃作品 ${Date.now().toString(36)}`;
  const taskId = await saveTask(page, ringDocument(), name, 50);
  note(`task ${taskId} saved`);

  // --- The editor: in-call preview over the stage, the warning naming the title. ---
  await page.goto(`${baseUrl}/#/diy?taskId=${taskId}`, { waitUntil: 'domcontentloaded' });
  await page.locator('#editor .rf-layer[data-type="word"]').first().waitFor({ timeout: 20_000 });
  await page.getByTestId('in-call-toggle').click();
  await page.locator('#editor [data-testid="in-call-chrome"]').waitFor();
  await page.getByTestId('safe-zone-top').waitFor();
  const hits = page.getByTestId('zone-hits');
  await hits.waitFor();
  const hitText = (await hits.textContent()) ?? '';
  assert(hitText.includes('顶部标题') && !hitText.includes('来电请接听'), `the in-call warning names the title under the top band only: "${hitText}"`);
  await shot('editor-in-call-preview');

  // A ringtone with sound: music from the library, then 生成视频 to its end.
  await page.getByTestId('left-pane').getByText('音频', { exact: true }).evaluate((el) => el.click());
  await page.getByTestId('music-library').waitFor();
  await page.getByTestId('music-add').first().click({ timeout: 30_000 });
  await page.getByTestId('music-bar').first().waitFor();
  const saving = page.waitForResponse((r) => r.url().includes('/diyvrbt/videotask/save'), { timeout: 30_000 });
  await page.getByTestId('save').click();
  const saved = await (await saving).json();
  assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
  await page.getByTestId('run').click();
  await page.getByTestId('run-play').waitFor({ timeout: 150_000 });
  await page.getByTestId(`set-ring-${taskId}`).waitFor();
  await shot('editor-rendered-set-ring');
  await page.keyboard.press('Escape');

  // --- My works: set it as the ringtone. ---
  await page.goto(`${baseUrl}/#/mydiyring`, { waitUntil: 'domcontentloaded' });
  await page.getByTestId(`work-${taskId}`).waitFor({ timeout: 20_000 });
  await shot('my-works');
  await page.getByTestId(`set-ring-${taskId}`).click();
  const modal = page.getByRole('dialog').filter({ has: page.getByTestId('ring-form') });
  await modal.waitFor();
  // The in-call preview of the finished video, with the safe zones.
  await modal.getByTestId('in-call-preview').waitFor();
  await modal.getByTestId('safe-zone-top').waitFor();
  await modal.getByTestId('safe-zone-bottom').waitFor();
  await page.waitForFunction(() => (document.querySelector('[data-testid="in-call-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  // The profile check: conforms, or each rule named.
  await modal.locator('[data-testid="ring-violations-ok"], [data-testid="ring-violations"], [data-testid="ring-check-failed"]').first().waitFor({ timeout: 60_000 });
  const checkText = (await modal.getByTestId('ring-check').textContent()) ?? '';
  note(`check: ${checkText}`);
  assert((await modal.getByTestId('ring-violations-ok').count()) === 1, `the work conforms to the qs profile: "${checkText}"`);
  await shot('ring-modal-preview-and-check');

  // The number, asked of the server; the copyright statement; submit.
  await modal.getByTestId('ring-phone').fill(PHONE);
  await modal.getByTestId('ring-phone-ask').click();
  const answer = modal.getByTestId('ring-phone-answer');
  await answer.waitFor();
  assert((await answer.getAttribute('data-verdict')) === 'ok', `the server answers that ${PHONE} may receive a ringtone: "${await answer.textContent()}"`);
  await modal.getByTestId('ring-agree').click();
  await shot('ring-modal-filled');
  const [saving2, uploading] = [
    page.waitForResponse((r) => r.url().includes('/diyvrbt/platform/saveRing'), { timeout: 30_000 }),
    page.waitForResponse((r) => r.url().includes('/diyvrbt/material/ringUpload'), { timeout: 30_000 }),
  ];
  await modal.getByTestId('ring-submit').click();
  const savedRing = await (await saving2).json();
  assert(savedRing.code === 2000, `saveRing answered ${JSON.stringify(savedRing).slice(0, 300)}`);
  const orderId = savedRing.data.id;
  const uploaded = await (await uploading).json();
  assert(uploaded.code === 2000, `ringUpload answered ${JSON.stringify(uploaded).slice(0, 300)}`);
  // The form gives way to the order's result in the same dialog.
  const result = page.getByRole('dialog').filter({ has: page.getByTestId('ring-result') });
  await result.waitFor();
  note(`order ${orderId}: ${await result.getByTestId('ring-result-title').textContent()}`);
  await shot('ring-submitted');

  // --- My ringtones: the order until the built-in platform has set it. ---
  await result.getByTestId('ring-to-mine').click();
  const row = page.getByTestId(`ring-order-${orderId}`);
  await row.waitFor({ timeout: 20_000 });
  await shot('my-ringtones-waiting');
  await row.locator(`[data-testid="ring-state"][data-state="1"]`).waitFor({ timeout: DELIVERY_MS });
  const rowText = (await row.textContent()) ?? '';
  assert(rowText.includes('设置成功') && rowText.includes('****'), `my ringtones shows the order set, with the number masked: "${rowText}"`);
  await shot('my-ringtones-delivered');

  // --- The same in English. ---
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await row.getByTestId('ring-state').getByText('Set', { exact: true }).waitFor();
  await shot('en-my-ringtones');
  await page.getByTestId('tab-works').click();
  await page.getByTestId(`set-ring-${taskId}`).getByText('Set as video ringtone').click();
  const enModal = page.getByRole('dialog').filter({ has: page.getByTestId('ring-form') });
  await enModal.getByTestId('safe-zone-top').getByText(/Caller info/).waitFor();
  await enModal.getByTestId('ring-violations-ok').waitFor({ timeout: 60_000 });
  await shot('en-ring-modal');
  await page.keyboard.press('Escape');
  await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();
  await page.getByTestId('tab-works').getByText('我的作品').waitFor();
}
