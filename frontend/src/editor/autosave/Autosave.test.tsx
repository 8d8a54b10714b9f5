import { act, fireEvent, screen } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { editorActions as a } from '@/editor/state/editorSlice';
import { renderEditor } from '@/test/renderApp';
import { Autosave } from './Autosave';
import { AUTOSAVE_DEBOUNCE_MS, AUTOSAVE_RETRY_MS } from './autosave';

jest.setTimeout(60_000);

const offline = () => new ApiError({ kind: 'network', url: '/redis/history/store', message: 'Network Error' });

/** The editor with its autosave, the history calls answered by `store` (an envelope, or a throw). */
function setup(store: () => unknown = () => ({ code: 2000, data: Date.now(), desc: '' })) {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
  jest.spyOn(api, 'get').mockResolvedValue({ code: 2000, data: '', desc: '' });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
    if (url === '/redis/history/store') return store();
    throw new Error(`unexpected POST ${url}`);
  });
  const editor = renderEditor(<Autosave />);
  const stores = () => post.mock.calls.filter(([u]) => u === '/redis/history/store').length;
  const change = () => act(() => void editor.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' })));
  const wait = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));
  return { stores, change, wait };
}

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('autosave', () => {
  it('sends a change once it has rested for the debounce, within debounce + 1 s', async () => {
    const { stores, change, wait } = setup();
    change();
    await wait(AUTOSAVE_DEBOUNCE_MS - 1);
    expect(stores()).toBe(0);
    await wait(1);
    expect(stores()).toBe(1);
    await wait(10_000);
    expect(stores()).toBe(1);
  });

  it('sends a change within debounce + 1 s though edits keep coming', async () => {
    const { stores, change, wait } = setup();
    // A change every 900 ms never rests for the debounce: each is still stored in time.
    change();
    for (let i = 0; i < 3; i += 1) {
      await wait(900);
      change();
    }
    expect(stores()).toBe(0);
    await wait(AUTOSAVE_DEBOUNCE_MS + 1000 - 2700);
    expect(stores()).toBe(1);
  });

  it('says 保存失败 when offline and stores again once back online', async () => {
    let online = false;
    const { stores, change, wait } = setup(() => {
      if (!online) throw offline();
      return { code: 2000, data: Date.now(), desc: '' };
    });
    change();
    await wait(AUTOSAVE_DEBOUNCE_MS);
    expect(stores()).toBe(1);
    expect(screen.getByText('保存失败，稍后将自动重试')).toBeInTheDocument();
    online = true;
    await act(async () => void fireEvent(window, new Event('online')));
    expect(stores()).toBe(2);
    expect(screen.getByText('已自动保存')).toBeInTheDocument();
    expect(screen.queryByText('保存失败，稍后将自动重试')).toBeNull();
  });

  it('tries a failed store again after a wait that grows, with the edits made since', async () => {
    let refusing = true;
    const { stores, change, wait } = setup(() => (refusing ? { code: 3000, data: null, desc: 'redis down' } : { code: 2000, data: Date.now(), desc: '' }));
    change();
    await wait(AUTOSAVE_DEBOUNCE_MS);
    expect(stores()).toBe(1);
    await wait(AUTOSAVE_RETRY_MS[0]!);
    expect(stores()).toBe(2);
    await wait(AUTOSAVE_RETRY_MS[1]! - 1);
    expect(stores()).toBe(2);
    refusing = false;
    await wait(1);
    expect(stores()).toBe(3);
    expect(screen.getByText('已自动保存')).toBeInTheDocument();
    await wait(60_000);
    expect(stores()).toBe(3);
  });
});
