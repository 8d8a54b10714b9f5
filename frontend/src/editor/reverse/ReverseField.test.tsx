import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import { PropertyPanel } from '@/editor/page/PropertyPanel';
import { editorActions as a } from '@/editor/state/editorSlice';
import { material } from '@/test/materials';
import { SIGNED_IN } from '@/test/renderApp';

jest.setTimeout(30_000);
afterEach(() => jest.restoreAllMocks());

/** The panel of a 4 s video of the library, its cut 0.5–1.5 s, selected. */
function renderVideo() {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  store.dispatch(a.newDocument({ usedFor: 'ALL' }));
  store.dispatch(a.addLayer({ kind: 'video', src: '/diyvrbt/material/file/m1/original', materialId: 'm1', duration: 4 }));
  store.dispatch(a.select({ ids: [1] }));
  store.dispatch(a.updateLayer({ id: 1, changes: { cutInfo: { start: 0.5, end: 1.5 } } }));
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <Providers store={store} queryClient={queryClient}>
      <PropertyPanel />
    </Providers>,
  );
  return store;
}

const layer = (store: ReturnType<typeof makeStore>) => store.getState().editor.doc.scenes[0]!.layers[0] as Record<string, unknown>;

describe('the video panel reverse', () => {
  it('asks the server for the reverse, shows its progress, swaps the video for the reversed file and puts the original back', async () => {
    const states = [
      { uuid: '', taskId: 0, state: 'none', percent: 0, reason: '' },
      { uuid: '', taskId: 7, state: 'running', percent: 40, reason: '' },
      { uuid: 'm2', taskId: 7, state: 'done', percent: 100, reason: '' },
    ];
    const asked: string[] = [];
    jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      asked.push(url);
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4, url: '/diyvrbt/material/file/m1/original' });
      if (url === '/material/info/m2') return material('m2', { type: 'video', duration: 4, url: '/diyvrbt/material/file/m2/original' });
      if (url === '/material/v2/reverVideo') {
        expect(body).toEqual({ uuid: 'm1', isFile: true });
        return { taskId: 7, jobId: 'j' };
      }
      if (url === '/material/v2/reverToUuid') return states.length > 1 ? states.shift() : states[0];
      throw new Error(`unexpected ${url}`);
    });
    const store = renderVideo();
    fireEvent.click(screen.getByLabelText('倒放'));
    await waitFor(() => expect(screen.getByTestId('reverse-progress')).toBeInTheDocument());
    await waitFor(() => expect(layer(store).videoSrc).toBe('/diyvrbt/material/file/m2/original'), { timeout: 5000 });
    // The reversed file plays forwards: the renderer's rule (reverseBy an object) never reverses it again.
    expect(layer(store)).toMatchObject({ materialId: 'm2', reverseBy: { materialId: 'm1', videoSrc: '/diyvrbt/material/file/m1/original' }, cutInfo: { start: 2.5, end: 3.5 } });
    expect(asked.filter((u) => u === '/material/v2/reverVideo')).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText('倒放')).toBeChecked());
    expect(screen.queryByTestId('reverse-progress')).toBeNull();

    fireEvent.click(screen.getByLabelText('倒放'));
    await waitFor(() => expect(layer(store).videoSrc).toBe('/diyvrbt/material/file/m1/original'));
    expect(layer(store)).toMatchObject({ materialId: 'm1', reverseBy: null, cutInfo: { start: 0.5, end: 1.5 } });
    await waitFor(() => expect(screen.getByLabelText('倒放')).not.toBeChecked());
  });

  it('says why when the reverse fails, and leaves the layer as it was', async () => {
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4 });
      if (url === '/material/v2/reverToUuid') return { uuid: '', taskId: 7, state: 'error', percent: 0, reason: 'the encoder failed' };
      if (url === '/material/v2/reverVideo') return { taskId: 8, jobId: 'j' };
      throw new Error(`unexpected ${url}`);
    });
    const store = renderVideo();
    fireEvent.click(screen.getByLabelText('倒放'));
    await waitFor(() => expect(screen.getByTestId('reverse-failed')).toHaveTextContent('倒放没有完成：the encoder failed'));
    expect(layer(store)).toMatchObject({ materialId: 'm1', videoSrc: '/diyvrbt/material/file/m1/original' });
    expect(layer(store).reverseBy).toBeUndefined();
  });

  it("turns off a document's reverse on export, which the stage cannot show", async () => {
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4 });
      throw new Error(`unexpected ${url}`);
    });
    const store = renderVideo();
    store.dispatch(a.updateLayer({ id: 1, changes: { reverseBy: 1 } }));
    await waitFor(() => expect(screen.getByTestId('reverse-on-export')).toBeInTheDocument());
    fireEvent.click(screen.getByLabelText('倒放'));
    await waitFor(() => expect(layer(store).reverseBy).toBeNull());
  });
});

describe('the video cut saved as a new material', () => {
  it('queues the clip of the cut in ms, follows the run and makes its output a material', async () => {
    const runs = [{ status: 1, percent: 30 }, { status: 10, percent: 100 }];
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4 });
      if (url === '/material/videoClip') {
        expect(body).toEqual({ materialId: 'm1', startTime: 500, endTime: 1500 });
        return { taskId: 9, jobId: 'j' };
      }
      if (url === '/toolbox/use') return { materialId: 'm3' };
      throw new Error(`unexpected ${url}`);
    });
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/toolbox/run/9') return { id: 9, reason: '', stage: '', outputs: [], ...(runs.length > 1 ? runs.shift() : runs[0]) };
      throw new Error(`unexpected ${url}`);
    });
    renderVideo();
    fireEvent.click(screen.getByTestId('save-clip'));
    await waitFor(() => expect(screen.getByTestId('save-clip-done')).toHaveTextContent('已存为新素材'), { timeout: 5000 });
    expect(post).toHaveBeenCalledWith('/toolbox/use', { taskId: 9, index: 0 });
  });
});
