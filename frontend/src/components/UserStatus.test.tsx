import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { setCurrentVariant } from '@/app/variant';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';

const CREATOR = { ...SIGNED_IN, id: 'u-7', roleId: 7, role: 'CREATE_VIDEO' as const };
const ADMIN = { ...SIGNED_IN, id: 'u-1', roleId: 0, role: 'CREATE_VIDEO' as const };

beforeEach(() => {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    throw new Error(`unexpected GET ${url}`);
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  setCurrentVariant(null);
});

async function openMenu() {
  fireEvent.click(screen.getByTestId('user-status'));
  return screen.findByTestId('menu-logout');
}

describe('UserStatus', () => {
  it('offers sign-in when signed out, coming back to the page', async () => {
    const { router } = renderApp('/template-select');
    const link = await screen.findByTestId('user-status');
    expect(link).toHaveTextContent('登录');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Ftemplate-select');
  });

  it('shows the user id and role; the users page only for administrators', async () => {
    renderApp('/', CREATOR);
    expect(screen.getByTestId('user-id')).toHaveTextContent('u-7');
    expect(screen.getByTestId('user-role')).toHaveTextContent('普通创作者');
    await openMenu();
    expect(screen.queryByTestId('menu-users')).not.toBeInTheDocument();
  });

  it('links everyone to their templates; the template check only for template managers', async () => {
    renderApp('/', CREATOR);
    await openMenu();
    expect(screen.getByTestId('menu-templates')).toHaveAttribute('href', '/mytemring');
    expect(screen.getByTestId('menu-provider')).toHaveAttribute('href', '/qs/service/emplacement');
    expect(screen.queryByTestId('menu-check')).not.toBeInTheDocument();
    expect(screen.queryByTestId('menu-check-service')).not.toBeInTheDocument();
    expect(screen.queryByTestId('menu-topic-center')).not.toBeInTheDocument();
  });

  it('links template managers to the template check and the topic, case and industry centres', async () => {
    renderApp('/', MANAGER);
    await openMenu();
    expect(screen.getByTestId('menu-check')).toHaveAttribute('href', '/manage/check-template/pending');
    expect(screen.getByTestId('menu-topic-center')).toHaveAttribute('href', '/manage/topic-center');
    expect(screen.getByTestId('menu-case-center')).toHaveAttribute('href', '/manage/case-center');
    expect(screen.getByTestId('menu-industry-center')).toHaveAttribute('href', '/manage/industry-center');
    expect(screen.getByTestId('menu-check-service')).toHaveAttribute('href', '/manage/check-service');
  });

  it('names administrators as such, not by the role their level maps to, and links them to the users page', async () => {
    renderApp('/', ADMIN);
    expect(screen.getByTestId('user-role')).toHaveTextContent('管理员');
    await openMenu();
    expect(screen.getByTestId('menu-users')).toHaveAttribute('href', '/eb-maintain/users');
  });

  it('logs out: POST /user/logout, clears the store and goes to the root', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue(null);
    const { store, router } = renderApp('/workbench', CREATOR);
    fireEvent.click(await openMenu());
    await waitFor(() => expect(store.getState().user.token).toBeNull());
    expect(post).toHaveBeenCalledWith('/user/logout', undefined, { silent: true, quietExpiry: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByTestId('user-status')).toHaveTextContent('登录');
  });

  it('clears the store even when the logout call fails', async () => {
    jest.spyOn(api, 'post').mockRejectedValue(new ApiError({ kind: 'network', url: '/user/logout', message: 'down' }));
    const { store, router } = renderApp('/workbench', CREATOR);
    fireEvent.click(await openMenu());
    await waitFor(() => expect(store.getState().user.id).toBeNull());
    expect(store.getState().user.role).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('variant header', () => {
  it.each([
    ['qs', 'Reelforge 视频工坊'],
    ['cc', 'Reelforge · 彩铃创作'],
    ['migu', 'Reelforge · 咪咕视频彩铃'],
    ['cu', 'Reelforge · 联通视频彩铃'],
  ] as const)('%s has its own title', (variant, title) => {
    setCurrentVariant(variant);
    renderApp('/');
    expect(screen.getByTestId('logo')).toHaveTextContent(title);
  });
});
