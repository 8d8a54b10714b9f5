import { makeStore } from '@/app/store';
import type { Layer } from '@/editor/model/gen/Layer';
import { editorActions as a } from './editorSlice';
import { selectCurrentScene } from './selectors';

function setup() {
  const store = makeStore();
  store.dispatch(a.newDocument());
  store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
  const scene = () => selectCurrentScene(store.getState().editor);
  const layer = () => scene().layers[0] as Layer;
  return { store, scene, layer };
}

describe('timeline commands', () => {
  it('sets a layer span, lengthening the scene when it ends after it', () => {
    const { store, scene, layer } = setup();
    store.dispatch(a.setLayerTime({ id: layer().id, start: 1, end: 2.5 }));
    expect(layer()).toMatchObject({ startTime: 1, endTime: 2.5 });
    expect(scene().timeLength).toBe(3);
    store.dispatch(a.setLayerTime({ id: layer().id, start: 1, end: 4.5 }));
    expect(scene().timeLength).toBe(4.5);
  });

  it('refuses a span that is empty, reversed or before 0, and a locked layer', () => {
    const { store, layer } = setup();
    const id = layer().id;
    store.dispatch(a.setLayerTime({ id, start: 2, end: 2 }));
    store.dispatch(a.setLayerTime({ id, start: -1, end: 2 }));
    store.dispatch(a.setLayerTime({ id, start: 2, end: 1 }));
    expect(layer()).toMatchObject({ startTime: 0, endTime: 3 });
    store.dispatch(a.updateLayer({ id, changes: { isLock: true } }));
    store.dispatch(a.setLayerTime({ id, start: 1, end: 2 }));
    expect(layer()).toMatchObject({ startTime: 0, endTime: 3 });
  });

  it('makes a drag one undo step, the scene growing from its length when the drag began', () => {
    const { store, scene, layer } = setup();
    const id = layer().id;
    const past = store.getState().editor.past.length;
    store.dispatch(a.beginGesture());
    store.dispatch(a.setLayerTime({ id, start: 2, end: 5 }));
    expect(scene().timeLength).toBe(5);
    store.dispatch(a.setLayerTime({ id, start: 1.5, end: 2.5 }));
    expect(scene().timeLength).toBe(3);
    store.dispatch(a.commitGesture());
    expect(store.getState().editor.past.length).toBe(past + 1);
    store.dispatch(a.undo());
    expect(layer()).toMatchObject({ startTime: 0, endTime: 3 });
  });

  it("sets a scene's filter from the catalogue, or none", () => {
    const { store, scene } = setup();
    const id = scene().frontendId as number;
    store.dispatch(a.setSceneFilter({ id, filter: 'blackWhite' }));
    expect(scene().visualFilter).toBe('blackWhite');
    store.dispatch(a.setSceneFilter({ id, filter: 'no-such-filter' }));
    expect(scene().visualFilter).toBe('blackWhite');
    store.dispatch(a.setSceneFilter({ id, filter: '' }));
    expect(scene().visualFilter).toBe('');
  });
});
