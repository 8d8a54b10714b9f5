import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import { DEFAULT_TASK_NAME, DEFAULT_TEXT, HISTORY_LIMIT, MAX_SCENES, MIN_Z, newRule, newScene, NEW_SCENE_LENGTH, TEXT_SIZES } from './defaults';
import { makeStore } from '@/app/store';
import { editorActions as a, type EditorState } from './editorSlice';
import { saveableRule, selectCurrentScene, selectDirty, selectDrawOrder } from './selectors';

function setup(rule?: Rule) {
  const store = makeStore();
  if (rule) store.dispatch(a.loaded({ rule }));
  else store.dispatch(a.newDocument());
  const s = (): EditorState => store.getState().editor;
  const layers = (): Layer[] => selectCurrentScene(s()).layers;
  const layer = (id: Layer['id']): Layer => {
    const found = layers().find((l) => l.id === id);
    if (!found) throw new Error(`no layer ${id}`);
    return found;
  };
  const addShape = (): Layer['id'] => {
    store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    return layers()[layers().length - 1]!.id;
  };
  return { store, dispatch: store.dispatch, s, layers, layer, addShape };
}

describe('new document and default placement', () => {
  it('starts with one 3 s black scene at 16:9 640×360, named 未命名', () => {
    const { s } = setup();
    expect(s().name).toBe(DEFAULT_TASK_NAME);
    expect(s().taskId).toBe(-1);
    expect(s().doc.scenes).toHaveLength(1);
    expect(s().doc.scenes[0]).toMatchObject({ timeLength: NEW_SCENE_LENGTH, bgColor: '#000000', effectTime: 1 });
    expect(s().doc.resolutionRatio).toMatchObject({ name: '16:9', width: 640, height: 360, sizeId: 41, targetWidth: 1280 });
    expect(s().doc).toMatchObject({ version: 1, renderVersion: 2, ruleType: 'VIDEO_EDIT', videoQuality: 30, frameRate: 80 });
  });

  it('places a shape at 10/10, 200×130, 0–3 s, z 100, and selects it', () => {
    const { s, layer, addShape } = setup();
    const id = addShape();
    expect(layer(id)).toMatchObject({ type: 'shape', shape: 'rect', x: 10, y: 10, w: 200, h: 130, startTime: 0, endTime: 3, z: MIN_Z });
    expect(s().selection).toEqual([id]);
  });

  it('stacks each new layer above the last', () => {
    const { layer, addShape } = setup();
    const first = addShape();
    const second = addShape();
    expect(layer(second).z).toBe(layer(first).z + 1);
  });

  it.each(Object.entries(TEXT_SIZES))('makes %s text at size %i with the default text', (size, fontSize) => {
    const { dispatch, layers } = setup();
    dispatch(a.addLayer({ kind: 'text', size: size as keyof typeof TEXT_SIZES }));
    const text = layers()[0]!;
    expect(text).toMatchObject({ type: 'word', fontSize, content: DEFAULT_TEXT, showContent: DEFAULT_TEXT });
  });

  it('makes text at least 240 wide and captions full width in white at the bottom', () => {
    const { dispatch, layers } = setup();
    dispatch(a.addLayer({ kind: 'text', size: 'TOP', content: 'double-click to edit text' }));
    dispatch(a.addLayer({ kind: 'text', size: 'CAPTION' }));
    const [top, caption] = layers();
    expect(top).toMatchObject({ w: 320, x: 10, y: 10, content: 'double-click to edit text' });
    expect(caption).toMatchObject({ x: 0, w: 640, color: '#ffffff', businessType: 'subtitle' });
    expect(caption!.y + caption!.h).toBe(350);
  });

  it('makes a picture 250 high at its own ratio, and a video 80 % of the stage width', () => {
    const { dispatch, layers } = setup();
    dispatch(a.addLayer({ kind: 'picture', src: 'p.png', width: 400, height: 500 }));
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', width: 1920, height: 1080 }));
    const [picture, video] = layers();
    expect(picture).toMatchObject({ type: 'picture', w: 200, h: 250, src: 'p.png' });
    expect(video).toMatchObject({ type: 'video', w: 512, h: 288, x: 64, y: 36 });
  });

  it('makes an overlay (a border or an atmosphere effect) cover the whole stage', () => {
    const { dispatch, layers } = setup();
    dispatch(a.addLayer({ kind: 'picture', src: 'snow.gif', width: 720, height: 1280, gif: true, cover: true }));
    expect(layers()[0]).toMatchObject({ type: 'gif', x: 0, y: 0, w: 640, h: 360 });
  });

  it('takes the attach scope and extends the scene when the layer ends after it', () => {
    const { dispatch, s, layers } = setup();
    dispatch(a.setAttachScope([2, 7]));
    dispatch(a.addLayer({ kind: 'shape', shape: 'circle' }));
    expect(layers()[0]).toMatchObject({ startTime: 2, endTime: 7 });
    expect(selectCurrentScene(s()).timeLength).toBe(7);
  });

  it('keeps a longer scene as it is', () => {
    const { dispatch, s } = setup();
    const id = s().sceneId;
    dispatch(a.setSceneLength({ id, length: 9 }));
    dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    expect(selectCurrentScene(s()).timeLength).toBe(9);
  });
});

describe('layer commands', () => {
  it('updates fields and keeps text at least 12', () => {
    const { dispatch, layers } = setup();
    dispatch(a.addLayer({ kind: 'text', size: 'LOW' }));
    const id = layers()[0]!.id;
    dispatch(a.updateLayer({ id, changes: { content: 'hello', color: '#ff0000', fontSize: 4 } }));
    expect(layers()[0]).toMatchObject({ content: 'hello', color: '#ff0000', fontSize: 12 });
  });

  it('moves unlocked layers and leaves locked ones', () => {
    const { dispatch, layer, addShape } = setup();
    const free = addShape();
    const locked = addShape();
    dispatch(a.updateLayer({ id: locked, changes: { isLock: true } }));
    dispatch(a.moveLayers({ ids: [free, locked], dx: 5, dy: -3 }));
    expect(layer(free)).toMatchObject({ x: 15, y: 7 });
    expect(layer(locked)).toMatchObject({ x: 10, y: 10 });
  });

  it('resizes and rotates a layer, ignoring an empty box', () => {
    const { dispatch, layer, addShape } = setup();
    const id = addShape();
    dispatch(a.resizeLayer({ id, x: 20, y: 30, w: 100, h: 50, rotate: 45 }));
    expect(layer(id)).toMatchObject({ x: 20, y: 30, w: 100, h: 50, rotate: 45 });
    dispatch(a.resizeLayer({ id, x: 0, y: 0, w: 0, h: 50 }));
    expect(layer(id)).toMatchObject({ w: 100 });
  });

  it('deletes layers and drops them from the selection', () => {
    const { dispatch, s, layers, addShape } = setup();
    const one = addShape();
    const two = addShape();
    dispatch(a.select({ ids: [one, two] }));
    dispatch(a.deleteLayers({ ids: [one] }));
    expect(layers().map((l) => l.id)).toEqual([two]);
    expect(s().selection).toEqual([two]);
  });

  it('reorders z to front, back, forward and backward, never below 100', () => {
    const { dispatch, s, addShape } = setup();
    const [x, y, z] = [addShape(), addShape(), addShape()];
    const order = () => selectDrawOrder(s()).map((l) => l.id);
    dispatch(a.reorderZ({ ids: [x], move: 'front' }));
    expect(order()).toEqual([y, z, x]);
    dispatch(a.reorderZ({ ids: [x], move: 'back' }));
    expect(order()).toEqual([x, y, z]);
    dispatch(a.reorderZ({ ids: [x], move: 'forward' }));
    expect(order()).toEqual([y, x, z]);
    dispatch(a.reorderZ({ ids: [z], move: 'backward' }));
    expect(order()).toEqual([y, z, x]);
    expect(Math.min(...selectDrawOrder(s()).map((l) => l.z))).toBe(MIN_Z);
  });

  it('selects, toggles and clears', () => {
    const { dispatch, s, addShape } = setup();
    const [x, y] = [addShape(), addShape()];
    dispatch(a.select({ ids: [x] }));
    dispatch(a.select({ ids: [y], toggle: true }));
    expect(s().selection).toEqual([x, y]);
    dispatch(a.select({ ids: [x], toggle: true }));
    expect(s().selection).toEqual([y]);
    dispatch(a.select({ ids: [] }));
    expect(s().selection).toEqual([]);
  });

  it('copies, pastes and duplicates with new ids, shifted and on top', () => {
    const { dispatch, s, layers, addShape } = setup();
    const id = addShape();
    dispatch(a.copy());
    dispatch(a.paste());
    expect(layers()).toHaveLength(2);
    const pasted = layers()[1]!;
    expect(pasted.id).not.toBe(id);
    expect(pasted).toMatchObject({ x: 20, y: 20, z: MIN_Z + 1 });
    expect(s().selection).toEqual([pasted.id]);
    dispatch(a.duplicate());
    expect(layers()[2]).toMatchObject({ x: 30, y: 30, z: MIN_Z + 2 });
  });
});

describe('groups', () => {
  it('needs two or more layers', () => {
    const { dispatch, layers, addShape } = setup();
    const id = addShape();
    dispatch(a.group({ ids: [id] }));
    expect(layers()[0]!.type).toBe('shape');
  });

  it('bounds its members and keeps them relative; ungroup restores absolute positions', () => {
    const { dispatch, s, layers, layer, addShape } = setup();
    const one = addShape();
    const two = addShape();
    dispatch(a.resizeLayer({ id: two, x: 300, y: 100, w: 50, h: 40 }));
    dispatch(a.group({ ids: [one, two] }));
    expect(layers()).toHaveLength(1);
    const g = layers()[0]!;
    if (g.type !== 'group') throw new Error('not a group');
    expect(g).toMatchObject({ x: 10, y: 10, w: 340, h: 130, z: MIN_Z + 1, groupType: 'always' });
    expect(g.attachList.map((m) => [m.x, m.y, m.groupId])).toEqual([
      [0, 0, g.id],
      [290, 90, g.id],
    ]);
    expect(s().selection).toEqual([g.id]);
    dispatch(a.ungroup({ id: g.id }));
    expect(layer(one)).toMatchObject({ x: 10, y: 10, w: 200, h: 130 });
    expect(layer(two)).toMatchObject({ x: 300, y: 100 });
    expect(layer(two).groupId).toBeUndefined();
  });

  it('scales members when the group is resized, and moves them when it moves', () => {
    const { dispatch, layers, layer, addShape } = setup();
    const one = addShape();
    const two = addShape();
    dispatch(a.resizeLayer({ id: two, x: 110, y: 10, w: 100, h: 130 }));
    dispatch(a.group({ ids: [one, two] }));
    const g = layers()[0]!;
    dispatch(a.resizeLayer({ id: g.id, x: 0, y: 0, w: 150, h: 65 }));
    dispatch(a.moveLayers({ ids: [g.id], dx: 10, dy: 5 }));
    dispatch(a.ungroup({ id: g.id }));
    expect(layer(one)).toMatchObject({ x: 10, y: 5, w: 150, h: 65 });
    expect(layer(two)).toMatchObject({ x: 85, y: 5, w: 75, h: 65 });
  });

  it('turns members about the centre of a rotated group on ungroup', () => {
    const { dispatch, layers, layer, addShape } = setup();
    const one = addShape();
    const two = addShape();
    dispatch(a.resizeLayer({ id: one, x: 0, y: 0, w: 100, h: 100 }));
    dispatch(a.resizeLayer({ id: two, x: 100, y: 0, w: 100, h: 100 }));
    dispatch(a.group({ ids: [one, two] }));
    const g = layers()[0]!;
    dispatch(a.resizeLayer({ id: g.id, x: 0, y: 0, w: 200, h: 100, rotate: 90 }));
    dispatch(a.ungroup({ id: g.id }));
    expect(layer(one).x).toBeCloseTo(50);
    expect(layer(one).y).toBeCloseTo(-50);
    expect(layer(two).y).toBeCloseTo(50);
    expect(layer(one).rotate).toBe(90);
  });

  it('decompose-all breaks only once groups', () => {
    const { dispatch, s, layers, addShape } = setup();
    const ids = [addShape(), addShape(), addShape(), addShape()];
    dispatch(a.group({ ids: ids.slice(0, 2) }));
    dispatch(a.group({ ids: ids.slice(2) }));
    const [once, kept] = layers();
    dispatch(a.loaded({ rule: markOnce(s().doc, once!.id) }));
    dispatch(a.decomposeAll());
    expect(layers().filter((l) => l.type === 'group').map((l) => l.id)).toEqual([kept!.id]);
    expect(layers()).toHaveLength(3);
  });
});

/** The document with one group turned into a 'once' group. */
function markOnce(rule: Rule, id: Layer['id']): Rule {
  return {
    ...rule,
    scenes: rule.scenes.map((sc) => ({ ...sc, layers: sc.layers.map((l) => (l.id === id && l.type === 'group' ? { ...l, groupType: 'once' } : l)) })),
  };
}

describe('scenes', () => {
  it('adds a 3 s scene after the current one and shows it', () => {
    const { dispatch, s } = setup();
    const first = s().sceneId;
    dispatch(a.addScene());
    expect(s().doc.scenes).toHaveLength(2);
    expect(s().sceneId).not.toBe(first);
    expect(selectCurrentScene(s()).timeLength).toBe(3);
  });

  it('duplicates a scene with new layer ids', () => {
    const { dispatch, s, addShape } = setup();
    const id = addShape();
    dispatch(a.duplicateScene({ id: s().sceneId }));
    const [one, two] = s().doc.scenes;
    expect(two!.layers).toHaveLength(1);
    expect(two!.layers[0]!.id).not.toBe(id);
    expect(two!.frontendId).not.toBe(one!.frontendId);
    expect(s().sceneId).toBe(two!.frontendId);
  });

  it('makes a ringtone loop: the mix fades at both ends, the last second becomes the opening scene again, one undo step', () => {
    const { dispatch, s, addShape } = setup();
    const shape = addShape();
    dispatch(a.addScene());
    const before = s().doc;
    const total = before.scenes.reduce((sum, x) => sum + x.timeLength, 0);
    dispatch(a.makeLoop({ fade: true, matchFrame: true }));
    const doc = s().doc;
    expect(doc.audioFade).toMatchObject({ status: true, inTime: Math.min(0.5, total / 10), outTime: Math.min(0.5, total / 10) });
    expect(doc.scenes).toHaveLength(3);
    const [opening, middle, closing] = doc.scenes;
    expect(closing!.name).toBe('loop-closing');
    expect(closing!.layers).toHaveLength(1);
    expect(closing!.layers[0]!.id).not.toBe(shape);
    expect(closing!.layers[0]!.endTime).toBe(closing!.timeLength);
    expect(middle!.effect).toBe('OVERLAY');
    expect(doc.scenes.reduce((sum, x) => sum + x.timeLength, 0)).toBeCloseTo(total);
    expect(closing!.bgColor).toBe(opening!.bgColor);
    // Once: a second click adds no second copy.
    dispatch(a.makeLoop({ fade: true, matchFrame: true }));
    expect(s().doc.scenes).toHaveLength(3);
    dispatch(a.undo());
    expect(s().doc).toEqual(before);
  });

  it('deletes a scene but never the last one', () => {
    const { dispatch, s } = setup();
    const first = s().sceneId;
    dispatch(a.deleteScene({ id: first }));
    expect(s().doc.scenes).toHaveLength(1);
    dispatch(a.addScene());
    const second = s().sceneId;
    dispatch(a.deleteScene({ id: second }));
    expect(s().doc.scenes).toHaveLength(1);
    expect(s().sceneId).toBe(first);
  });

  it('reorders scenes', () => {
    const { dispatch, s } = setup();
    dispatch(a.addScene());
    dispatch(a.addScene());
    const ids = s().doc.scenes.map((x) => x.frontendId);
    dispatch(a.reorderScenes({ from: 2, to: 0 }));
    expect(s().doc.scenes.map((x) => x.frontendId)).toEqual([ids[2], ids[0], ids[1]]);
  });

  it('keeps a scene at least 2 s long', () => {
    const { dispatch, s } = setup();
    dispatch(a.setSceneLength({ id: s().sceneId, length: 0.5 }));
    expect(selectCurrentScene(s()).timeLength).toBe(2);
  });

  it('sets background and a known transition, refusing an unknown one', () => {
    const { dispatch, s } = setup();
    const id = s().sceneId;
    dispatch(a.setBackground({ id, bgColor: '#112233' }));
    dispatch(a.setTransition({ id, effect: 'MOVE_LEFT', effectTime: 1.5 }));
    expect(selectCurrentScene(s())).toMatchObject({ bgColor: '#112233', effect: 'MOVE_LEFT', effectTime: 1.5 });
    dispatch(a.setTransition({ id, effect: 'NO_SUCH_THING' }));
    expect(selectCurrentScene(s()).effect).toBe('MOVE_LEFT');
    dispatch(a.setTransition({ id, effect: '' }));
    expect(selectCurrentScene(s()).effect).toBe('');
  });

  it('switching to 9:16 keeps centres in proportion and scales sizes without stretching', () => {
    const { dispatch, s, layer, addShape } = setup();
    const id = addShape();
    dispatch(a.resizeLayer({ id, x: 220, y: 130, w: 200, h: 100 }));
    dispatch(a.setAspect('9:16'));
    expect(s().doc.resolutionRatio).toMatchObject({ name: '9:16', width: 360, height: 640, sizeId: 50 });
    const l = layer(id);
    expect(l.w).toBeCloseTo(112.5);
    expect(l.h).toBeCloseTo(56.25);
    expect(l.x + l.w / 2).toBeCloseTo(180);
    expect(l.y + l.h / 2).toBeCloseTo(320);
  });

  it('refuses to add or duplicate a scene past the limit of spec §9 (48)', () => {
    const rule = newRule();
    rule.scenes = Array.from({ length: MAX_SCENES }, (_, i) => newScene(i + 1));
    const { dispatch, s } = setup(rule);
    const past = s().past.length;
    dispatch(a.addScene());
    dispatch(a.duplicateScene({ id: s().sceneId }));
    expect(s().doc.scenes).toHaveLength(MAX_SCENES);
    expect(s().past).toHaveLength(past);
    dispatch(a.deleteScene({ id: s().sceneId }));
    dispatch(a.addScene());
    expect(s().doc.scenes).toHaveLength(MAX_SCENES);
  });

  it('reordering is one undo step, and a move onto itself records nothing', () => {
    const { dispatch, s } = setup();
    dispatch(a.addScene());
    const ids = s().doc.scenes.map((x) => x.frontendId);
    const past = s().past.length;
    dispatch(a.reorderScenes({ from: 1, to: 1 }));
    expect(s().past).toHaveLength(past);
    dispatch(a.reorderScenes({ from: 1, to: 0 }));
    expect(s().past).toHaveLength(past + 1);
    dispatch(a.undo());
    expect(s().doc.scenes.map((x) => x.frontendId)).toEqual(ids);
  });

  it('removes the blank scenes (no background, no layer) in one step, keeping the shown one when it is not blank', () => {
    const { dispatch, s, addShape } = setup();
    dispatch(a.addScene());
    dispatch(a.addScene());
    dispatch(a.setBackground({ id: s().sceneId, material: 'm-1' }));
    dispatch(a.addScene());
    addShape();
    const shown = s().sceneId;
    const past = s().past.length;
    dispatch(a.removeBlankScenes());
    expect(s().doc.scenes.map((x) => [x.id, x.layers.length])).toEqual([
      ['m-1', 0],
      [undefined, 1],
    ]);
    expect(s().sceneId).toBe(shown);
    expect(s().past).toHaveLength(past + 1);
    dispatch(a.removeBlankScenes());
    expect(s().past).toHaveLength(past + 1);
    dispatch(a.undo());
    expect(s().doc.scenes).toHaveLength(4);
  });

  it('shows the nearest kept scene before a removed shown one', () => {
    const { dispatch, s, addShape } = setup();
    addShape();
    dispatch(a.addScene());
    addShape();
    const second = s().sceneId;
    dispatch(a.addScene());
    dispatch(a.removeBlankScenes());
    expect(s().doc.scenes).toHaveLength(2);
    expect(s().sceneId).toBe(second);
  });

  it('keeps one scene when every scene is blank', () => {
    const { dispatch, s } = setup();
    const first = s().doc.scenes[0]!.frontendId;
    dispatch(a.addScene());
    dispatch(a.removeBlankScenes());
    expect(s().doc.scenes.map((x) => x.frontendId)).toEqual([first]);
    expect(s().sceneId).toBe(first);
  });

  it('sets and removes a background picture or video by material id, with its fit and blur', () => {
    const { dispatch, s } = setup();
    const id = s().sceneId;
    dispatch(a.loaded({ rule: { ...s().doc, scenes: [{ ...s().doc.scenes[0]!, id: 'old', range: [2, 4] }] } }));
    dispatch(a.setBackground({ id, material: 'clip-7', bgFit: 'cover', bgBlur: 6 }));
    expect(selectCurrentScene(s())).toMatchObject({ id: 'clip-7', bgFit: 'cover', bgBlur: 6 });
    expect(selectCurrentScene(s()).range).toBeUndefined();
    expect(s().past).toHaveLength(1);
    dispatch(a.setBackground({ id, material: 'clip-7' }));
    expect(s().past).toHaveLength(1);
    dispatch(a.setBackground({ id, material: null }));
    expect(selectCurrentScene(s()).id).toBeUndefined();
    dispatch(a.undo());
    expect(selectCurrentScene(s()).id).toBe('clip-7');
  });

  it('writes the shown scene as the active one', () => {
    const { dispatch, s } = setup();
    dispatch(a.addScene());
    expect(saveableRule(s()).scenes.map((x) => x.isActive)).toEqual([false, true]);
  });
});

describe('subtitles', () => {
  it('adds placed subtitles as full-width white captions on their scenes in one undo step', () => {
    const { dispatch, s } = setup();
    dispatch(a.addScene());
    dispatch(a.addSubtitles([
      { scene: 0, start: 0.5, end: 1.95, text: '第一句' },
      { scene: 1, start: 0, end: 0.95, text: 'second' },
    ]));
    const [first, second] = s().doc.scenes.map((x) => x.layers);
    expect(first?.[0]).toMatchObject({ type: 'word', content: '第一句', startTime: 0.5, endTime: 1.95, x: 0, w: s().doc.resolutionRatio.width, color: '#ffffff', fontSize: TEXT_SIZES.CAPTION });
    expect(second?.[0]).toMatchObject({ content: 'second', startTime: 0, endTime: 0.95 });
    expect(first?.[0]?.id).not.toBe(second?.[0]?.id);
    dispatch(a.undo());
    expect(s().doc.scenes.flatMap((x) => x.layers)).toHaveLength(0);
  });
});

describe('undo and redo', () => {
  it('restores autosaved edits as one unsaved step that undo takes back', () => {
    const { dispatch, s, layers, addShape } = setup();
    addShape();
    const stored = { ...saveableRule(s()), visualFilter: 'warm' };
    dispatch(a.saveStarted());
    dispatch(a.saveSucceeded({ taskId: 7, at: 1, version: 1 }));
    dispatch(a.restoreEdit({ rule: stored, name: '找回的作品' }));
    expect(s().doc.visualFilter).toBe('warm');
    expect(s().name).toBe('找回的作品');
    expect(layers()).toHaveLength(1);
    expect(selectDirty(s())).toBe(true);
    dispatch(a.undo());
    expect(s().doc.visualFilter).toBe('');
  });

  it('undoes and redoes an edit', () => {
    const { dispatch, layers, addShape } = setup();
    addShape();
    dispatch(a.undo());
    expect(layers()).toHaveLength(0);
    dispatch(a.redo());
    expect(layers()).toHaveLength(1);
  });

  it('keeps at most 20 snapshots', () => {
    const { dispatch, s, layers, addShape } = setup();
    for (let i = 0; i < HISTORY_LIMIT + 5; i += 1) addShape();
    expect(s().past).toHaveLength(HISTORY_LIMIT);
    for (let i = 0; i < HISTORY_LIMIT + 5; i += 1) dispatch(a.undo());
    expect(layers()).toHaveLength(5);
  });

  it('records nothing for an edit that changes nothing', () => {
    const { dispatch, s, addShape } = setup();
    const id = addShape();
    const before = s().past.length;
    const revision = s().revision;
    dispatch(a.moveLayers({ ids: [id], dx: 0, dy: 0 }));
    dispatch(a.updateLayer({ id, changes: { x: 10 } }));
    expect(s().past).toHaveLength(before);
    expect(s().revision).toBe(revision);
  });

  it('records a drag once', () => {
    const { dispatch, s, layer, addShape } = setup();
    const id = addShape();
    const before = s().past.length;
    dispatch(a.beginGesture());
    for (let i = 0; i < 30; i += 1) dispatch(a.moveLayers({ ids: [id], dx: 1, dy: 1 }));
    dispatch(a.commitGesture());
    expect(s().past).toHaveLength(before + 1);
    expect(layer(id)).toMatchObject({ x: 40, y: 40 });
    dispatch(a.undo());
    expect(layer(id)).toMatchObject({ x: 10, y: 10 });
  });

  it('records nothing for a gesture that ends where it began', () => {
    const { dispatch, s, addShape } = setup();
    const id = addShape();
    const before = s().past.length;
    dispatch(a.beginGesture());
    dispatch(a.moveLayers({ ids: [id], dx: 5, dy: 0 }));
    dispatch(a.moveLayers({ ids: [id], dx: -5, dy: 0 }));
    dispatch(a.commitGesture());
    expect(s().past).toHaveLength(before);
  });

  it('a new edit clears redo', () => {
    const { dispatch, s, addShape } = setup();
    addShape();
    dispatch(a.undo());
    addShape();
    expect(s().future).toHaveLength(0);
  });

  it('undo of a scene add returns to the earlier scene', () => {
    const { dispatch, s } = setup();
    const first = s().sceneId;
    dispatch(a.addScene());
    dispatch(a.undo());
    expect(s().sceneId).toBe(first);
  });
});

describe('name and save state', () => {
  it('renames, falling back to 未命名, and counts as unsaved', () => {
    const { dispatch, s } = setup();
    expect(selectDirty(s())).toBe(false);
    dispatch(a.renameTask('  my ring  '));
    expect(s().name).toBe('my ring');
    expect(selectDirty(s())).toBe(true);
    dispatch(a.renameTask(''));
    expect(s().name).toBe(DEFAULT_TASK_NAME);
  });

  it('is saved at the revision it sent; later edits stay unsaved', () => {
    const { dispatch, s, addShape } = setup();
    addShape();
    dispatch(a.saveStarted());
    addShape();
    dispatch(a.saveSucceeded({ taskId: 7, at: 1000, version: 1 }));
    expect(s().taskId).toBe(7);
    expect(s().save).toMatchObject({ status: 'idle', savedAt: 1000 });
    expect(selectDirty(s())).toBe(true);
    dispatch(a.saveStarted());
    dispatch(a.saveSucceeded({ taskId: 7, at: 2000, version: 2 }));
    expect(selectDirty(s())).toBe(false);
  });

  it('keeps every edit when the server refuses the document', () => {
    const { dispatch, s, layers, addShape } = setup();
    addShape();
    dispatch(a.saveStarted());
    dispatch(a.saveFailed([{ path: 'scenes[0].layers[0].w', message: 'must be positive' }]));
    expect(layers()).toHaveLength(1);
    expect(s().save.problems).toHaveLength(1);
    expect(selectDirty(s())).toBe(true);
  });

  it('opens a saved task with frontendIds filled in and empty history', () => {
    const rule = newRule();
    const scene = { ...rule.scenes[0]!, frontendId: undefined, isActive: false };
    const { s } = setup({ ...rule, scenes: [scene, { ...scene, isActive: true }] });
    expect(s().doc.scenes.map((x) => x.frontendId)).toEqual([1, 2]);
    expect(s().sceneId).toBe(2);
    expect(s().past).toHaveLength(0);
  });
});

describe('recent colours (spec §9: 14)', () => {
  it('puts a pick first, once, keeps 14, and is no undo step', () => {
    const { store, s } = setup();
    for (let i = 0; i < 16; i++) store.dispatch(a.colorUsed(`#0000${i.toString(16).padStart(2, '0')}`));
    store.dispatch(a.colorUsed('#0000FF'));
    store.dispatch(a.colorUsed('#000003'));
    expect(s().recentColors).toHaveLength(14);
    expect(s().recentColors.slice(0, 3)).toEqual(['#000003', '#0000ff', '#00000f']);
    expect(s().past).toHaveLength(0);
    expect(selectDirty(s())).toBe(false);
  });

  it('ignores what is not a colour, and keeps the colours across documents', () => {
    const { store, s } = setup();
    store.dispatch(a.colorUsed('red'));
    store.dispatch(a.setRecentColors(['#112233', '#112233', 'x', '#445566cc']));
    expect(s().recentColors).toEqual(['#112233', '#445566cc']);
    store.dispatch(a.newDocument());
    store.dispatch(a.loaded({ rule: newRule() }));
    expect(s().recentColors).toEqual(['#112233', '#445566cc']);
  });
});

describe('shape layers with a drawing', () => {
  it('keeps the catalogue key as uuid and the SVG as shapeCode', () => {
    const { store, layers } = setup();
    store.dispatch(a.addLayer({ kind: 'shape', shape: 'star', shapeCode: '<svg/>' }));
    expect(layers()[0]).toMatchObject({ shape: 'star', uuid: 'star', shapeCode: '<svg/>' });
  });
});
