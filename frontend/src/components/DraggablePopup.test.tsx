import { act, fireEvent, render, screen } from '@testing-library/react';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { DraggablePopup, windowBounds } from './DraggablePopup';

jest.setTimeout(60_000);

/** A 300×300 dialog at (350, 100) in a 1000×800 window. */
const BOX = { left: 350, top: 100, right: 650, bottom: 400, width: 300, height: 300, x: 350, y: 100 } as DOMRect;

function renderPopup() {
  render(
    <Providers store={makeStore()} queryClient={makeQueryClient()}>
      <DraggablePopup open title="背景" footer={null}>
        <button type="button">inside</button>
      </DraggablePopup>
    </Providers>,
  );
}

/** The element react-draggable moves: the wrapper around antd's dialog. */
const moved = () => screen.getByTestId('popup-handle').closest('.react-draggable') as HTMLElement;

/** Drags from `from` by (dx, dy), one act per event as a browser gives each its own task. */
function drag(from: HTMLElement, dx: number, dy: number) {
  act(() => void fireEvent.mouseDown(from, { clientX: 500, clientY: 120, button: 0 }));
  act(() => void fireEvent.mouseMove(document, { clientX: 500 + dx, clientY: 120 + dy }));
  act(() => void fireEvent.mouseUp(document, { clientX: 500 + dx, clientY: 120 + dy }));
}

describe('the draggable popup', () => {
  beforeEach(() => {
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(BOX);
    Object.defineProperty(document.documentElement, 'clientWidth', { value: 1000, configurable: true });
    Object.defineProperty(document.documentElement, 'clientHeight', { value: 800, configurable: true });
  });
  afterEach(() => jest.restoreAllMocks());

  it('keeps the box inside the window, counting the offset it already has', () => {
    expect(windowBounds(BOX, { x: 0, y: 0 }, { width: 1000, height: 800 })).toEqual({ left: -350, right: 350, top: -100, bottom: 400 });
    // Already moved 50 right: the box is where it is, the offsets shift with it.
    expect(windowBounds(BOX, { x: 50, y: 0 }, { width: 1000, height: 800 })).toEqual({ left: -300, right: 400, top: -100, bottom: 400 });
  });

  it('moves when its title bar is dragged', async () => {
    renderPopup();
    await screen.findByText('背景');
    drag(screen.getByTestId('popup-handle'), 100, 50);
    expect(moved().style.transform).toBe('translate(100px,50px)');
  });

  it('stops at the window edge', async () => {
    renderPopup();
    await screen.findByText('背景');
    drag(screen.getByTestId('popup-handle'), 2000, -2000);
    expect(moved().style.transform).toBe('translate(350px,-100px)');
  });

  it('does not move when its body is dragged', async () => {
    renderPopup();
    drag(screen.getByText('inside'), 100, 50);
    expect(moved().style.transform).toBe('translate(0px,0px)');
  });
});
