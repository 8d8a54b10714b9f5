import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { OfferItem } from '@/api/catalogueOffer';
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

/** Answers the animation offer (absent: the call fails, and the editor offers everything). */
function serveOffer(items?: OfferItem[]) {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/catalogue/offer/animation' && items) return { catalogue: 'animation', items };
    throw new Error(`unexpected GET ${url}`);
  });
}

beforeEach(() => serveOffer());
afterEach(() => jest.restoreAllMocks());

/** The tenant's animation offer of the tests: bounce first (up before left), every in-move hidden, fade after bounce. */
const OFFER: OfferItem[] = [
  { key: 'MOTIONIN_BOUNCE_UP', offered: true },
  { key: 'MOTIONIN_BOUNCE_LEFT', offered: true },
  { key: 'MOTIONIN_OPACITY', offered: true },
  { key: 'MOTIONIN_MOVE_LEFT', offered: false },
  { key: 'MOTIONIN_MOVE_RIGHT', offered: false },
  { key: 'MOTIONIN_MOVE_UP', offered: false },
  { key: 'MOTIONIN_MOVE_DOWN', offered: false },
  { key: 'MOTIONIN_BOUNCE_RIGHT', offered: false },
];

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

  it("follows the tenant's offer, naming later what it does not name, and keeps the layer's hidden animation", () => {
    expect(animationEntries('in', OFFER).map((e) => [e.effect, e.directions.map((d) => d.direction)])).toEqual([
      ['bounce', ['up', 'left', 'down']],
      ['opacity', [null]],
      ['erase', ['left', 'right', 'up', 'down']],
    ]);
    expect(animationEntries('in', OFFER, 'MOTIONIN_MOVE_UP').map((e) => [e.effect, e.directions.map((d) => d.direction)])).toEqual([
      ['bounce', ['up', 'left', 'down']],
      ['opacity', [null]],
      ['move', ['up']],
      ['erase', ['left', 'right', 'up', 'down']],
    ]);
    expect(animationEntries('out', OFFER).map((e) => e.effect)).toEqual(['opacity', 'move', 'erase']);
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

describe("animation fields with the tenant's offer", () => {
  const effects = (phase: string) => screen.getAllByTestId(new RegExp(`^anim-${phase}-effect-`)).map((b) => b.dataset.testid);

  it('offers only the offered animations, in the offer\'s order', async () => {
    serveOffer(OFFER);
    const { store, queryClient, layer } = setup();
    render(
      <Providers store={store} queryClient={queryClient}>
        <Animations />
      </Providers>,
    );
    await waitFor(() => expect(effects('in')).toEqual(['anim-in-effect-bounce', 'anim-in-effect-opacity', 'anim-in-effect-erase']));
    expect(screen.queryByTestId('anim-in-effect-move')).toBeNull();
    fireEvent.click(screen.getByTestId('anim-in-effect-bounce'));
    expect(layer().motionIn).toBe('MOTIONIN_BOUNCE_UP');
    expect(screen.getAllByTestId(/^anim-in-dir-/).map((b) => b.dataset.testid)).toEqual(['anim-in-dir-up', 'anim-in-dir-left', 'anim-in-dir-down']);
    expect(effects('out')).toEqual(['anim-out-effect-opacity', 'anim-out-effect-move', 'anim-out-effect-erase']);
  });

  it('keeps showing a layer\'s hidden animation as picked, and stops offering it once changed', async () => {
    serveOffer(OFFER);
    const { store, queryClient, layer } = setup();
    store.dispatch(a.updateLayer({ id: layer().id, changes: { motionIn: 'MOTIONIN_MOVE_RIGHT', inTime: 1 } }));
    render(
      <Providers store={store} queryClient={queryClient}>
        <Animations />
      </Providers>,
    );
    await waitFor(() => expect(effects('in')).toEqual(['anim-in-effect-bounce', 'anim-in-effect-opacity', 'anim-in-effect-move', 'anim-in-effect-erase']));
    expect(screen.getByTestId('anim-in-name')).toHaveTextContent('向右移入');
    expect(screen.getByTestId('anim-in-effect-move')).toHaveClass('ant-btn-variant-solid');
    expect(screen.queryByTestId('anim-in-dir-left')).toBeNull();
    expect(layer().motionIn).toBe('MOTIONIN_MOVE_RIGHT');
    fireEvent.click(screen.getByTestId('anim-in-effect-opacity'));
    expect(layer().motionIn).toBe('MOTIONIN_OPACITY');
    expect(screen.queryByTestId('anim-in-effect-move')).toBeNull();
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
