import { makeStore } from '@/app/store';
import { editorActions as a } from '@/editor/state/editorSlice';
import { stageTime } from './ExactFrame';

describe('the exact frame', () => {
  it('asks for the middle of the scene on the stage', () => {
    const store = makeStore();
    store.dispatch(a.newDocument());
    const first = store.getState().editor.doc.scenes[0]?.timeLength ?? 0;
    expect(stageTime(store.getState().editor)).toBeCloseTo(first / 2);
    store.dispatch(a.addScene());
    const second = store.getState().editor.doc.scenes[1]?.timeLength ?? 0;
    expect(stageTime(store.getState().editor)).toBeCloseTo(first + second / 2);
  });
});
