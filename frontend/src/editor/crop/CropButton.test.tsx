import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
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

const layer = (store: ReturnType<typeof makeStore>) => store.getState().editor.doc.scenes[0]!.layers[0] as Record<string, unknown>;

describe('the picture crop', () => {
  it('has the server cut the box in the picture\'s upright pixels (EXIF-turned, shown as a preview) and shows the new picture', async () => {
    const asked: unknown[] = [];
    jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      // Stored 480×320 on its side (EXIF orientation 6), its probe not turning it.
      if (url === '/material/info/p1') return material('p1', { width: 480, height: 320 });
      if (url === '/material/croppicture') {
        asked.push(body);
        return { materialId: 'p2', width: 320, height: 240 };
      }
      if (url === '/material/info/p2') return material('p2', { width: 320, height: 240 });
      throw new Error(`unexpected ${url}`);
    });
    const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
    store.dispatch(a.newDocument({ usedFor: 'ALL' }));
    store.dispatch(a.addLayer({ kind: 'picture', src: '/p1.jpg', materialId: 'p1' }));
    store.dispatch(a.select({ ids: [1] }));
    // The layer's box: the lower half of the upright picture's ratio (4:3 of a 2:3 picture).
    store.dispatch(a.updateLayer({ id: 1, changes: { x: 0, y: 0, w: 400, h: 300 } }));
    const queryClient = makeQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false } });
    render(
      <Providers store={store} queryClient={queryClient}>
        <App>
          <PropertyPanel />
        </App>
      </Providers>,
    );
    fireEvent.click(await screen.findByTestId('crop-button'));
    const img = (await screen.findByTestId('crop-modal')).querySelector('img')!;
    // The browser shows it upright, as a preview a quarter of its size: 80×120.
    Object.defineProperty(img, 'naturalWidth', { value: 80 });
    Object.defineProperty(img, 'naturalHeight', { value: 120 });
    fireEvent.load(img);
    expect((await screen.findByTestId('crop-box')).getAttribute('data-crop')).toBe('0,30,80,60');
    fireEvent.click(document.getElementById('crop-apply')!);
    await waitFor(() => expect(layer(store).materialId).toBe('p2'), { timeout: 5000 });
    expect(asked).toEqual([{ materialId: 'p1', x: 0, y: 120, width: 320, height: 240 }]);
    expect(layer(store)).toMatchObject({ src: '/diyvrbt/material/file/p2/original?ticket=t', w: 400, h: 300 });
  });
});
