/**
 * Documents the editor makes, through its own reducers and `saveableRule`, as the save call sends them:
 * each must equal its file in tests/timeline/documents/, which services/timeline's `frontend_documents`
 * test round-trips through the Rust model (nothing lost, no problem found). A change to what the
 * editor saves fails here until the files are rewritten (`UPDATE_DOCUMENTS=1 npx jest documents`),
 * and then fails in Rust if the server would not keep it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeStore } from '../../src/app/store';
import { ART_WORD_STYLES } from '../../src/editor/artword/artWords';
import { musicItem, voiceItem } from '../../src/editor/audio/audioCommands';
import { editorActions as a } from '../../src/editor/state/editorSlice';
import { saveableRule, selectCurrentScene } from '../../src/editor/state/selectors';
import { material } from '../../src/test/materials';

const DIR = join(__dirname, 'documents');

type Store = ReturnType<typeof makeStore>;

/** A fresh editor on a blank document; `Math.random` is seeded so ids are the same every run. */
function editor(): { store: Store; lastLayer: () => string | number } {
  let seed = 1;
  jest.spyOn(Math, 'random').mockImplementation(() => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  });
  const store = makeStore();
  store.dispatch(a.newDocument());
  const lastLayer = () => {
    const layers = selectCurrentScene(store.getState().editor).layers;
    return (layers[layers.length - 1] as { id: string | number }).id;
  };
  return { store, lastLayer };
}

const documents: Record<string, () => unknown> = {
  every_layer_kind() {
    const { store, lastLayer } = editor();
    const d = store.dispatch;
    d(a.addLayer({ kind: 'text', size: 'TOP', content: '标题 Title' }));
    d(a.updateLayer({ id: lastLayer() as never, changes: { color: '#ffcc00', bold: true } }));
    d(a.addLayer({ kind: 'text', size: 'CAPTION' }));
    d(a.addLayer({ kind: 'shape', shape: 'rect' }));
    d(a.addLayer({ kind: 'picture', src: '/diyvrbt/material/file/7/original', materialId: '7', width: 400, height: 300 }));
    d(a.updateLayer({ id: lastLayer() as never, changes: { filter: 'warm', blur: 4, rotate: 15 } }));
    d(a.addLayer({ kind: 'picture', src: '/diyvrbt/material/file/8/original', materialId: '8', width: 120, height: 120, gif: true, cover: true }));
    d(a.addLayer({ kind: 'video', src: '/diyvrbt/material/file/9/original', materialId: '9', width: 640, height: 360, duration: 5 }));
    d(a.addLayer({ kind: 'artWord', style: ART_WORD_STYLES[1] ?? ART_WORD_STYLES[0]!, content: '艺术字' }));
    d(a.addLayer({ kind: 'effect', src: '/diyvrbt/material/file/10/original', materialId: '10', name: 'sparkle' }));
    return saveableRule(store.getState().editor);
  },
  scenes_transitions_and_sound() {
    const { store, lastLayer } = editor();
    const d = store.dispatch;
    const first = store.getState().editor.sceneId;
    d(a.setBackground({ id: first, bgColor: '#203040' }));
    d(a.setSceneFilter({ id: first, filter: 'cool' }));
    d(a.addLayer({ kind: 'shape', shape: 'rect' }));
    const shape = lastLayer();
    d(a.addLayer({ kind: 'text', size: 'MIDDLE', content: 'grouped' }));
    d(a.group({ ids: [shape as never, lastLayer() as never] }));
    d(a.addScene());
    const second = store.getState().editor.sceneId;
    d(a.setTransition({ id: second, effect: 'CIRCLE_OPEN', effectTime: 1 }));
    d(a.setSceneLength({ id: second, length: 4 }));
    d(a.addSubtitles([{ scene: 1, start: 0.5, end: 2, text: '第一句' }, { scene: 1, start: 2, end: 3.5, text: 'second line' }]));
    d(a.addAudio(musicItem(material('21', { type: 'music', duration: 12, materialName: '背景乐' }), 7)));
    d(a.addAudio(voiceItem(material('22', { type: 'voice', duration: 2, materialName: 'voice' }), 1)));
    d(a.setAudioFade({ status: true, inTime: 1, outTime: 2 }));
    d(a.setLoudness({ status: true, target: -16 }));
    return saveableRule(store.getState().editor);
  },
  portrait_motion_and_cut() {
    const { store, lastLayer } = editor();
    const d = store.dispatch;
    d(a.setAspect('9:16'));
    d(a.addLayer({ kind: 'video', src: '/diyvrbt/material/file/31/original', materialId: '31', width: 360, height: 640, duration: 8 }));
    d(a.setVideoCut({ id: lastLayer() as never, start: 1.5, end: 4, source: 8 }));
    d(a.addLayer({ kind: 'text', size: 'LOW', content: 'moving' }));
    d(a.updateLayer({ id: lastLayer() as never, changes: { motionIn: 'MOTIONIN_BOUNCE_LEFT', inTime: 1, motionOut: 'MOTIONOUT_MOVE_LEFT', outTime: 0.5 } }));
    d(a.makeLoop({ fade: true, matchFrame: false }));
    return saveableRule(store.getState().editor);
  },
};

afterEach(() => jest.restoreAllMocks());

describe.each(Object.keys(documents))('the editor saves %s', (name) => {
  it('as its file says, the one the Rust model round-trips', () => {
    const text = `${JSON.stringify(documents[name]!(), null, 2)}\n`;
    const file = join(DIR, `${name}.json`);
    if (process.env.UPDATE_DOCUMENTS) writeFileSync(file, text);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });
});
