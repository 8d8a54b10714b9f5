import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { makeQueryClient, Providers } from '@/app/providers';
import { routes } from '@/app/routes';
import { makeStore } from '@/app/store';
import { initialUserState, type UserState } from '@/auth/userSlice';

/** Renders the real route table at `path` with a fresh store and query client. */
export function renderApp(path: string, user: Partial<UserState> = {}) {
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
