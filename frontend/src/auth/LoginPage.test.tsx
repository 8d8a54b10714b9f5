import { createHash } from 'node:crypto';
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

  it('words a rate limit in the page language and counts down the wait the server gave on the button alike', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    jest.spyOn(api, 'post').mockRejectedValue(
      new ApiError({
        kind: 'business',
        url: '/user/sendCode',
        code: 3000,
        desc: 'too many requests from this address; 请 2915 秒后再试',
        message: 'x',
        data: { reason: 'rate_limited', retryAfterSeconds: 42 },
      }),
    );
    renderApp('/login');
    type('login-mail', 'a@b.cn');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByText('请求过于频繁，请 42 秒后再试')).toBeInTheDocument();
    expect(screen.getByTestId('send-code')).toHaveTextContent('42 秒后重发');
    expect(screen.queryByText(/2915/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('code-sent')).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(2_000));
    expect(await screen.findByText('请求过于频繁，请 40 秒后再试')).toBeInTheDocument();
    expect(screen.getByTestId('send-code')).toHaveTextContent('40 秒后重发');
    act(() => jest.advanceTimersByTime(40_000));
    await waitFor(() => expect(screen.queryByText(/请求过于频繁/)).not.toBeInTheDocument());
    expect(screen.getByTestId('send-code')).toBeEnabled();
  });

  it('words a rate limit in English on an English page', async () => {
    const { applyLanguage } = await import('@/app/i18n');
    await act(() => applyLanguage('en-US'));
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      jest.spyOn(api, 'post').mockRejectedValue(
        new ApiError({ kind: 'business', url: '/user/sendCode', code: 3000, desc: '请 7 秒后再试', message: 'x', data: { reason: 'rate_limited', retryAfterSeconds: 7 } }),
      );
      renderApp('/login');
      type('login-mail', 'a@b.cn');
      fireEvent.click(screen.getByTestId('send-code'));
      expect(await screen.findByText('Too many requests. Try again in 7 s')).toBeInTheDocument();
      expect(screen.getByTestId('send-code')).toHaveTextContent('Resend in 7 s');
    } finally {
      jest.useRealTimers();
      await act(() => applyLanguage('zh-CN'));
    }
  });

  it('solves the challenge of a busy shared address and asks for the code again', async () => {
    const challenge = { token: 'c1.8.1790000000.nonce.mac', bits: 8 };
    const post = jest
      .spyOn(api, 'post')
      .mockRejectedValueOnce(
        new ApiError({ kind: 'business', url: '/user/sendCode', code: 3000, desc: 'solve the challenge', message: 'x', data: { reason: 'challenge_required', challenge } }),
      )
      .mockResolvedValueOnce({ resendAfterSeconds: 60 });
    renderApp('/login');
    type('login-mail', 'a@b.cn');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByTestId('code-sent')).toHaveTextContent('验证码已发送至 a@b.cn');
    expect(screen.getByTestId('send-code')).toHaveTextContent('60 秒后重发');
    expect(post).toHaveBeenCalledTimes(2);
    const [url, body] = post.mock.calls[1] as [string, { mail: string; challenge: string; solution: string }];
    expect([url, body.mail, body.challenge]).toEqual(['/user/sendCode', 'a@b.cn', challenge.token]);
    const hash = createHash('sha256').update(`${challenge.token}:${body.solution}`).digest();
    expect(hash[0]).toBe(0);
  });

  it('says so when a fresh challenge fails too, without looping', async () => {
    const refusal = (reason: string) =>
      new ApiError({ kind: 'business', url: '/user/sendCode', code: 3000, desc: 'x', message: 'x', data: { reason, challenge: { token: `t-${reason}`, bits: 1 } } });
    const post = jest
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refusal('challenge_required'))
      .mockRejectedValue(refusal('challenge_failed'));
    renderApp('/login');
    type('login-mail', 'a@b.cn');
    fireEvent.click(screen.getByTestId('send-code'));
    expect(await screen.findByText('安全验证未通过，请重试')).toBeInTheDocument();
    expect(post).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId('send-code')).toBeEnabled();
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
