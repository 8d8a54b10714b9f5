import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { applyLanguage } from '@/app/i18n';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { EmptyState } from './EmptyState';

jest.setTimeout(60_000);

function renderEmpty(createPath?: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <EmptyState createPath={createPath} /> },
      { path: '/diy', element: <p>editor</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <Providers store={makeStore()} queryClient={makeQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

describe('the empty state', () => {
  afterEach(() => act(() => applyLanguage('zh-CN')));

  it("says 'nothing yet, go create' with the variant's picture", () => {
    renderEmpty();
    const empty = screen.getByTestId('empty-state');
    expect(empty).toHaveTextContent('这里还没有内容，去创作吧');
    expect(empty.querySelector('img')).not.toBeNull();
  });

  it('leads to where to create when it knows', async () => {
    const router = renderEmpty('/diy');
    fireEvent.click(screen.getByRole('button', { name: /去创作/ }));
    expect(await screen.findByText('editor')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/diy');
  });

  it('has no create button where nothing can be created from the list', () => {
    renderEmpty();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('reads in the page language', async () => {
    await act(() => applyLanguage('en-US'));
    renderEmpty('/diy');
    expect(screen.getByTestId('empty-state')).toHaveTextContent('Nothing here yet — go and create');
    expect(screen.getByRole('button', { name: 'Create' })).toBeInTheDocument();
  });
});
