import { act, render } from '@testing-library/react';
import type { MoveableProps } from 'react-moveable';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { editorActions as a } from '@/editor/state/editorSlice';
import { Stage } from './Stage';

// jsdom lays nothing out, so Moveable is replaced by a probe that keeps the props the stage gives it
// and plays a gesture the way Moveable does: an event, then a look at the target.
let moveable: MoveableProps = {};
jest.mock('react-moveable', () => {
  const { forwardRef } = jest.requireActual<typeof import('react')>('react');
  return {
    __esModule: true,
    default: forwardRef(function Probe(props: MoveableProps, _ref) {
      moveable = props;
      return null;
    }),
  };
});
jest.mock('react-selecto', () => ({ __esModule: true, default: () => null }));

function stageWithShape() {
  const store = makeStore();
  store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
  render(
    <Providers store={store} queryClient={makeQueryClient()}>
      <Stage />
    </Providers>,
  );
  const el = document.getElementById('component1') as HTMLElement;
  return { store, el };
}

describe('Stage resize', () => {
  it('draws each resize step before Moveable measures the target (it throws back steps it finds undrawn)', () => {
    const { store, el } = stageWithShape();
    // Fitted to a frame jsdom measures as 0×0, the stage is drawn at scale 1.
    expect(el.style.width).toBe('200px');
    act(() => {
      moveable.onResizeStart?.({} as never);
    });
    // Outside act, as Moveable's own pointer events arrive (React schedules as in the browser): what
    // the DOM shows right after the call is what Moveable measures.
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    moveable.onResize?.({ target: el, width: 260, height: 150, drag: { left: 10, top: 10 } } as never);
    expect(el.style.width).toBe('260px');
    expect(el.style.height).toBe('150px');
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    act(() => {
      moveable.onResizeEnd?.({} as never);
    });
    const layer = store.getState().editor.doc.scenes[0]!.layers[0]!;
    expect([layer.w, layer.h]).toEqual([260, 150]);
    expect(store.getState().editor.past).toHaveLength(2);
  });
});

describe('Stage filters', () => {
  it('filters the whole frame as the renderer does: the scene filter, the document filter, then the canvas blur', () => {
    const { store } = stageWithShape();
    const doc = store.getState().editor.doc;
    act(() => {
      store.dispatch(a.loaded({ rule: { ...doc, visualFilter: 'dim', scenes: [{ ...doc.scenes[0]!, visualFilter: 'blackWhite', canvasBlur: 6 }] } }));
    });
    // At scale 1: the canvas blur of 6 editing pixels is a Gaussian of σ 3.
    expect(document.getElementById('editor')!.style.filter).toBe('grayscale(1) brightness(0.8) blur(3px)');
  });
});

describe('Stage at the paused playhead', () => {
  it('draws a layer the frame under the playhead does not show faint, unless it is selected', () => {
    const { store, el } = stageWithShape();
    expect(el.dataset.faint).toBeUndefined();
    act(() => {
      store.dispatch(a.setLayerTime({ id: 1, start: 1, end: 3 }));
      store.dispatch(a.select({ ids: [] }));
    });
    const moved = document.getElementById('component1') as HTMLElement;
    expect(moved.dataset.faint).toBe('true');
    expect(moved.style.opacity).toBe('0.3');
    act(() => {
      store.dispatch(a.select({ ids: [1] }));
    });
    expect((document.getElementById('component1') as HTMLElement).dataset.faint).toBeUndefined();
  });
});

describe('Stage pictures', () => {
  it("draws a picture's border over its edge, the picture filling the box, as the renderer draws it", () => {
    const store = makeStore();
    store.dispatch(a.addLayer({ kind: 'picture', src: '/p.png', width: 400, height: 300 }));
    store.dispatch(a.updateLayer({ id: 1, changes: { borderWidth: 6, borderColor: '#ffffff', borderRadius: 20 } as never }));
    render(
      <Providers store={store} queryClient={makeQueryClient()}>
        <Stage />
      </Providers>,
    );
    const border = document.querySelector<HTMLElement>('#component1 [data-testid="picture-border"]')!;
    expect(border).toHaveStyle({ position: 'absolute', border: '6px solid #ffffff', borderRadius: '20px', boxSizing: 'border-box' });
    // The picture's own frame has the radius but no border: it is not shrunk inside it.
    const frame = document.querySelector<HTMLElement>('#component1 img')!.parentElement!;
    expect(frame.style.border).toBe('');
    expect(frame).toHaveStyle({ width: '100%', height: '100%', borderRadius: '20px' });
  });
});
