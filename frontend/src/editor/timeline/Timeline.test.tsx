import { act, fireEvent, screen, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Material } from '@/api/material';
import { applyLanguage } from '@/app/i18n';
import { musicItem } from '@/editor/audio/audioCommands';
import { PlaybackClock } from '@/editor/playback/clock';
import { ClockContext } from '@/editor/playback/usePlayback';
import { editorActions as a } from '@/editor/state/editorSlice';
import { renderEditor } from '@/test/renderApp';
import { Timeline } from './Timeline';

jest.setTimeout(60_000);

function setup() {
  const clock = new PlaybackClock({ now: () => 0, frame: () => 0, cancel: () => undefined });
  const store = renderEditor(
    <ClockContext.Provider value={clock}>
      <Timeline />
    </ClockContext.Provider>,
    {
      prepare: (s) => {
        s.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
        s.dispatch(a.addScene());
        s.dispatch(a.selectScene(1));
      },
    },
  );
  return { store, clock };
}

describe('the timeline', () => {
  it('draws the scenes on the axis and the current scene layer bars at 100 px a second', () => {
    const { store } = setup();
    const id = store.getState().editor.doc.scenes[0]!.layers[0]!.id;
    expect(screen.getByTestId('scene-block-0').style.width).toBe('300px');
    expect(screen.getByTestId('scene-block-1').style.left).toBe('300px');
    expect(screen.getByTestId(`layer-bar-${String(id)}`).style.width).toBe('300px');
    expect(screen.getByTestId('current-time')).toHaveTextContent('00:00.0 / 00:06.0');
  });

  it('zooms through the levels with its buttons', () => {
    setup();
    expect(screen.getByTestId('timeline-ruler').dataset.level).toBe('4');
    fireEvent.click(screen.getByTestId('timeline-zoom-in'));
    expect(screen.getByTestId('timeline-ruler').dataset.level).toBe('5');
    expect(screen.getByTestId('scene-block-0').style.width).toBe('600px');
    for (let i = 0; i < 9; i += 1) fireEvent.click(screen.getByTestId('timeline-zoom-out'));
    expect(screen.getByTestId('timeline-ruler').dataset.level).toBe('0');
    expect(screen.getByTestId('timeline-zoom-out')).toBeDisabled();
  });

  it('shows the scene under the playhead, and brings the playhead to a chosen scene', () => {
    const { store, clock } = setup();
    act(() => clock.seek(4));
    expect(store.getState().editor.sceneId).toBe(2);
    fireEvent.click(screen.getByTestId('scene-block-0'));
    expect(store.getState().editor.sceneId).toBe(1);
    expect(clock.get().time).toBe(0);
  });

  it('plays and pauses with space, not while typing', () => {
    const { clock } = setup();
    fireEvent.keyDown(window, { key: ' ' });
    expect(clock.get().playing).toBe(true);
    fireEvent.keyDown(window, { key: ' ' });
    expect(clock.get().playing).toBe(false);
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const caret = document.createElement('span');
    editable.append(caret);
    const fields = [document.createElement('input'), document.createElement('textarea'), editable];
    document.body.append(...fields);
    for (const target of [fields[0]!, fields[1]!, caret]) fireEvent.keyDown(target, { key: ' ' });
    expect(clock.get().playing).toBe(false);
    for (const field of fields) field.remove();
  });

  it('drops a dragged bar where the pointer went up, though the page had not drawn the last move', () => {
    // jsdom has no PointerEvent: a MouseEvent with the two fields dnd-kit's sensor reads.
    class TestPointerEvent extends MouseEvent {
      readonly isPrimary: boolean;
      readonly pointerId: number;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.isPrimary = init.isPrimary ?? false;
        this.pointerId = init.pointerId ?? 0;
      }
    }
    const hadPointerEvent = 'PointerEvent' in window;
    if (!hadPointerEvent) Object.defineProperty(window, 'PointerEvent', { value: TestPointerEvent, configurable: true });
    // dnd-kit keeps a click-swallowing listener on the document for a moment after a drop: fake
    // timers let the test run that moment out, so the next test's clicks are not swallowed.
    jest.useFakeTimers();
    try {
      const { store } = setup();
      const id = String(store.getState().editor.doc.scenes[0]!.layers[0]!.id);
      const bar = screen.getByTestId(`bar-${id}`);
      const at = (x: number) => ({ clientX: x, clientY: 10, isPrimary: true, button: 0, pointerId: 1 });
      act(() => void fireEvent.pointerDown(bar, at(10)));
      for (const x of [20, 50, 100]) act(() => void fireEvent.pointerMove(document, at(x)));
      expect(store.getState().editor.doc.scenes[0]!.layers[0]!.startTime).toBe(0.9);
      // The last move and the button's release come before the page draws again.
      act(() => {
        fireEvent.pointerMove(document, at(110));
        fireEvent.pointerUp(document, at(110));
      });
      const layer = store.getState().editor.doc.scenes[0]!.layers[0]!;
      expect([layer.startTime, layer.endTime]).toEqual([1, 4]);
    } finally {
      act(() => void jest.runOnlyPendingTimers());
      jest.useRealTimers();
      if (!hadPointerEvent) Reflect.deleteProperty(window, 'PointerEvent');
    }
  });

  it("shades the part of a clip's bar past its out point, where the last frame holds", () => {
    const { store } = setup();
    act(() => {
      store.dispatch(a.addLayer({ kind: 'video', src: '/v.mp4', duration: 1.7 }));
    });
    const clip = store.getState().editor.doc.scenes[0]!.layers[1]!;
    expect(clip).toMatchObject({ startTime: 0, endTime: 3 });
    const held = screen.getByTestId(`held-${String(clip.id)}`);
    expect(held.style.width).toBe('130px');
    expect(held).toHaveAttribute('title', '停留在最后一帧 1.3 秒');
  });

  it('reads whole in English: the zoom says how far apart its labels are, and an empty scene says so on the axis, not in the narrow name column', async () => {
    await applyLanguage('en-US');
    try {
      const clock = new PlaybackClock({ now: () => 0, frame: () => 0, cancel: () => undefined });
      renderEditor(
        <ClockContext.Provider value={clock}>
          <Timeline />
        </ClockContext.Provider>,
      );
      expect(screen.getByTestId('timeline-scale')).toHaveTextContent('Every 1 s');
      const empty = screen.getByTestId('timeline-no-layers');
      expect(empty).toHaveTextContent('No layers in this scene yet');
      expect(empty.style.whiteSpace).toBe('nowrap');
      expect(empty.style.left).toBe('8px');
    } finally {
      await applyLanguage('zh-CN');
    }
  });

  it('names the starter library\'s music in the page\'s language on its row as on its bar', async () => {
    jest.spyOn(api, 'get').mockResolvedValue({ id: 'm1', waveformUrl: '' });
    jest.spyOn(api, 'post').mockResolvedValue({ id: 'm1', waveformUrl: '' });
    await applyLanguage('en-US');
    try {
      const clock = new PlaybackClock({ now: () => 0, frame: () => 0, cancel: () => undefined });
      renderEditor(
        <ClockContext.Provider value={clock}>
          <Timeline />
        </ClockContext.Provider>,
        { prepare: (s) => void s.dispatch(a.addAudio(musicItem({ id: 'm1', materialName: '晨光', type: 'audio', duration: 20, url: '/diyvrbt/material/file/m1/original' } as Material, 3))) },
      );
      const row = screen.getByTestId('music-track-0');
      expect(within(row).getByTestId('music-bar')).toHaveTextContent('Morning Light');
      expect(row).toHaveTextContent('♪ Morning Light');
      expect(row).not.toHaveTextContent('晨光');
      // The bar's material lookup answers.
      await act(async () => undefined);
    } finally {
      await act(() => applyLanguage('zh-CN'));
      jest.restoreAllMocks();
    }
  });

  it('keeps the scene strip as its second tab', () => {
    setup();
    fireEvent.click(screen.getByTestId('bottom-tab-scenes'));
    expect(screen.getByTestId('scene-strip')).toBeInTheDocument();
    expect(screen.queryByTestId('timeline-ruler')).toBeNull();
  });
});
