import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { api } from '@/api/client';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { AppLayout } from './AppLayout';

function renderAt(path: string) {
  jest.spyOn(api, 'get').mockResolvedValue({ name: 'reelforge', version: '0.1.0', mode: 'all' });
  const router = createMemoryRouter(
    [{ path: '/', element: <AppLayout />, children: [{ index: true, element: <p>home</p> }, { path: 'diy', element: <p>editor</p> }, { path: 'editor-pro', element: <p>pro</p> }] }],
    { initialEntries: [path] },
  );
  render(
    <Providers store={makeStore()} queryClient={makeQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
}

afterEach(() => jest.restoreAllMocks());

describe('AppLayout', () => {
  it('puts the footer under ordinary pages', async () => {
    renderAt('/');
    expect(await screen.findByTestId('app-footer')).toBeInTheDocument();
    expect(document.querySelector('footer')).not.toBeNull();
  });

  it.each(['/diy', '/editor-pro'])('leaves no footer under %s, which fills the window: the page has nothing to scroll to', async (path) => {
    renderAt(path);
    await screen.findByTestId('logo');
    expect(document.querySelector('footer')).toBeNull();
  });
});
