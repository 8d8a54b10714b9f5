import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { renderApp } from '@/test/renderApp';

const ANSWER = { token: 'jwt-1', userId: 'u-42', mobile: '13900000000', role: 'TEMPLATE_MANAGER', operatorLevel: 3, tenant: 'qs' };

function serveGet() {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    throw new Error(`unexpected GET ${url}`);
  });
}

function type(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

beforeEach(serveGet);
afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('LoginPage', () => {
  it('validates the mail before sending a code', async () => {
    const post = jest.spyOn(api, 'post');
    renderApp('/login');
    type('login-mail', 'not-a-mail');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByText('邮箱格式不正确')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('sends a code and counts down the resend interval the server names', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    const post = jest.spyOn(api, 'post').mockResolvedValue({ resendAfterSeconds: 60 });
    renderApp('/login');
    type('login-mail', 'a@b.cn');
    fireEvent.click(screen.getByTestId('send-code'));
    await waitFor(() => expect(screen.getByTestId('send-code')).toHaveTextContent('60 秒后重发'));
    expect(post).toHaveBeenCalledWith('/user/sendCode', { mail: 'a@b.cn' }, { silent: true });
    expect(screen.getByTestId('send-code')).toBeDisabled();
    expect(screen.getByTestId('code-sent')).toHaveTextContent('验证码已发送至 a@b.cn');
    act(() => jest.advanceTimersByTime(59_000));
    expect(screen.getByTestId('send-code')).toHaveTextContent('1 秒后重发');
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.getByTestId('send-code')).toHaveTextContent('发送验证码');
    expect(screen.getByTestId('send-code')).toBeEnabled();
  });

  it('shows a rate limit under the mail field and waits the seconds it names', async () => {
    jest.spyOn(api, 'post').mockRejectedValue(
      new ApiError({ kind: 'business', url: '/user/sendCode', code: 3000, desc: '请 42 秒后再试', message: 'x', data: { retryAfterSeconds: 42 } }),
    );
    renderApp('/login');
    type('login-mail', 'a@b.cn');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByText('请 42 秒后再试')).toBeInTheDocument();
    expect(screen.getByTestId('send-code')).toHaveTextContent('42 秒后重发');
    expect(screen.queryByTestId('code-sent')).not.toBeInTheDocument();
  });

  it('requires a six-digit code', async () => {
    const post = jest.spyOn(api, 'post');
    renderApp('/login');
    type('login-mail', 'a@b.cn');
    type('login-code', '12a45');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('验证码为 6 位数字')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('shows a wrong code under the code field and stays signed out', async () => {
    jest.spyOn(api, 'post').mockRejectedValue(
      new ApiError({ kind: 'business', url: '/user/login', code: 3000, desc: '验证码错误或已过期', message: 'x' }),
    );
    const { store, router } = renderApp('/login');
    type('login-mail', 'a@b.cn');
    type('login-code', '123456');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('验证码错误或已过期')).toBeInTheDocument();
    expect(store.getState().user.token).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('stores the user and goes to the redirect target', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue(ANSWER);
    const { store, router } = renderApp('/login?redirect=%2Fmy-works');
    type('login-mail', ' a@b.cn ');
    type('login-code', '123456');
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-works'));
    expect(post).toHaveBeenCalledWith('/user/login', { mail: 'a@b.cn', code: '123456' }, { silent: true });
    const user = store.getState().user;
    expect([user.id, user.token, user.role, user.roleId, user.mobile]).toEqual(['u-42', 'jwt-1', 'TEMPLATE_MANAGER', 3, '13900000000']);
  });

  it('goes home after login when the redirect leaves the app', async () => {
    jest.spyOn(api, 'post').mockResolvedValue(ANSWER);
    const { router } = renderApp('/login?redirect=%2F%2Fevil.example%2Fx');
    type('login-mail', 'a@b.cn');
    type('login-code', '123456');
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('speaks English with English antd texts', async () => {
    const { applyLanguage } = await import('@/app/i18n');
    await act(() => applyLanguage('en-US'));
    try {
      renderApp('/login');
      expect(screen.getByTestId('send-code')).toHaveTextContent('Send code');
      fireEvent.click(screen.getByTestId('login-submit'));
      expect(await screen.findByText('Enter your mail address')).toBeInTheDocument();
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
  });
});

describe('root login modal', () => {
  it('opens on the root after a guard and continues to the guarded page after sign-in', async () => {
    jest.spyOn(api, 'post').mockResolvedValue(ANSWER);
    const { router } = renderApp('/?login=1&redirect=%2Fmy-works');
    const modal = await screen.findByTestId('login-modal');
    expect(modal).toHaveTextContent('登录过期,请重新登录！');
    type('login-mail', 'a@b.cn');
    type('login-code', '123456');
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-works'));
  });

  it('stays closed on a plain visit to the root', async () => {
    renderApp('/');
    await screen.findByTestId('home');
    expect(screen.queryByTestId('login-modal')).not.toBeInTheDocument();
  });
});
