import { makeStore } from '@/app/store';
import type { Layer } from '@/editor/model/gen/Layer';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { editorActions as a } from './editorSlice';
import { selectCurrentScene } from './selectors';
import { heldSeconds } from './timing';

function setup() {
  const store = makeStore();
  store.dispatch(a.newDocument());
  const scene = () => selectCurrentScene(store.getState().editor);
  const id = () => scene().frontendId as number;
  const layer = (i = 0) => scene().layers[i] as Layer;
  const video = (i = 0) => scene().layers[i] as VideoLayer & { type: 'video' };
  return { store, dispatch: store.dispatch, scene, id, layer, video };
}

describe('layers follow the scene', () => {
  it('makes a new layer span the whole scene, whatever its length', () => {
    const { dispatch, id, layer, scene } = setup();
    dispatch(a.setSceneLength({ id: id(), length: 7 }));
    dispatch(a.addLayer({ kind: 'text', size: 'TOP' }));
    expect(layer()).toMatchObject({ startTime: 0, endTime: 7 });
    expect(scene().timeLength).toBe(7);
  });

  it('stretches the layers that filled the scene to its new length, and leaves the others', () => {
    const { dispatch, id, layer } = setup();
    dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    dispatch(a.addLayer({ kind: 'shape', shape: 'circle' }));
    dispatch(a.setLayerTime({ id: layer(1).id, start: 1, end: 2 }));
    dispatch(a.setSceneLength({ id: id(), length: 6 }));
    expect(layer(0)).toMatchObject({ startTime: 0, endTime: 6 });
    expect(layer(1)).toMatchObject({ startTime: 1, endTime: 2 });
    dispatch(a.setSceneLength({ id: id(), length: 4 }));
    expect(layer(0)).toMatchObject({ startTime: 0, endTime: 4 });
  });

  it('leaves every layer as it was when the user chose not to stretch them', () => {
    const { store, dispatch, id, layer } = setup();
    dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    dispatch(a.setStretchLayers(false));
    dispatch(a.setSceneLength({ id: id(), length: 6 }));
    expect(layer()).toMatchObject({ startTime: 0, endTime: 3 });
    // A preference: not an undo step, and it outlives the document.
    dispatch(a.newDocument());
    expect(store.getState().editor.stretchLayers).toBe(false);
  });

  it('stretches from the length a drag began with, so dragging back undoes the stretch', () => {
    const { store, dispatch, id, layer } = setup();
    dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    const past = store.getState().editor.past.length;
    dispatch(a.beginGesture());
    dispatch(a.setSceneLength({ id: id(), length: 5 }));
    dispatch(a.setSceneLength({ id: id(), length: 8 }));
    expect(layer()).toMatchObject({ startTime: 0, endTime: 8 });
    dispatch(a.setSceneLength({ id: id(), length: 3 }));
    expect(layer()).toMatchObject({ startTime: 0, endTime: 3 });
    dispatch(a.setSceneLength({ id: id(), length: 4.5 }));
    dispatch(a.commitGesture());
    expect(layer()).toMatchObject({ endTime: 4.5 });
    expect(store.getState().editor.past.length).toBe(past + 1);
  });
});

describe("a clip's in and out points and its bar", () => {
  it('never gives a 1.7 s clip a 3 s out point: the bar spans the scene and holds the last frame', () => {
    const { dispatch, video, scene } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 1.7 }));
    expect(video()).toMatchObject({ startTime: 0, endTime: 3, cutInfo: { start: 0, end: 1.7 } });
    expect(heldSeconds(video(), scene().timeLength)).toBeCloseTo(1.3);
  });

  it('cuts a clip longer than the scene to the scene', () => {
    const { dispatch, video } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 12 }));
    expect(video()).toMatchObject({ endTime: 3, cutInfo: { start: 0, end: 3 } });
  });

  it('makes the bar as long as the cut when the in or out point changes, within the source', () => {
    const { dispatch, video } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 10 }));
    dispatch(a.setVideoCut({ id: video().id, start: 0, end: 1.2, source: 10 }));
    expect(video()).toMatchObject({ startTime: 0, endTime: 1.2, cutInfo: { start: 0, end: 1.2 } });
    dispatch(a.setVideoCut({ id: video().id, start: 0.5, end: 1.2, source: 10 }));
    expect(video()).toMatchObject({ endTime: 0.7, cutInfo: { start: 0.5, end: 1.2 } });
    dispatch(a.setVideoCut({ id: video().id, start: 0.5, end: 40, source: 10 }));
    expect(video()).toMatchObject({ endTime: 9.5, cutInfo: { start: 0.5, end: 10 } });
  });

  it('keeps the other point as the layer has it now when only one is given', () => {
    const { dispatch, video } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 8 }));
    // Two edits dispatched before the panel draws again: the second must not bring back the first's old in point.
    dispatch(a.setVideoCut({ id: video().id, start: 1, source: 8 }));
    dispatch(a.setVideoCut({ id: video().id, end: 4, source: 8 }));
    expect(video()).toMatchObject({ endTime: 3, cutInfo: { start: 1, end: 4 } });
    dispatch(a.setVideoCut({ id: video().id, source: 8 }));
    expect(video()).toMatchObject({ cutInfo: { start: 1, end: 4 } });
  });

  it("moves the out point with the bar's end, never past the source", () => {
    const { dispatch, video } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 1.7 }));
    dispatch(a.setLayerTime({ id: video().id, start: 0, end: 1, source: 1.7 }));
    expect(video()).toMatchObject({ endTime: 1, cutInfo: { start: 0, end: 1 } });
    dispatch(a.setLayerTime({ id: video().id, start: 0, end: 2.5, source: 1.7 }));
    expect(video()).toMatchObject({ endTime: 2.5, cutInfo: { start: 0, end: 1.7 } });
  });

  it('keeps the cut of a bar moved along the scene, held frame and all', () => {
    const { dispatch, video } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 1.7 }));
    dispatch(a.setLayerTime({ id: video().id, start: 1, end: 4 }));
    expect(video()).toMatchObject({ startTime: 1, endTime: 4, cutInfo: { start: 0, end: 1.7 } });
  });

  it("stretches a clip with its scene as far as its source goes", () => {
    const { dispatch, id, video, scene } = setup();
    dispatch(a.addLayer({ kind: 'video', src: 'v.mp4', materialId: 'm1', duration: 4 }));
    dispatch(a.setSceneLength({ id: id(), length: 5, sources: { m1: 4 } }));
    expect(video()).toMatchObject({ endTime: 5, cutInfo: { start: 0, end: 4 } });
    expect(heldSeconds(video(), scene().timeLength)).toBe(1);
  });
});
