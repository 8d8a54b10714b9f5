// The issue-16 timeline check in Chromium against `reelforge all`: open /diy signed in, add a
// shape and a text, drag the shape's bar along the timeline and trim its end (one undo step each),
// zoom the ruler with its buttons and ctrl+wheel, give the text an in- and an out-animation, add a
// second scene, give the first a transition and a filter from the pickers, then play two seconds
// from the start: the playhead must move and the stage must change (screenshots compared in the
// page). The pickers' preview stills are not required to load (the name stands alone when they
// do not). Last, a saved document with music: its track's waveform and its playback. Screenshots:
// <E2E_OUT>/timeline/NN-<step>.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterShot, shooter } from './lib.mjs';

/** Makes a 3 s sine tone as MP3; returns its bytes as base64. */
function testTone() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rf-timeline-')), 'tone.mp3');
  execFileSync('gst-launch-1.0', ['-q', 'audiotestsrc', 'wave=sine', 'freq=440', 'num-buffers=130', '!', 'audioconvert', '!', 'lamemp3enc', '!', 'filesink', `location=${file}`], { stdio: 'pipe' });
  return readFileSync(file).toString('base64');
}

/** Makes a clip of GStreamer's moving test ball, 640×360 at 25 fps, `frames` long (4 s by default; x264 in MP4); returns its bytes as base64. */
export function testClip(frames = 100) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rf-timeline-')), 'ball.mp4');
  execFileSync('gst-launch-1.0', ['-q', 'videotestsrc', `num-buffers=${frames}`, 'pattern=ball', '!', 'video/x-raw,width=640,height=360,framerate=25/1', '!', 'x264enc', '!', 'mp4mux', '!', 'filesink', `location=${file}`], { stdio: 'pipe' });
  return readFileSync(file).toString('base64');
}

/** Uploads a video or audio as the signed-in user and waits for its probe (cover, filmstrip, waveform) to finish; answers its id. */
export async function uploadMedia(page, base64, type, name, mime) {
  return page.evaluate(async ({ b64, type, name, mime }) => {
    const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
    const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const form = new FormData();
    for (const [k, v] of Object.entries({ userId: user.id, type, expireDay: '1000', categoryId: '-1', styleId: '-1', materialState: '0' })) form.append(k, v);
    form.append('uploadFile', new File([bytes], name, { type: mime }));
    const up = await (await fetch('/diyvrbt/upload/material', { method: 'POST', headers, body: form })).json();
    if (up.code !== 2000) throw new Error(`upload answered ${JSON.stringify(up)}`);
    const id = String(up.data).replace(/^UPLOADED - /, '');
    for (let i = 0; i < 120; i += 1) {
      const state = await (await fetch('/diyvrbt/material/getVideoState', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ id }) })).json();
      if (state.data?.state && state.data.state !== 'processing') {
        if (state.data.state !== 'ready') throw new Error(`${name}'s probe ended ${JSON.stringify(state.data)}`);
        return id;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${name} stayed processing for 60 s`);
  }, { b64: base64, type, name, mime });
}

/** Returns the share of pixels that differ (by more than 24 in any channel) between two PNGs, computed in the page. */
async function pixelChange(page, a, b) {
  return page.evaluate(
    async ({ a, b }) => {
      const load = (b64) =>
        new Promise((resolve, reject) => {
          const img = new Image();
          img.onload = () => resolve(img);
          img.onerror = reject;
          img.src = `data:image/png;base64,${b64}`;
        });
      const [x, y] = await Promise.all([load(a), load(b)]);
      const w = Math.min(x.width, y.width);
      const h = Math.min(x.height, y.height);
      const read = (img) => {
        const c = document.createElement('canvas');
        c.width = w;
        c.height = h;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, w, h).data;
      };
      const [p, q] = [read(x), read(y)];
      let changed = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (Math.abs(p[i] - q[i]) > 24 || Math.abs(p[i + 1] - q[i + 1]) > 24 || Math.abs(p[i + 2] - q[i + 2]) > 24) changed += 1;
      }
      return changed / (w * h);
    },
    { a: a.toString('base64'), b: b.toString('base64') },
  );
}

export async function timelineCheck({ page, baseUrl, outDir, assert }) {
  const dir = path.join(outDir, 'timeline');
  mkdirSync(dir, { recursive: true });
  const shot = shooter(page, dir);
  await afterShot(shot, async () => {
    const attr = (testId, name) => page.getByTestId(testId).getAttribute(name);
    const num = async (testId, name) => Number(await attr(testId, name));

    const clip = await uploadMedia(page, testClip(), 'video', 'ball.mp4', 'video/mp4');
    const tone = await uploadMedia(page, testTone(), 'audio', 'tone.mp3', 'audio/mpeg');
    await page.goto(`${baseUrl}/#/diy`, { waitUntil: 'domcontentloaded' });
    await page.locator('#editor').waitFor();
    await page.getByTestId('timeline-ruler').waitFor();

    // A rectangle and a text: each gets a track with a bar from 0 to 3 s.
    await page.getByTestId('add-shape').hover();
    await page.getByRole('menuitem', { name: '矩形' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 1);
    const shapeId = await page.locator('#editor .rf-layer[data-type="shape"]').getAttribute('data-id');
    await page.getByTestId('add-text').hover();
    await page.getByRole('menuitem', { name: /标题 \(34\)/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="word"]').length === 1);
    const textId = await page.locator('#editor .rf-layer[data-type="word"]').getAttribute('data-id');
    await page.getByTestId(`layer-bar-${shapeId}`).waitFor();
    await page.getByTestId(`layer-bar-${textId}`).waitFor();
    assert((await num(`layer-bar-${shapeId}`, 'data-start')) === 0 && (await num(`layer-bar-${shapeId}`, 'data-end')) === 3, 'a new layer spans 0–3 s on the timeline');
    await shot('layers-on-timeline');

    // Drag the shape's bar 1 s to the right (100 px at 1 s per long scale of 100 px).
    const drag = async (testId, dx) => {
      const box = await page.getByTestId(testId).boundingBox();
      assert(box, `${testId} is on the page`);
      const y = box.y + box.height / 2;
      const x = testId.startsWith('bar-') ? box.x + Math.min(box.width / 2, 30) : box.x + box.width / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i += 1) await page.mouse.move(x + (dx * i) / 10, y);
      await page.mouse.up();
    };
    assert((await attr('timeline-ruler', 'data-level')) === '4', 'the timeline opens at 1 s per scale');
    await drag(`bar-${shapeId}`, 100);
    await page.waitForFunction((id) => Number(document.querySelector(`[data-testid="layer-bar-${id}"]`)?.dataset.start) > 0.9, shapeId);
    const moved = [await num(`layer-bar-${shapeId}`, 'data-start'), await num(`layer-bar-${shapeId}`, 'data-end')];
    assert(Math.abs(moved[0] - 1) < 0.05 && Math.abs(moved[1] - 4) < 0.05, `dragging the bar 100 px moves it 1 s keeping its length: ${moved}`);
    assert((await page.getByTestId('scene-block-0').textContent()).includes('4.0s'), 'a bar dragged past the scene end lengthens the scene');
    await shot('bar-moved');

    // Trim its end 50 px (0.5 s) to the left, then undo: the bar comes back to 1–4 s in one step.
    await drag(`trim-end-${shapeId}`, -50);
    await page.waitForFunction((id) => Number(document.querySelector(`[data-testid="layer-bar-${id}"]`)?.dataset.end) < 3.8, shapeId);
    const trimmed = await num(`layer-bar-${shapeId}`, 'data-end');
    assert(Math.abs(trimmed - 3.5) < 0.05 && (await num(`layer-bar-${shapeId}`, 'data-start')) === moved[0], `trimming the end by 50 px: ${trimmed}`);
    await shot('bar-trimmed');
    await page.getByTestId('undo').click();
    await page.waitForFunction(({ id, end }) => Math.abs(Number(document.querySelector(`[data-testid="layer-bar-${id}"]`)?.dataset.end) - end) < 0.011, { id: shapeId, end: moved[1] });
    await page.getByTestId('redo').click();
    await page.waitForFunction(({ id, end }) => Math.abs(Number(document.querySelector(`[data-testid="layer-bar-${id}"]`)?.dataset.end) - end) < 0.011, { id: shapeId, end: trimmed });

    // Zoom: the button halves the seconds per scale (the bar doubles), ctrl+wheel zooms back out.
    const width = async () => (await page.getByTestId(`layer-bar-${shapeId}`).boundingBox()).width;
    const w1 = await width();
    await page.getByTestId('timeline-zoom-in').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-ruler"]')?.dataset.level === '5');
    const w2 = await width();
    assert(Math.abs(w2 / w1 - 2) < 0.1, `zooming in from 1 s to 0.5 s per scale doubles the bar: ${w1} → ${w2}`);
    await shot('zoomed-in');
    const tracks = await page.getByTestId('timeline-tracks').boundingBox();
    await page.mouse.move(tracks.x + 300, tracks.y + 20);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, 120);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-ruler"]')?.dataset.level === '4');

    // The text's animations: in, moving in leftwards; out, fading.
    await page.getByTestId(`layer-bar-${textId}`).click();
    await page.getByTestId('anim-in').waitFor();
    await page.getByTestId('anim-in-effect-move').hover();
    await page.waitForTimeout(300);
    await shot('in-animation-preview');
    await page.getByTestId('anim-in-effect-move').click();
    await page.getByTestId('anim-in-dir-left').click();
    await page.getByTestId('anim-out-effect-opacity').click();
    assert((await page.getByTestId('anim-in-name').textContent()) === '向左移入', 'the in-animation reads 向左移入');
    assert((await page.getByTestId('anim-out-name').textContent()) === '渐隐', 'the out-animation reads 渐隐');
    await shot('animations-set');

    // A second scene; then the first scene's transition and filter from the pickers.
    await page.getByTestId('timeline-add-scene').click();
    await page.getByTestId('scene-block-1').waitFor();
    await page.getByTestId('add-shape').hover();
    await page.getByRole('menuitem', { name: '圆形' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="shape"]').length === 1);
    await page.getByTestId('scene-block-0').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="scene-block-0"]')?.dataset.active === 'true');
    await page.getByTestId('transition-picker').click();
    await page.getByTestId('transition-grid').waitFor();
    await page.waitForTimeout(800);
    await shot('transition-picker');
    await page.getByTestId('transition-option-MOVE_LEFT').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="transition-picker-name"]')?.textContent ?? '') !== '无转场');
    await page.getByTestId('filter-picker').click();
    await page.getByTestId('filter-grid').waitFor();
    await page.waitForTimeout(800);
    await shot('filter-picker');
    await page.getByTestId('filter-option-blackWhite').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="filter-picker-name"]')?.textContent ?? '') === '黑白');
    const thumbs = await page.evaluate(() => [...document.querySelectorAll('[data-testid="picker-thumb"]')].filter((i) => i.complete && i.naturalWidth > 0).length);
    console.log(`timeline: ${thumbs} picker preview stills loaded`);
    await shot('pickers-set');

    // A video from the material panel: its bar shows the filmstrip made at upload.
    await page.getByTestId(`material-${clip}`).click({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('#editor .rf-layer[data-type="video"]').length === 1);
    const videoId = await page.locator('#editor .rf-layer[data-type="video"]').getAttribute('data-id');
    await page.waitForFunction((id) => (document.querySelector(`[data-testid="layer-bar-${id}"]`)?.style.background ?? '').includes('filmstrip'), videoId, { timeout: 20_000 });
    await shot('video-filmstrip');

    // Cut mode: trimming the video's head by 50 px (0.5 s) cuts the clip itself: the bar starts at
    // 0.5 s and the cut's in point moves to 0.5 s, so its frames stay where they were on the axis.
    await page.getByTestId('timeline-cut-mode').click();
    await page.waitForFunction((id) => document.querySelector(`[data-testid="trim-start-${id}"]`)?.dataset.cut === 'true', videoId);
    // The zooms above keep the time under the pointer in place, so the view may have scrolled past
    // the clip's head: back to the start, as a user would scroll, before grabbing it.
    await page.getByTestId('timeline-tracks').evaluate((el) => {
      el.scrollLeft = 0;
    });
    await drag(`trim-start-${videoId}`, 50);
    await page.waitForFunction((id) => Number(document.querySelector(`[data-testid="layer-bar-${id}"]`)?.dataset.start) > 0.4, videoId);
    await page.locator(`#editor .rf-layer[data-id="${videoId}"]`).click();
    // The property panel follows the selection a moment after the stage (a deferred render).
    await page
      .waitForFunction(() => Math.abs(Number(document.querySelector('input[aria-label="入点 (s)"]')?.value) - 0.5) < 0.05, null, { timeout: 5000 })
      .catch(() => undefined);
    const cutIn = Number(await page.getByLabel('入点 (s)').inputValue());
    const barStart = await num(`layer-bar-${videoId}`, 'data-start');
    assert(Math.abs(barStart - 0.5) < 0.05 && Math.abs(cutIn - 0.5) < 0.05, `cut mode: the bar starts at ${barStart} s and the clip's in point is ${cutIn} s (both 0.5)`);
    await shot('cut-mode');
    await page.getByTestId('timeline-cut-mode').click();

    // Scrubbing shows the frame under the playhead: at 4 s, the middle of the transition into scene 2.
    // The axis is scrolled to its start first (clicks above may have scrolled it to bring a bar into view).
    await page.evaluate(() => {
      document.querySelector('[data-testid="timeline-tracks"]').scrollLeft = 0;
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-tracks"]')?.scrollLeft === 0);
    const axis = await page.getByTestId('timeline-ruler').boundingBox();
    await page.mouse.move(axis.x + 300, axis.y + 5);
    await page.mouse.down();
    await page.getByTestId('frame-view').waitFor();
    await page.mouse.move(axis.x + 400, axis.y + 5, { steps: 5 });
    // The last pointer move may be drawn a frame later: wait for it (up to 3 s) before reading.
    await page
      .waitForFunction(() => Math.abs(Number(document.querySelector('[data-testid="frame-view"]')?.getAttribute('data-transition')) - 0.5) < 0.05, null, { timeout: 3000 })
      .catch(() => undefined);
    const progress = Number(await page.getByTestId('frame-view').getAttribute('data-transition'));
    const scrubbedTo = await num('current-time', 'data-time');
    await shot('scrub-transition');
    await page.mouse.up();
    assert(Math.abs(progress - 0.5) < 0.05, `at 4 s the stage shows the transition halfway: ${progress} (the playhead at ${scrubbedTo} s)`);
    await page.getByTestId('frame-view').waitFor({ state: 'detached' });

    // Play two seconds from the start: the playhead moves and the stage shows other frames.
    const ruler = await page.getByTestId('timeline-ruler').boundingBox();
    await page.mouse.click(ruler.x + 1, ruler.y + 5);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="current-time"]')?.dataset.time) < 0.05);
    const stage = page.locator('#editor');
    const x0 = await num('playhead', 'data-x');
    // The video's drift from the clock while it plays, sampled every 40 ms after its first half second.
    await page.evaluate(() => {
      const w = window;
      w.rfDrift = [];
      const t0 = performance.now();
      w.rfDriftTimer = setInterval(() => {
        const v = document.querySelector('[data-testid="frame-video"]');
        if (v && !v.paused && performance.now() - t0 > 500) w.rfDrift.push(Math.abs(v.currentTime - Number(v.dataset.target)));
      }, 40);
    });
    const started = Date.now();
    await page.getByTestId('play').click();
    await page.waitForTimeout(100);
    const early = await stage.screenshot();
    await shot('playing-early');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="current-time"]')?.dataset.time) >= 1.3);
    const during = await stage.screenshot();
    await shot('playing');
    await page.waitForTimeout(Math.max(0, 2000 - (Date.now() - started)));
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid="play"]')?.dataset.playing === 'false');
    const t = await num('current-time', 'data-time');
    const x1 = await num('playhead', 'data-x');
    assert(t > 1.6 && t < 2.8, `two seconds of play reach about 2 s: ${t}`);
    assert(x1 - x0 > 150, `the playhead moved ${x1 - x0} px`);
    const drift = await page.evaluate(() => {
      clearInterval(window.rfDriftTimer);
      const d = window.rfDrift;
      return { n: d.length, max: Math.max(0, ...d), mean: d.reduce((a, b) => a + b, 0) / Math.max(d.length, 1) };
    });
    console.log(`timeline: video drift over ${drift.n} samples: mean ${(drift.mean * 1000).toFixed(1)} ms, max ${(drift.max * 1000).toFixed(1)} ms`);
    assert(drift.n > 5, 'the video played in step with the clock');
    // Paused, the editing stage shows the clip's frame under the playhead (it starts at 0 s), not its first frame.
    await page
      .waitForFunction((at) => Math.abs((document.querySelector('[data-testid="stage-video"]')?.currentTime ?? -1) - at) < 0.05, t, { timeout: 5000 })
      .catch(() => undefined);
    const stageVideo = await page.evaluate(() => document.querySelector('[data-testid="stage-video"]')?.currentTime ?? -1);
    assert(Math.abs(stageVideo - t) < 0.05, `paused at ${t} s, the stage's clip shows ${stageVideo} s`);
    const change = await pixelChange(page, early, during);
    console.log(`timeline: played to ${t.toFixed(2)} s, playhead +${(x1 - x0).toFixed(0)} px, ${(change * 100).toFixed(1)} % of the stage changed between the first frames and 1.3 s`);
    assert(change > 0.01, `the stage changed while playing (${(change * 100).toFixed(2)} % of its pixels)`);
    await shot('paused');

    // Drag the first scene's end 1 s to the right: the second scene (and its layers) start 1 s later; undo.
    const second = async () => (await page.getByTestId('scene-block-1').boundingBox()).x;
    const x2 = await second();
    await drag('scene-length-0', 100);
    await page.waitForFunction(() => (document.querySelector('[data-testid="scene-block-0"]')?.textContent ?? '').includes('5.0s'));
    const moved2 = (await second()) - x2;
    assert(Math.abs(moved2 - 100) < 3, `the second scene moved ${moved2} px with the first one's end`);
    await shot('scene-lengthened');
    await page.getByTestId('undo').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="scene-block-0"]')?.textContent ?? '').includes('4.0s'));

    // The English labels of the timeline and the animation fields.
    await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
    await page.getByTestId(`bar-${textId}`).click();
    await page.getByTestId('anim-in').waitFor();
    await page.getByTestId('anim-in').scrollIntoViewIfNeeded();
    await page.getByText('In length (s)').waitFor();
    await shot('english');
    await page.getByTestId('language-switch').getByText('中文', { exact: true }).click();

    // Music of the document (saved with a library tone): its track draws the waveform made at upload,
    // and it plays with the playhead.
    const saved = await page.evaluate(async (id) => {
      const user = JSON.parse(localStorage.getItem('reelforge.user') ?? '{}');
      const headers = { Authorization: user.token, userId: user.id, mobile: user.mobile ?? user.id, 'X-Variant': 'qs' };
      const rule = {
        version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 80,
        resolutionRatio: { name: '16:9', width: 640, height: 360, ratio: '16:9', sizeId: 41, targetWidth: 1280 },
        scenes: [{ type: 'canvas', timeLength: 4, bgColor: '#1e3a8a', effectTime: 1, layers: [] }],
        audio: [{ id, type: 'audio', name: 'tone.mp3', src: '', start: 0, end: 0, len: 3, startTime: 0.5, endTime: 3.5, volume: 100, isLoop: false, fadeInTime: 0, fadeOutTime: 0 }],
      };
      const body = new URLSearchParams({ taskInfo: JSON.stringify(rule), name: 'e2e 音乐', sizeCategoryId: '41' });
      return (await fetch('/diyvrbt/videotask/save', { method: 'POST', headers, body })).json();
    }, tone);
    assert(saved.code === 2000, `saving a document with music answered ${JSON.stringify(saved).slice(0, 300)}`);
    await page.goto(`${baseUrl}/#/diy?taskId=${saved.data}`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('music-bar').waitFor();
    await page.getByTestId('waveform').waitFor({ timeout: 20_000 });
    const inked = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="waveform"]');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n += 1;
      return n / (c.width * c.height);
    });
    assert(inked > 0.05, `the waveform is drawn (${(inked * 100).toFixed(1)} % of its canvas)`);
    await page.getByTestId('play').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="current-time"]')?.dataset.time) >= 1.5);
    const music = await page.evaluate(() => {
      const a = document.querySelector('[data-testid="music-audio"]');
      return a ? { paused: a.paused, time: a.currentTime, ready: a.readyState, error: a.error?.code ?? null, src: a.currentSrc.slice(0, 80) } : null;
    });
    await shot('music');
    await page.keyboard.press('Space');
    console.log(`timeline: music at the playhead's 1.5 s: ${JSON.stringify(music)} (placed from 0.5 s), waveform ink ${(inked * 100).toFixed(1)} %`);
    assert(music && !music.paused && Math.abs(music.time - 1) < 0.35, `the music plays in step: ${JSON.stringify(music)}`);
  });
}
