import { fireEvent, render, screen } from '@testing-library/react';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import type { Layer } from '@/editor/model/gen/Layer';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectCurrentScene } from '@/editor/state/selectors';
import { SIGNED_IN } from '@/test/renderApp';
import { AnimationFields, animationEntries } from './AnimationFields';
import { previewUrl, SceneFilterField, TransitionField } from './CataloguePicker';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';

jest.setTimeout(60_000);

function setup() {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  store.dispatch(a.newDocument({ usedFor: 'ALL' }));
  store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
  store.dispatch(a.addScene());
  store.dispatch(a.selectScene(1));
  const queryClient = makeQueryClient();
  const layer = () => selectCurrentScene(store.getState().editor).layers[0] as Layer;
  const scene = () => selectCurrentScene(store.getState().editor);
  return { store, queryClient, layer, scene };
}

function Animations() {
  const dispatch = useEditorDispatch();
  const layer = useEditorSelector((s) => selectCurrentScene(s).layers[0] as Layer);
  return <AnimationFields layer={layer} set={(changes) => dispatch(a.updateLayer({ id: layer.id, changes }))} />;
}

function ScenePickers() {
  const scene = useEditorSelector(selectCurrentScene);
  return (
    <>
      <TransitionField scene={scene} last={false} />
      <SceneFilterField scene={scene} />
    </>
  );
}

describe('animation entries', () => {
  it('groups the catalogue by effect with its directions', () => {
    expect(animationEntries('in').map((e) => [e.effect, e.directions.map((d) => d.direction)])).toEqual([
      ['opacity', [null]],
      ['move', ['left', 'right', 'up', 'down']],
      ['bounce', ['left', 'right', 'up', 'down']],
      ['erase', ['left', 'right', 'up', 'down']],
    ]);
    expect(animationEntries('out').map((e) => e.effect)).toEqual(['opacity', 'move', 'erase']);
  });
});

describe('animation fields', () => {
  it('sets an in-animation with its direction and a 1 s length, and an out-animation, then none', () => {
    const { store, queryClient, layer } = setup();
    render(
      <Providers store={store} queryClient={queryClient}>
        <Animations />
      </Providers>,
    );
    fireEvent.click(screen.getByTestId('anim-in-effect-bounce'));
    expect(layer()).toMatchObject({ motionIn: 'MOTIONIN_BOUNCE_LEFT', inTime: 1 });
    fireEvent.click(screen.getByTestId('anim-in-dir-up'));
    expect(layer().motionIn).toBe('MOTIONIN_BOUNCE_UP');
    expect(screen.getByTestId('anim-in-name')).toHaveTextContent('向上弹入');
    fireEvent.click(screen.getByTestId('anim-out-effect-erase'));
    expect(layer()).toMatchObject({ motionOut: 'PYTHONERASE_LEFT_OUT', outTime: 1 });
    fireEvent.change(screen.getByTestId('anim-out-time'), { target: { value: '0.5' } });
    fireEvent.blur(screen.getByTestId('anim-out-time'));
    expect(layer().outTime).toBe(0.5);
    fireEvent.click(screen.getByTestId('anim-in-none'));
    expect(layer().motionIn).toBe('');
  });
});

describe('transition and filter pickers', () => {
  it('asks the server for each entry still, sets the pick, and leaves the name alone when a still fails', () => {
    const { store, queryClient, scene } = setup();
    render(
      <Providers store={store} queryClient={queryClient}>
        <ScenePickers />
      </Providers>,
    );
    fireEvent.click(screen.getByTestId('transition-picker'));
    const option = screen.getByTestId('transition-option-CIRCLE_OPEN');
    const img = option.querySelector('img');
    expect(img?.getAttribute('src')).toBe(previewUrl('transition', 'CIRCLE_OPEN'));
    expect(previewUrl('filter', 'blackWhite')).toBe('/diyvrbt/catalogue/preview/filter/blackWhite');
    fireEvent.error(img as HTMLImageElement);
    expect(option.querySelector('img')).toBeNull();
    expect(option).toHaveTextContent('圆形展开');
    fireEvent.click(option);
    expect(scene()).toMatchObject({ effect: 'CIRCLE_OPEN', effectTime: 1 });
    expect(screen.getByTestId('transition-picker-name')).toHaveTextContent('圆形展开');
    fireEvent.change(screen.getByTestId('transition-time'), { target: { value: '1.5' } });
    fireEvent.blur(screen.getByTestId('transition-time'));
    expect(scene().effectTime).toBe(1.5);
    fireEvent.click(screen.getByTestId('filter-picker'));
    fireEvent.click(screen.getByTestId('filter-option-nostalgia'));
    expect(scene().visualFilter).toBe('nostalgia');
    fireEvent.click(screen.getByTestId('filter-picker'));
    fireEvent.click(screen.getByTestId('filter-option-none'));
    expect(scene().visualFilter).toBe('');
  });
});
