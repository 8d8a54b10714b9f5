import { render, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { MAX_SCENES } from '@/editor/state/defaults';
import { useSceneLimit } from './useSceneLimit';

afterEach(() => jest.restoreAllMocks());

function Probe() {
  useSceneLimit();
  return null;
}

function renderWith(info: Record<string, unknown>) {
  jest.spyOn(api, 'get').mockResolvedValue(info);
  const store = makeStore();
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <Providers store={store} queryClient={queryClient}>
      <Probe />
    </Providers>,
  );
  return store;
}

describe('the scene limit from the server', () => {
  it('takes the sceneLimit of /system/info', async () => {
    const store = renderWith({ name: 'reelforge', version: '0.1.0', mode: 'all', sceneLimit: 45 });
    await waitFor(() => expect(store.getState().editor.maxScenes).toBe(45));
    expect(api.get).toHaveBeenCalledWith('/system/info', undefined, { silent: true });
  });

  it('keeps 48 when the server does not say', async () => {
    const store = renderWith({ name: 'reelforge', version: '0.1.0', mode: 'all' });
    await waitFor(() => expect(api.get).toHaveBeenCalled());
    expect(store.getState().editor.maxScenes).toBe(MAX_SCENES);
  });
});
