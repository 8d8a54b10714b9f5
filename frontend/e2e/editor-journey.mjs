// The issue-15 journey in Chromium against `reelforge all`: open /diy signed in, add a text, a
// picture (from the material panel) and a shape, move and resize one with the mouse, add a second
// scene with a transition, undo and redo, give it a background picture, reorder the scenes by drag
// (and undo), add a blank scene that the save deletes, save, make the video, watch the progress reach 100 %,
// play it, download the MP4 and check its duration with gst-discoverer-1.0. A screenshot per step
// under <E2E_OUT>/journey/.
//
// Text is edited through the property panel's text box: a real mouse double-click does not yet
// enter in-place editing (docs/editor.md "Not yet").
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { uploadPicture } from './preview.mjs';
import { downloadTask, shooter } from './lib.mjs';

/** The MP4's duration in seconds as gst-discoverer-1.0 reads it. */
export function discoveredSeconds(file) {
  const out = execFileSync('gst-discoverer-1.0', [file], { encoding: 'utf8', timeout: 60_000 });
  const m = /Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(out);
  if (!m) throw new Error(`gst-discoverer-1.0 printed no duration: ${out.slice(0, 300)}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

export async function editorJourney({ page, baseUrl, outDir, assert }) {
  const dir = path.join(outDir, 'journey');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  const layers = () => page.locator('#editor .rf-layer');
  // What the UI got wrong: the journey goes on past these and fails at its end, listing them all.
  const findings = [];
  const expect = (condition, message) => {
    if (!condition) {
      findings.push(message);
      console.log(`journey finding: ${message}`);
    }
  };
  const pic = await uploadPicture(page, 'photo', 'journey.png');

  await page.goto(`${baseUrl}/#/diy`, { waitUntil: 'domcontentloaded' });
  await page.locator('#editor').waitFor();
  await shot('open-diy');

  // A text (TOP size), then its content through the property panel.
  await page.getByTestId('add-text').hover();
  await page.getByRole('menuitem', { name: /标题 \(34\)/ }).click();
  await layers().first().waitFor();
  const content = page.getByRole('textbox', { name: '文字内容' });
  await content.fill('你好 Reelforge');
  await page.locator('#editor').getByText('你好 Reelforge').waitFor();
  await shot('text-added');

  // A picture from the material panel (the user's uploads).
  const card = page.getByTestId(`material-${pic.id}`);
  await card.waitFor({ timeout: 20_000 });
  await card.click();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="picture"]').length === 1);
  await shot('picture-added');

  // A shape.
  await page.getByTestId('add-shape').hover();
  await page.getByRole('menuitem', { name: '矩形' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 1);
  await shot('shape-added');

  // Move the shape with the mouse, then resize it by its bottom-right handle.
  const shape = page.locator('#editor .rf-layer[data-type="shape"]');
  const before = await shape.boundingBox();
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i += 1) await page.mouse.move(before.x + before.width / 2 + i * 12, before.y + before.height / 2 + i * 6);
  await page.mouse.up();
  const moved = await shape.boundingBox();
  expect(Math.abs(moved.x - before.x - 120) < 12 && Math.abs(moved.y - before.y - 60) < 12, `the shape moved from ${JSON.stringify(before)} to ${JSON.stringify(moved)}`);
  await shot('shape-moved');
  const handle = page.locator('.moveable-control.moveable-se').first();
  const hb = await handle.boundingBox();
  assert(hb, 'the resize handle of the selected shape is shown');
  await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i += 1) await page.mouse.move(hb.x + hb.width / 2 + i * 5, hb.y + hb.height / 2 + i * 4, { steps: 3 });
  await page.mouse.up();
  const resized = await shape.boundingBox();
  expect(
    resized.width > moved.width + 30 && resized.height > moved.height + 25,
    `resize by the bottom-right handle with the mouse (+50, +40 px): the shape went from ${Math.round(moved.width)}×${Math.round(moved.height)} to ${Math.round(resized.width)}×${Math.round(resized.height)} px`,
  );
  await shot('shape-resized');

  // A second scene, and a transition from the first to it, in the scene strip (the timeline's other tab).
  await page.getByTestId('bottom-tab-scenes').click();
  await page.getByTestId('add-scene').click();
  await page.getByTestId('scene-1').waitFor();
  // Chosen by its name in the picker's search: a click on the opening list could land on the busy
  // machine before the list settled, and go nowhere (the undo below then undid the new scene).
  await page.getByTestId('transition-0').click();
  await page.keyboard.type('左移');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (document.querySelector('[data-testid="transition-0"]')?.textContent ?? '').includes('左移'));
  const transition = await page.getByTestId('transition-0').textContent();
  await shot('second-scene-transition');

  // Undo the transition and redo it.
  await page.getByTestId('undo').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="transition-0"]')?.textContent ?? '').includes('无转场'));
  await shot('undone');
  await page.getByTestId('redo').click();
  await page.waitForFunction((t) => document.querySelector('[data-testid="transition-0"]')?.textContent === t, transition);
  await shot('redone');

  // The second scene's background: the uploaded picture from the library, covering the stage.
  await page.getByTestId('scene-bg-pick').click();
  const picker = page.getByRole('dialog').filter({ has: page.getByTestId(`material-${pic.id}`) });
  await picker.getByTestId(`material-${pic.id}`).click();
  await page.locator('#editor [data-testid="stage-background"]').waitFor();
  await page.getByTestId('scene-bg-fit').getByText('铺满裁切').click();
  await page.waitForFunction(() => document.querySelector('#editor [data-testid="stage-background"]')?.style.objectFit === 'cover');
  await shot('scene-background');

  // Reorder the scenes by dragging the second one's handle onto the first, then undo it.
  const order = () => page.evaluate(() => [...document.querySelectorAll('[data-testid^="scene-"][data-scene-id]')].map((el) => el.dataset.sceneId));
  const before2 = await order();
  const from = await page.getByTestId('scene-handle-1').boundingBox();
  const to = await page.getByTestId('scene-0').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i += 1) await page.mouse.move(from.x + from.width / 2 + ((to.x + to.width / 3 - from.x - from.width / 2) * i) / 12, from.y + from.height / 2);
  await page.mouse.up();
  const after2 = await order();
  expect(after2.join() === [...before2].reverse().join(), `dragging scene 2 onto scene 1 reorders them: ${before2.join()} became ${after2.join()}`);
  await shot('scenes-reordered');
  await page.getByTestId('undo').click();
  await page.waitForFunction((ids) => [...document.querySelectorAll('[data-testid^="scene-"][data-scene-id]')].map((el) => el.dataset.sceneId).join() === ids, before2.join());

  // A blank third scene: a save deletes it (spec §4) and says so.
  await page.getByTestId('add-scene').click();
  await page.getByTestId('scene-2').waitFor();

  // Save, then make the video and watch the progress.
  const saving = page.waitForResponse((r) => r.url().includes('/diyvrbt/videotask/save'), { timeout: 30_000 });
  const told = page.getByText('已删除 1 个空白场景').waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  await page.getByTestId('save').click();
  expect(await told, 'a save that deletes a blank scene says so');
  const saved = await (await saving).json();
  assert(saved.code === 2000, `save answered ${JSON.stringify(saved).slice(0, 300)}`);
  const taskId = Number(saved.data);
  // "已于 hh:mm 保存" / "saved at hh:mm".
  await page.waitForFunction(() => /\d{1,2}:\d{2}/.test(document.querySelector('[data-testid="save-state"]')?.textContent ?? ''), undefined, { timeout: 20_000 });
  expect((await page.getByTestId('scene-2').count()) === 0, 'the blank third scene is deleted on save');
  await shot('saved');
  await page.getByTestId('run').click();
  // The modal's own test id sits on no visible element (antd 6 Modal), so it is found by its role
  // and its title's test id: the title's words change when the render ends (视频生成中 → 视频已生成).
  const modal = page.getByRole('dialog').filter({ has: page.getByTestId('run-title') });
  await modal.waitFor();
  await shot('running');
  const percents = new Set();
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const text = (await modal.textContent()) ?? '';
    for (const m of text.matchAll(/(\d{1,3})\s*%/g)) percents.add(Number(m[1]));
    if (await page.getByTestId('run-play').isVisible()) break;
    await page.waitForTimeout(300);
  }
  // The finished state draws the bar full with a success mark instead of the figure "100 %".
  if ((await modal.locator('.ant-progress-status-success, [aria-valuenow="100"]').count()) > 0) percents.add(100);
  await shot('done');
  assert(await page.getByTestId('run-play').isVisible(), `the render did not finish (percents seen: ${[...percents].join(', ')})`);
  expect(percents.has(100), `the run modal showed 100 % (percentages seen: ${[...percents].join(', ')})`);

  // Play it in the page.
  await page.getByTestId('run-play').click();
  await page.getByTestId('task-video').waitFor();
  await page.waitForFunction(() => (document.querySelector('[data-testid="task-video"]')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
  await page.evaluate(() => document.querySelector('[data-testid="task-video"]')?.play());
  await page.waitForTimeout(1000);
  await shot('playing');

  // Download it as the page's link does and check the duration.
  const mp4 = await downloadTask(page, taskId, dir);
  assert(mp4.status === 200 && (mp4.type ?? '').startsWith('video/'), `download answered ${mp4.status} ${mp4.type}`);
  const { file } = mp4;
  const seconds = discoveredSeconds(file);
  const expected = await page.evaluate(async (taskId) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    return (await (await fetch(`/diyvrbt/videotask/ofone/${taskId}`, { headers })).json()).data.duration;
  }, taskId);
  console.log(`journey MP4 duration: ${seconds.toFixed(3)} s (the document: ${expected} s)`);
  assert(expected > 0 && Math.abs(seconds - expected) < 0.2, `the MP4 lasts ${seconds} s, the document ${expected} s`);
  assert(findings.length === 0, `the editor journey found: ${findings.join('; ')}`);
}
