import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';

const LOGIN_EXPIRED = '登录过期,请重新登录！';

beforeEach(() => {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/category/taskvideo') return { dataList: [] };
    if (url === '/videotask/mine') return { total: 0, list: [] };
    if (url === '/template/list') return { total: 0, list: [] };
    if (url === '/manage/collection/list' || url === '/collection/list') return [];
    if (url === '/user/me') return { userId: '13800000000', mobile: '13800000000', role: 'CREATE_VIDEO', operatorLevel: 0, tenant: 'reelforge', serviceProvider: false };
    if (url === '/market/services') return [];
    if (url === '/enterprise/space') return { enterprise: null, admin: false, shares: [] };
    throw new Error(`unexpected ${url}`);
  });
});
afterEach(() => jest.restoreAllMocks());

describe('route table', () => {
  it('renders the home page with the server version', async () => {
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Reelforge' })).toBeInTheDocument();
    expect(await screen.findByText('服务 reelforge v0.1.0')).toBeInTheDocument();
  });

  it('shows offline when the server does not answer', async () => {
    jest.spyOn(api, 'get').mockRejectedValue(new Error('down'));
    renderApp('/houmen');
    expect(await screen.findByText('离线')).toBeInTheDocument();
  });

  it.each(['/workbench/yqx', '/yqx'])('%s is the enterprise workspace, no longer a coming-soon page', async (path) => {
    renderApp(path, SIGNED_IN);
    expect(await screen.findByTestId('enterprise-none')).toHaveTextContent('你还不在任何企业中');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it.each([
    ['/tools', '/tools/audio-to-video'],
    ['/tools/business-card', '/tools/business-card/template'],
    ['/eb-maintain', '/eb-maintain/material'],
    ['/qs', '/qs/index'],
    ['/qs/service', '/qs/service/select'],
    ['/qs/template-page', '/qs/template-page/select'],
    ['/ai', '/ai/list'],
    ['/ai/ability', '/ai/list'],
    ['/workbench/my-material', '/workbench/my-material/1200'],
  ])('%s redirects to %s', async (from, to) => {
    const { router } = renderApp(from, SIGNED_IN);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it.each([
    ['the top bar', () => within(screen.getByRole('menu')).getByText('工作台')],
    ['the home page', () => screen.getByTestId('area-workbench')],
  ])('leads from 工作台 in %s to the workbench overview, never to a coming-soon page', async (_where, link) => {
    jest.spyOn(api, 'post').mockResolvedValue({ total: 0, pageNum: 1, pageSize: 30, dataList: [] });
    const { router } = renderApp('/', SIGNED_IN);
    await screen.findByTestId('home');
    fireEvent.click(link());
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench'));
    expect(await screen.findByTestId('workbench-home')).toBeInTheDocument();
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('shows not found for unknown paths and malformed AI slugs', async () => {
    renderApp('/definitely/not/here');
    expect(await screen.findByTestId('not-found')).toHaveTextContent('/definitely/not/here');
  });

  it('names the AI ability from its slug', async () => {
    renderApp('/ai/ability/create-text-to-image');
    expect(await screen.findByTestId('coming-soon')).toHaveTextContent('create/text-to-image');
  });

  it('rejects a malformed AI ability slug', async () => {
    renderApp('/ai/ability/other-gesture');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });
});

describe('guards', () => {
  it.each([
    '/my-works',
    '/mydiyring',
    '/mytemring',
    '/channel-temring',
    '/my-tool',
    '/qs/my-tools',
    '/qs/competition-content',
    '/qs/contest-result?id=3',
    '/qs/service/select',
    '/qs/service/my-service',
    '/qs/service/detail/3',
    '/qs/service/new',
    '/qs/service/new?id=3',
    '/tools-index',
    '/tools/audio-to-video',
    '/tools/video-compress',
    '/workbench',
    '/workbench/my-task',
    '/workbench/my-material/9',
    '/new-task',
    '/from-jiancai?ids=1,2',
    '/put-image',
    '/loading',
    '/upload',
    '/tools/business-card/edit?templateId=1',
    '/tools/business-card/list',
    '/tools/business-card/detail/7',
  ])(
    '%s needs login',
    async (path) => {
      renderApp(path);
      expect(await screen.findByTestId('login-expired')).toHaveTextContent(LOGIN_EXPIRED);
    },
  );

  it('returns to the root 3 s after the login-expired message', async () => {
    jest.useFakeTimers();
    try {
      const { router } = renderApp('/my-works');
      expect(await screen.findAllByText(LOGIN_EXPIRED)).not.toHaveLength(0);
      act(() => jest.advanceTimersByTime(2900));
      expect(router.state.location.pathname).toBe('/my-works');
      act(() => jest.advanceTimersByTime(200));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(router.state.location.search).toBe('?login=1&redirect=%2Fmy-works');
      expect(await screen.findByTestId('login-modal')).toHaveTextContent(LOGIN_EXPIRED);
    } finally {
      jest.useRealTimers();
    }
  });

  it('serves the login page at /login', async () => {
    renderApp('/login');
    expect(await screen.findByTestId('login-page')).toHaveTextContent('发送验证码');
  });

  it('lets a signed-in user in', async () => {
    renderApp('/my-works', SIGNED_IN);
    expect(await screen.findByTestId('my-works')).toHaveTextContent('我的作品');
  });

  it('lets a signed-in user into the service marketplace, no longer a coming-soon page', async () => {
    renderApp('/qs/service/select', SIGNED_IN);
    expect(await screen.findByTestId('market-empty')).toHaveTextContent('还没有已发布的服务');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('treats a role mismatch on /manage like an expired login', async () => {
    renderApp('/manage/topic/3', SIGNED_IN);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it('lets a template manager into /manage', async () => {
    renderApp('/manage/topic-center', MANAGER);
    expect(await screen.findByTestId('collection-center-topic')).toHaveTextContent('专题中心');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });
});
