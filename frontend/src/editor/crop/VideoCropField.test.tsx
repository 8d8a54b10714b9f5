import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import { PropertyPanel } from '@/editor/page/PropertyPanel';
import { editorActions as a } from '@/editor/state/editorSlice';
import { material } from '@/test/materials';
import { SIGNED_IN } from '@/test/renderApp';

jest.setTimeout(30_000);
afterEach(() => jest.restoreAllMocks());

/** The panel of a 4 s 320×180 video of the library, its cut 0.5–1.5 s, selected. */
function renderVideo(changes: Record<string, unknown> = {}) {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  store.dispatch(a.newDocument({ usedFor: 'ALL' }));
  store.dispatch(a.addLayer({ kind: 'video', src: '/diyvrbt/material/file/m1/original', materialId: 'm1', duration: 4 }));
  store.dispatch(a.select({ ids: [1] }));
  store.dispatch(a.updateLayer({ id: 1, changes: { cutInfo: { start: 0.5, end: 1.5 }, x: 0, y: 0, w: 320, h: 180, ...changes } }));
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

/** Opens the crop dialog on a frame the browser plays at `w`×`h`, and answers its video. */
async function openDialog(w: number, h: number) {
  await waitFor(() => expect(screen.getByTestId('video-crop')).toBeEnabled());
  fireEvent.click(screen.getByTestId('video-crop'));
  const video = await screen.findByTestId('crop-video');
  Object.defineProperty(video, 'videoWidth', { value: w });
  Object.defineProperty(video, 'videoHeight', { value: h });
  fireEvent.loadedMetadata(video);
  await screen.findByTestId('crop-box');
  return video as HTMLVideoElement;
}

describe('the video crop', () => {
  it('sends the box in the video\'s pixels, even, follows the run and swaps the layer\'s video, keeping its cut', async () => {
    const runs = [{ status: 1, percent: 50 }, { status: 10, percent: 100 }];
    const asked: unknown[] = [];
    jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4, width: 640, height: 360 });
      if (url === '/material/info/m4') return material('m4', { type: 'video', duration: 4, width: 640, height: 360 });
      if (url === '/material/cropVideo') {
        asked.push(body);
        return { taskId: 12, jobId: 'j' };
      }
      if (url === '/toolbox/use') return { materialId: 'm4' };
      throw new Error(`unexpected ${url}`);
    });
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/toolbox/run/12') return { id: 12, reason: '', stage: '', outputs: [], ...(runs.length > 1 ? runs.shift() : runs[0]) };
      throw new Error(`unexpected ${url}`);
    });
    const store = renderVideo();
    // Played at half the video's size: the box the layer shows (all of it, same ratio) doubled.
    const video = await openDialog(320, 180);
    expect(video.currentTime).toBe(0.5);
    fireEvent.click(document.getElementById('crop-apply')!);
    await waitFor(() => expect(layer(store).materialId).toBe('m4'), { timeout: 5000 });
    expect(asked).toEqual([{ materialId: 'm1', x: 0, y: 0, width: 640, height: 360 }]);
    expect(layer(store).videoSrc).toBe('/diyvrbt/material/file/m4/original?ticket=t');
    expect(layer(store).cutInfo).toEqual({ start: 0.5, end: 1.5 });
  });

  it('shows the server\'s refusal in the dialog, nothing swapped', async () => {
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4, width: 320, height: 180 });
      if (url === '/material/cropVideo') throw new ApiError({ kind: 'business', url: '/material/cropVideo', message: 'refused', code: 3000, desc: 'width: x + width (330) is past the picture\'s width (320)' });
      throw new Error(`unexpected ${url}`);
    });
    const store = renderVideo();
    await openDialog(320, 180);
    fireEvent.click(document.getElementById('crop-apply')!);
    expect(await screen.findByTestId('crop-error')).toHaveTextContent('past the picture\'s width (320)');
    expect(layer(store).materialId).toBe('m1');
  });

  it('crops a video stored on its side in the pixels the browser shows', async () => {
    const asked: unknown[] = [];
    jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      // The library's size is the upright one (a phone's 640×360 stored on its side).
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 4, width: 360, height: 640, rotation: 90 });
      if (url === '/material/cropVideo') {
        asked.push(body);
        return { taskId: 13, jobId: 'j' };
      }
      throw new Error(`unexpected ${url}`);
    });
    jest.spyOn(api, 'get').mockImplementation(async () => new Promise(() => {}));
    renderVideo({ w: 180, h: 320 });
    expect(screen.queryByTestId('video-crop-hint')).toBeNull();
    await openDialog(180, 320);
    fireEvent.click(document.getElementById('crop-apply')!);
    await waitFor(() => expect(asked).toEqual([{ materialId: 'm1', x: 0, y: 0, width: 360, height: 640 }]));
  });

  it('says why a reversed file has no crop', async () => {
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url.startsWith('/material/info/')) return material(url.slice('/material/info/'.length), { type: 'video', duration: 4 });
      throw new Error(`unexpected ${url}`);
    });
    renderVideo({ reverseBy: { materialId: 'm0', videoSrc: '/diyvrbt/material/file/m0/original' } });
    expect(await screen.findByTestId('video-crop-hint')).toHaveTextContent('倒放');
    expect(screen.getByTestId('video-crop')).toBeDisabled();
  });
});
