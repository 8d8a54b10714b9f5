import { screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { renderApp } from '@/test/renderApp';
import { HANDOFF_BACK_KEY, loadHandoffBack } from './handoffBack';
import { withoutHandoffParams } from './HandoffPage';

const ANSWER = {
  token: 'jwt-h',
  userId: '13700000000',
  mobile: '13700000000',
  role: 'CREATE_VIDEO',
  operatorLevel: 6,
  tenant: 'qs',
  backUrl: 'https://corp.example/home',
};

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    throw new Error(`unexpected GET ${url}`);
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

function open(route: string) {
  window.history.replaceState(null, '', `/#${route}`);
  return renderApp(route);
}

describe('withoutHandoffParams', () => {
  it('drops handoff and back and keeps the rest', () => {
    expect(withoutHandoffParams('/corp-to-diy', '?handoff=t&back=https%3A%2F%2Fh&x=1')).toBe('/corp-to-diy?x=1');
    expect(withoutHandoffParams('/ivvr-to-diy', '?handoff=t')).toBe('/ivvr-to-diy');
  });
});

describe('HandoffPage', () => {
  it.each([
    ['/corp-to-diy', 'corp'],
    ['/trading-to-diy', 'trading'],
    ['/ivvr-to-diy', 'ivvr'],
    ['/platform-to-video-product', 'platform'],
  ])('%s scrubs the address bar, exchanges the token, stores the user and continues', async (path, kind) => {
    const post = jest.spyOn(api, 'post').mockResolvedValue(ANSWER);
    const { store, router } = open(`${path}?handoff=tok.sig&back=${encodeURIComponent('https://corp.example/home')}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/diy'));
    expect(window.location.href).not.toContain('tok.sig');
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith('/user/handoff', { handoff: 'tok.sig', kind, back: 'https://corp.example/home' }, { silent: true });
    const user = store.getState().user;
    expect([user.id, user.token, user.roleId]).toEqual(['13700000000', 'jwt-h', 6]);
    expect(loadHandoffBack()).toBe('https://corp.example/home');
    expect(await screen.findByTestId('handoff-back')).toHaveAttribute('href', 'https://corp.example/home');
  });

  it('shows a clear error with a link to /login when the server refuses the token', async () => {
    jest.spyOn(api, 'post').mockRejectedValue(
      new ApiError({ kind: 'business', url: '/user/handoff', code: 3000, desc: 'hand-off expired', message: 'x' }),
    );
    const { store } = open('/corp-to-diy?handoff=old&back=x');
    const error = await screen.findByTestId('handoff-error');
    expect(error).toHaveTextContent('接入凭证无效或已过期');
    expect(error).toHaveTextContent('hand-off expired');
    expect(screen.getByRole('link', { name: '去登录' })).toHaveAttribute('href', '/login');
    expect(window.location.href).not.toContain('handoff=old');
    expect(store.getState().user.token).toBeNull();
  });

  it('asks for a fresh link when there is no token, without calling the server', async () => {
    const post = jest.spyOn(api, 'post');
    open('/trading-to-diy');
    expect(await screen.findByTestId('handoff-error')).toHaveTextContent('链接中没有接入凭证');
    expect(post).not.toHaveBeenCalled();
  });

  it('does not keep a back address the server did not echo', async () => {
    sessionStorage.setItem(HANDOFF_BACK_KEY, 'https://old.example/');
    jest.spyOn(api, 'post').mockResolvedValue({ ...ANSWER, backUrl: '' });
    const { router } = open('/ivvr-to-diy?handoff=t&back=https%3A%2F%2Fevil.example');
    await waitFor(() => expect(router.state.location.pathname).toBe('/diy'));
    expect(loadHandoffBack()).toBeNull();
    expect(screen.queryByTestId('handoff-back')).not.toBeInTheDocument();
  });
});
