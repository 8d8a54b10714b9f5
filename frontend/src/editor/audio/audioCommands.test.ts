import type { Material } from '@/api/material';
import { makeStore } from '@/app/store';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { editorActions as a } from '@/editor/state/editorSlice';
import { climaxPatch } from '@/editor/ringtone/loop';
import { selectDuration } from '@/editor/state/selectors';
import { musicItem, patchedItem, voiceItem } from './audioCommands';

const material = (duration: number, id = 'm1'): Material =>
  ({ id, materialName: '晨光', type: 'audio', duration, url: `/diyvrbt/material/file/${id}/original?ticket=t` }) as Material;

function setup() {
  const store = makeStore();
  store.dispatch(a.newDocument());
  const ed = () => store.getState().editor;
  return { store, ed };
}

describe('audio items', () => {
  it('places music over the whole document, looped when shorter, at volume 100, ducked at the catalogue depth', () => {
    expect(musicItem(material(20), 30)).toMatchObject({ type: 'audio', id: 'm1', startTime: 0, endTime: 30, isLoop: true, volume: 100, duck: true, duckDepth: CATALOGUE.audio.duckDepthDb });
    expect(musicItem(material(40), 30).isLoop).toBe(false);
  });

  it('places a voice at a time for its own length, never ducked or looped', () => {
    expect(voiceItem(material(2.5), 1)).toMatchObject({ type: 'voice', startTime: 1, endTime: 3.5, isLoop: false, duck: false });
  });

  it('holds a patch to what the renderer takes', () => {
    const item = musicItem(material(20), 10);
    expect(patchedItem(item, { volume: 250, duckDepth: 99, fadeInTime: -1 })).toMatchObject({ volume: 200, duckDepth: CATALOGUE.audio.duckDepthMaxDb, fadeInTime: 0 });
    expect(patchedItem(item, { fadeInTime: 8, fadeOutTime: 8 })).toMatchObject({ fadeInTime: 8, fadeOutTime: 2 });
    expect(patchedItem(item, { endTime: 0 })).toBeNull();
    expect(patchedItem(item, { start: 5, end: 5.05 })).toBeNull();
    expect(patchedItem(item, { volume: Number.NaN })).toBeNull();
  });
});

describe('audio commands', () => {
  it('adds, edits and deletes an item, each one undo step, and selects what it adds', () => {
    const { store, ed } = setup();
    store.dispatch(a.addAudio(musicItem(material(20), 3)));
    expect(ed().doc.audio).toHaveLength(1);
    expect(ed().audioSelected).toBe(0);
    store.dispatch(a.updateAudio({ index: 0, changes: { fadeInTime: 1, volume: 150 } }));
    expect(ed().doc.audio[0]).toMatchObject({ fadeInTime: 1, volume: 150 });
    store.dispatch(a.deleteAudio({ index: 0 }));
    expect(ed().doc.audio).toHaveLength(0);
    expect(ed().audioSelected).toBeNull();
    store.dispatch(a.undo());
    expect(ed().doc.audio[0]).toMatchObject({ fadeInTime: 1 });
    store.dispatch(a.undo());
    expect(ed().doc.audio[0]).toMatchObject({ fadeInTime: 0, volume: 100 });
    store.dispatch(a.undo());
    expect(ed().doc.audio).toHaveLength(0);
  });

  it('cuts to the climax and makes the cut loop across the seam, each one undo step', () => {
    const { store, ed } = setup();
    const seconds = selectDuration(ed());
    store.dispatch(a.addAudio(musicItem(material(20), seconds)));
    const patch = climaxPatch(ed().doc.audio[0]!, 9_000, seconds);
    store.dispatch(a.updateAudio({ index: 0, changes: patch! }));
    expect(ed().doc.audio[0]).toMatchObject({ start: 9, end: 9 + seconds, startTime: 0, endTime: seconds, isLoop: false });
    store.dispatch(a.makeLoop({ fade: true, matchFrame: false }));
    const [music, bridge] = ed().doc.audio;
    const x = Math.min(1, seconds / 4);
    expect(music).toMatchObject({ fadeOutTime: x, start: 9 });
    expect(bridge).toMatchObject({ start: 9 - x, end: 9, startTime: seconds - x, endTime: seconds, fadeInTime: x, scope: 'loop-bridge' });
    expect(ed().doc.audioFade.status).toBe(false);
    store.dispatch(a.makeLoop({ fade: true, matchFrame: false }));
    expect(ed().doc.audio).toHaveLength(2);
    store.dispatch(a.undo());
    expect(ed().doc.audio).toHaveLength(1);
    expect(ed().doc.audio[0]).toMatchObject({ start: 9, fadeOutTime: 0 });
  });

  it('records nothing for a refused edit', () => {
    const { store, ed } = setup();
    store.dispatch(a.addAudio(musicItem(material(20), 3)));
    const past = ed().past.length;
    store.dispatch(a.updateAudio({ index: 0, changes: { endTime: -1 } }));
    store.dispatch(a.updateAudio({ index: 5, changes: { volume: 1 } }));
    expect(ed().past.length).toBe(past);
  });

  it('selecting a layer clears the audio selection and selecting audio clears the layers', () => {
    const { store, ed } = setup();
    store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    store.dispatch(a.addAudio(voiceItem(material(2), 0)));
    expect(ed().selection).toEqual([]);
    store.dispatch(a.select({ ids: [ed().doc.scenes[0]?.layers[0]?.id ?? 0] }));
    expect(ed().audioSelected).toBeNull();
    store.dispatch(a.selectAudio(0));
    expect(ed().selection).toEqual([]);
    store.dispatch(a.selectAudio(3));
    expect(ed().audioSelected).toBeNull();
  });

  it('sets the mix fade and the loudness target within the catalogue range', () => {
    const { store, ed } = setup();
    store.dispatch(a.setAudioFade({ status: true, inTime: 1.5, outTime: -2 }));
    expect(ed().doc.audioFade).toEqual({ status: true, inTime: 1.5, outTime: 0 });
    store.dispatch(a.setLoudness({ target: -80 }));
    expect(ed().doc.loudness.target).toBe(CATALOGUE.audio.loudnessTargetMin);
    store.dispatch(a.setLoudness({ status: false, target: 0 }));
    expect(ed().doc.loudness).toEqual({ status: false, target: CATALOGUE.audio.loudnessTargetMax });
    store.dispatch(a.undo());
    expect(ed().doc.loudness.status).toBe(true);
  });
});
