import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { TaskSummary } from '@/api/videoTask';
import { setCurrentVariant } from '@/app/variant';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { collection } from '@/test/collectionFixtures';
import { tpl } from '@/test/templateFixtures';
import { qsNavKeyFor } from './QsLayout';

const work = (id: number, taskName = `作品${id}`) => ({ id, taskName, status: -1, reason: '', videoUrl: '', coverUrl: '' }) as TaskSummary;

function mockServer(variant = 'qs') {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all', variant };
    if (url === '/template/list') return { total: 6, list: [1, 2, 3, 4, 5, 6].map((id) => tpl(id)) };
    if (url === '/videotask/mine') return { total: 5, list: [1, 2, 3, 4, 5].map((id) => work(id)) };
    if (url === '/template/mine') return { total: 1, list: [tpl(9, { auditState: 'pending', taskName: '我的模板' })] };
    if (url === '/ring/orders') return { total: 0, list: [] };
    if (url === '/category/taskvideo') return { dataList: [] };
    if (url === '/collection/list') return [collection(4, { name: '夏日专题', published: true, templateIds: [1], templateCount: 1 })];
    throw new Error(`unexpected GET ${url}`);
  });
}

beforeEach(() => {
  jest.spyOn(api, 'stream').mockRejectedValue(new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' }));
});
afterEach(() => {
  jest.restoreAllMocks();
  setCurrentVariant(null);
});
jest.setTimeout(60_000);

describe('qsNavKeyFor', () => {
  it('lights the portal nav entry of a path, the template area under my templates', () => {
    expect(qsNavKeyFor('/qs/index')).toBe('/qs/index');
    expect(qsNavKeyFor('/qs/template')).toBe('/qs/template');
    expect(qsNavKeyFor('/qs/template-page/select')).toBe('/qs/template-page/my-template');
    expect(qsNavKeyFor('/qs/service/select')).toBe('');
  });
});

describe('the /qs portal', () => {
  it('frames its pages with its own header and nav, not the app one, named after the served variant', async () => {
    mockServer('cc');
    renderApp('/qs/introduce', SIGNED_IN);
    expect(await screen.findByTestId('qs-introduce')).toHaveTextContent('四步做出一条视频');
    expect(screen.queryByTestId('logo')).toBeNull();
    const nav = screen.getAllByRole('menu')[0]!;
    for (const label of ['首页', '模板', '我的作品', '我的模板', '我的工具', '介绍']) expect(within(nav).getByText(label)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('qs-logo')).toHaveTextContent('彩铃创作'));
    expect(screen.getByTestId('qs-nav-introduce')).toHaveAttribute('href', '/qs/introduce');
  });

  it("home: ways to start, the managers' topics, the newest approved templates and the latest works", async () => {
    const get = mockServer();
    renderApp('/qs/index', SIGNED_IN);
    expect(await screen.findByTestId('qs-new-task')).toBeInTheDocument();
    expect(screen.getByTestId('qs-market').closest('a')).toHaveAttribute('href', '/qs/service/select');
    const featured = screen.getByTestId('featured-templates');
    await waitFor(() => expect(within(featured).getByTestId('template-1')).toBeInTheDocument());
    expect(within(featured).queryByTestId('template-5')).toBeNull();
    expect(await screen.findByTestId('home-topic-4')).toHaveAttribute('href', '/qs/template?collection=4');
    const recent = screen.getByTestId('recent-works');
    expect(await within(recent).findByTestId('recent-work-1')).toHaveAttribute('href', '/qs/diy?taskId=1');
    expect(within(recent).queryByTestId('recent-work-5')).toBeNull();
    expect(get).toHaveBeenCalledWith('/template/list', expect.objectContaining({ pageNum: 1, orderType: 1 }));
    expect(get).toHaveBeenCalledWith('/videotask/mine', { pageNum: 1, pageSize: 10 });
  });

  it('home signed out asks for a sign-in and lists nothing of a tenant', async () => {
    const get = mockServer();
    renderApp('/qs/index');
    expect(await screen.findByTestId('qs-signin')).toBeInTheDocument();
    expect(get).not.toHaveBeenCalledWith('/template/list', expect.anything());
    expect(get).not.toHaveBeenCalledWith('/videotask/mine', expect.anything());
  });

  it('template-page/select offers a work as a template; my-template lists the offered ones', async () => {
    mockServer();
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/template/submit') return tpl(10, { auditState: 'pending' });
      throw new Error(`unexpected POST ${url}`);
    });
    const { router } = renderApp('/qs/template-page', SIGNED_IN);
    await waitFor(() => expect(router.state.location.pathname).toBe('/qs/template-page/select'));
    fireEvent.click(await screen.findByTestId('offer-2'));
    const ok = await screen.findByTestId('submit-ok');
    fireEvent.click(ok);
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/submit', expect.objectContaining({ taskId: 2, kind: 'classic' })));
    fireEvent.click(screen.getByText('我的模板', { selector: '.ant-tabs-tab a' }));
    expect(await screen.findByTestId('my-templates')).toHaveTextContent('我的模板');
    expect(router.state.location.pathname).toBe('/qs/template-page/my-template');
  });

  it('mydiy is the works page inside the portal', async () => {
    mockServer();
    renderApp('/qs/mydiy', SIGNED_IN);
    expect(await screen.findByTestId('work-3')).toBeInTheDocument();
    expect(screen.getByTestId('qs-layout')).toContainElement(screen.getByTestId('my-works'));
  });

  it('the editor fills the portal under its header, with no footer', async () => {
    mockServer();
    renderApp('/qs/diy', SIGNED_IN);
    expect(await screen.findByTestId('diy-editor', undefined, { timeout: 30_000 })).toBeInTheDocument();
    expect(screen.getByTestId('qs-layout')).toContainElement(screen.getByTestId('diy-editor'));
    expect(screen.queryByText('© Reelforge')).toBeNull();
  });
});
