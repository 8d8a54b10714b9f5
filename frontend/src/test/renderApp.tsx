import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type InitialEntry } from 'react-router';
import { makeQueryClient, Providers } from '@/app/providers';
import { routes } from '@/app/routes';
import { makeStore } from '@/app/store';
import { initialUserState, type UserState } from '@/auth/userSlice';
import type { Layer } from '@/editor/model/gen/Layer';
import { editorActions } from '@/editor/state/editorSlice';

/** Renders the real route table at `path` (an address, or one with router state) with a fresh store and query client. */
export function renderApp(path: InitialEntry, user: Partial<UserState> = {}) {
  const store = makeStore({ user: { ...initialUserState, ...user } });
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers store={store} queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, store, queryClient };
}

export const SIGNED_IN: Partial<UserState> = { id: '13800000000', token: 'tok', mobile: '13800000000', role: 'CREATE_VIDEO', roleId: 0 };
export const MANAGER: Partial<UserState> = { ...SIGNED_IN, role: 'TEMPLATE_MANAGER', roleId: 3 };

/**
 * Renders a part of the editor with a fresh store holding a new document of `usedFor`, signed in
 * (`prepare` may change the store before the first render); returns the store.
 */
export function renderEditor(ui: React.ReactNode, { usedFor = 'ALL', prepare }: { usedFor?: string; prepare?: (store: ReturnType<typeof makeStore>) => void } = {}) {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  store.dispatch(editorActions.newDocument({ usedFor }));
  prepare?.(store);
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <Providers store={store} queryClient={queryClient}>
      {ui}
    </Providers>,
  );
  return store;
}

/** The first scene's layers of an editor store. */
export function firstSceneLayers(store: ReturnType<typeof makeStore>): Layer[] {
  return store.getState().editor.doc.scenes[0]!.layers;
}
