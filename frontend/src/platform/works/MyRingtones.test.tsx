import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { RING_POLL_MS, RingState, type RingOrder } from '@/api/ring';
import { applyLanguage } from '@/app/i18n';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';
import { finishedWork, order } from '@/test/ringFixtures';

/** Serves the order lists: each GET of /ring/orders answers the next of `answers` (the last one again once used up). */
function serve(answers: RingOrder[][], tenant: RingOrder[] = []) {
  let asked = 0;
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/category/taskvideo') return { dataList: [] };
    if (url === '/videotask/mine') return { total: 1, list: [finishedWork(7)] };
    if (url === '/template/mine') return { total: 0, list: [] };
    if (url === '/ring/orders') {
      const list = answers[Math.min(asked, answers.length - 1)] ?? [];
      asked += 1;
      const state = params?.state;
      const found = state === undefined ? list : list.filter((o) => o.state === state);
      return { total: found.length, list: found };
    }
    if (url === '/manage/ring/orders') return { total: tenant.length, list: tenant };
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/videotask/mediaTicket') return { ticket: 'tk', expiresInSeconds: 600 };
    if (url === '/ring/cancel') return order(Number(body.orderId), RingState.cancelSetting);
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  return { get, post };
}

const calls = (spy: jest.SpyInstance, url: string) => spy.mock.calls.filter(([u]) => u === url).map(([, p]) => p as Record<string, unknown>);

async function confirmPopup(): Promise<void> {
  const texts = await screen.findAllByText(/^确\s?定$/);
  const last = texts[texts.length - 1];
  if (!last) throw new Error('no OK button');
  fireEvent.click(last.closest('button') ?? last);
}

jest.setTimeout(120_000);
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('my ringtones', () => {
  it('lists the orders with cover, work, masked number, state, a failure reason and time', async () => {
    const { get } = serve([[order(1, RingState.success), order(2, RingState.error), order(3, RingState.notJoin, { reason: '号码未开通' }), order(4, RingState.cancelSetting)]]);
    renderApp('/mydiyring?tab=ringtones', SIGNED_IN);
    const ok = await screen.findByTestId('ring-order-1');
    expect(within(ok).getByTestId('ring-order-name')).toHaveTextContent('作品1');
    expect(within(ok).getByTestId('ring-order-phone')).toHaveTextContent('138****8000');
    expect(within(ok).getByTestId('ring-state')).toHaveTextContent('设置成功');
    expect(ok.querySelector('img')).toHaveAttribute('src', '/cover/1.jpg');
    expect(ok).toHaveTextContent('2026-11-27 08:01');
    const failed = screen.getByTestId('ring-order-2');
    expect(within(failed).getByTestId('ring-state')).toHaveTextContent('设置失败');
    expect(within(failed).getByTestId('ring-order-reason')).toHaveTextContent('平台拒绝：画面含二维码');
    expect(within(screen.getByTestId('ring-order-3')).getByTestId('ring-state')).toHaveTextContent('未开通彩铃业务');
    expect(within(screen.getByTestId('ring-order-4')).getByTestId('ring-state')).toHaveTextContent('已取消');
    // Only a set ringtone can be cancelled.
    expect(within(ok).getByTestId('ring-cancel-1')).toBeInTheDocument();
    expect(screen.queryByTestId('ring-cancel-2')).toBeNull();
    expect(screen.queryByTestId('ring-cancel-4')).toBeNull();
    expect(calls(get, '/ring/orders')[0]).toEqual({ page: 1, size: 10 });
    expect(screen.getByText('共 4 条')).toBeInTheDocument();
  });

  it('cancels a set ringtone after a confirmation, and the list reloads', async () => {
    const { get, post } = serve([[order(1, RingState.success)], [order(1, RingState.cancelSetting)]]);
    renderApp('/mydiyring?tab=ringtones', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('ring-cancel-1'));
    expect(await screen.findByText('取消这个视频彩铃？来电将不再播放它。')).toBeInTheDocument();
    expect(calls(post, '/ring/cancel')).toHaveLength(0);
    await confirmPopup();
    await waitFor(() => expect(calls(post, '/ring/cancel')).toEqual([{ orderId: 1 }]));
    await waitFor(() => expect(within(screen.getByTestId('ring-order-1')).getByTestId('ring-state')).toHaveTextContent('已取消'));
    expect(calls(get, '/ring/orders').length).toBeGreaterThanOrEqual(2);
  });

  it('asks again while an order is being set, and stops once it is answered', async () => {
    const { get } = serve([[order(5, RingState.setting)], [order(5, RingState.setting)], [order(5, RingState.success)]]);
    renderApp('/mydiyring?tab=ringtones', SIGNED_IN);
    expect(within(await screen.findByTestId('ring-order-5')).getByTestId('ring-state')).toHaveTextContent('已提交，等待设置');
    await waitFor(() => expect(within(screen.getByTestId('ring-order-5')).getByTestId('ring-state')).toHaveTextContent('设置成功'), { timeout: 3 * RING_POLL_MS + 2_000 });
    const asked = calls(get, '/ring/orders').length;
    expect(asked).toBe(3);
    await act(() => new Promise((r) => setTimeout(r, RING_POLL_MS + 500)));
    expect(calls(get, '/ring/orders')).toHaveLength(asked);
  });

  it('filters by state', async () => {
    const { get } = serve([[order(1, RingState.success), order(2, RingState.error)]]);
    renderApp('/mydiyring?tab=ringtones', SIGNED_IN);
    await screen.findByTestId('ring-order-2');
    fireEvent.mouseDown(within(screen.getByTestId('ring-state-filter')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('设置失败'));
    await waitFor(() => expect(calls(get, '/ring/orders').at(-1)).toEqual({ page: 1, size: 10, state: RingState.error }));
    await waitFor(() => expect(screen.queryByTestId('ring-order-1')).toBeNull());
  });

  it('opens on my works, and the tab switches to my ringtones', async () => {
    serve([[order(1, RingState.success)]]);
    const { router } = renderApp('/mydiyring', SIGNED_IN);
    expect(await screen.findByTestId('set-ring-7')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('tab-ringtones'));
    expect(await screen.findByTestId('ring-order-1')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=ringtones');
  });

  it('counts in English with the right plural', async () => {
    serve([[order(1, RingState.success)]]);
    await act(() => applyLanguage('en-US'));
    try {
      renderApp('/mydiyring?tab=ringtones', SIGNED_IN);
      expect(await screen.findByText('1 ringtone')).toBeInTheDocument();
      expect(within(screen.getByTestId('ring-order-1')).getByTestId('ring-state')).toHaveTextContent('Set');
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
  });
});

describe('ring orders (manager)', () => {
  it('lists the tenant orders for a template manager, without cancel', async () => {
    const { get } = serve([[]], [order(8, RingState.setting), order(9, RingState.error)]);
    renderApp('/manage/ring-orders', MANAGER);
    expect(await screen.findByTestId('ring-order-8')).toBeInTheDocument();
    expect(within(screen.getByTestId('ring-order-9')).getByTestId('ring-order-reason')).toHaveTextContent('平台拒绝');
    expect(screen.queryByTestId('ring-cancel-8')).toBeNull();
    expect(calls(get, '/manage/ring/orders')[0]).toEqual({ page: 1, size: 10 });
  });

  it('is refused to a user without the manager role, and asks nothing', async () => {
    const { get } = serve([[]], [order(8, RingState.success)]);
    renderApp('/manage/ring-orders', SIGNED_IN);
    expect(await screen.findByTestId('login-expired')).toHaveTextContent(/登录过期/);
    expect(calls(get, '/manage/ring/orders')).toHaveLength(0);
  });

  it('is reachable from the manager menu', async () => {
    serve([[]]);
    renderApp('/mydiyring', MANAGER);
    fireEvent.click(await screen.findByTestId('user-status'));
    expect((await screen.findByTestId('menu-ring-orders')).closest('a')).toHaveAttribute('href', '/manage/ring-orders');
  });
});
