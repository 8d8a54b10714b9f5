import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { MarketMine, RequestDto, ServiceDetail, ServiceDto } from '@/api/market';
import type { TaskSummary } from '@/api/videoTask';
import { request, sample, service, work } from '@/test/marketFixtures';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';

interface Served {
  provider?: boolean;
  services?: ServiceDto[];
  detail?: ServiceDetail;
  mine?: Partial<MarketMine>;
  works?: TaskSummary[];
  /** A POST's URL answered with a 3000 and this desc. */
  refuse?: Record<string, string>;
}

/** A tenant's server: who the caller is, the published services, one service, mine and my works. */
function serve({ provider = false, services = [], detail, mine = {}, works = [], refuse = {} }: Served) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/user/me') return { userId: SIGNED_IN.id, mobile: '', role: 'CREATE_VIDEO', operatorLevel: 0, tenant: 'reelforge', serviceProvider: provider };
    if (url === '/market/services') return params?.kind ? services.filter((s) => s.kind === params.kind) : services;
    if (detail && url === `/market/service/${detail.service.id}`) return detail;
    if (url.startsWith('/market/service/')) throw new ApiError({ kind: 'business', url, code: 3000, desc: `service ${url.slice(16)} does not exist`, message: 'x' });
    if (url === '/market/mine') return { services: [], received: [], sent: [], ...mine };
    if (url === '/videotask/mine') return { total: works.length, list: works };
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    const desc = refuse[url];
    if (desc) throw new ApiError({ kind: 'business', url, code: 3000, desc, message: desc });
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/market/service/save') return service(Number(body.id ?? 0) || 21, { ...body, published: false, mine: true });
    if (url === '/market/service/publish') return service(Number(body.id), { published: Boolean(body.published), mine: true });
    if (url === '/market/request') return request(40, { serviceId: Number(body.serviceId), note: String(body.note) });
    if (url === '/market/request/withdraw') return request(Number(body.requestId), { state: 'withdrawn' });
    if (url === '/market/request/decline') return request(Number(body.requestId), { state: 'declined', reason: String(body.reason), mine: false });
    if (url === '/market/request/deliver') return request(Number(body.requestId), { state: 'delivered', deliveredTaskId: 900, mine: false });
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

const bodies = (post: jest.SpyInstance, url: string) => post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);

const PROMO = service(7, { title: '企业宣传片制作', description: '脚本、拍摄与剪辑\n两次修改', price: '3000 元起', deliveryDays: 10, sampleTaskIds: [101, 102] });
const PROMO_DETAIL: ServiceDetail = { service: PROMO, samples: [sample(101), sample(102, { videoUrl: '' })], myRequests: [] };

beforeEach(() => {
  jest.spyOn(api, 'stream').mockRejectedValue(new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' }));
});
afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('/qs/service/select', () => {
  it('lists the published services as cards and filters them by kind', async () => {
    const { get } = serve({ services: [PROMO, service(8, { title: '婚礼模板', kind: 'template', price: '', deliveryDays: 1, coverUrl: '' })] });
    renderApp('/qs/service/select', SIGNED_IN);
    const card = await screen.findByTestId('market-card-7');
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent('服务市场');
    expect(card).toHaveAttribute('href', '/qs/service/detail/7');
    expect(within(card).getByTestId('market-card-title-7')).toHaveTextContent('企业宣传片制作');
    expect(within(card).getByTestId('market-card-kind-7')).toHaveTextContent('视频制作');
    expect(within(card).getByTestId('market-price-7')).toHaveTextContent('3000 元起');
    expect(within(card).getByTestId('market-days-7')).toHaveTextContent('10 天交付');
    expect(within(card).getByRole('img')).toHaveAttribute('src', '/diyvrbt/market/cover?taskId=107&sig=x');
    expect(screen.getByTestId('market-card-kind-8')).toHaveTextContent('模板设计');
    expect(screen.getByTestId('market-price-8')).toHaveTextContent('价格面议');

    fireEvent.click(screen.getByTestId('market-filter-template'));
    await waitFor(() => expect(screen.queryByTestId('market-card-7')).toBeNull());
    expect(await screen.findByTestId('market-card-8')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/market/services', { kind: 'template' });

    fireEvent.click(screen.getByTestId('market-filter-video'));
    expect(await screen.findByTestId('market-card-7')).toBeInTheDocument();
    expect(screen.queryByTestId('market-card-8')).toBeNull();
  });

  it('says when there is none, and leads a non-provider to apply', async () => {
    serve({});
    renderApp('/qs/service/select', SIGNED_IN);
    expect(await screen.findByTestId('market-empty')).toHaveTextContent('还没有已发布的服务');
    expect(await screen.findByTestId('market-become-provider')).toHaveAttribute('href', '/qs/service/emplacement');
    expect(screen.getByTestId('market-my-requests')).toHaveAttribute('href', '/qs/service/my-service');
    expect(screen.queryByTestId('market-new')).toBeNull();
  });

  it('gives a provider the ways to publish and to keep services', async () => {
    serve({ provider: true, services: [PROMO] });
    renderApp('/qs/service/select', SIGNED_IN);
    expect(await screen.findByTestId('market-new')).toHaveAttribute('href', '/qs/service/new');
    expect(screen.getByTestId('market-mine')).toHaveAttribute('href', '/qs/service/my-service');
    expect(screen.queryByTestId('market-become-provider')).toBeNull();
  });
});

describe('/qs/service/detail/:id', () => {
  it('shows the service and plays a sample', async () => {
    serve({ detail: PROMO_DETAIL });
    renderApp('/qs/service/detail/7', SIGNED_IN);
    expect(await screen.findByTestId('market-title')).toHaveTextContent('企业宣传片制作');
    expect(screen.getByTestId('market-kind-tag')).toHaveTextContent('视频制作');
    expect(screen.getByTestId('market-price')).toHaveTextContent('3000 元起');
    expect(screen.getByTestId('market-days')).toHaveTextContent('10 天交付');
    expect(screen.getByTestId('market-description')).toHaveTextContent('脚本、拍摄与剪辑 两次修改');
    expect(screen.queryByTestId('market-publish')).toBeNull();
    expect(screen.queryByTestId('market-edit')).toBeNull();
    expect(screen.getByTestId('market-sample-102').tagName).toBe('DIV');
    fireEvent.click(screen.getByTestId('market-sample-101'));
    expect(await screen.findByTestId('market-video')).toHaveAttribute('src', '/diyvrbt/market/video?taskId=101&sig=x');
  });

  it('places a request with {serviceId, note}, its limit shown', async () => {
    const { post } = serve({ detail: PROMO_DETAIL });
    renderApp('/qs/service/detail/7', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('market-request'));
    expect(await screen.findByText(/最多 500 个字/)).toBeInTheDocument();
    expect(screen.getByTestId('market-request-ok')).toBeDisabled();
    fireEvent.change(screen.getByTestId('market-request-note'), { target: { value: ' 年会开场视频，30 秒 ' } });
    fireEvent.click(screen.getByTestId('market-request-ok'));
    await waitFor(() => expect(bodies(post, '/market/request')).toEqual([{ serviceId: 7, note: '年会开场视频，30 秒' }]));
    expect(await screen.findByText('需求已提交，等待服务商处理')).toBeInTheDocument();
  });

  it('withdraws an open request with {requestId}; no second request meanwhile; a declined one shows its reason', async () => {
    const { post } = serve({ detail: { ...PROMO_DETAIL, myRequests: [request(12), request(11, { state: 'declined', reason: '档期已满' })] } });
    renderApp('/qs/service/detail/7', SIGNED_IN);
    expect(await screen.findByTestId('market-request-waiting')).toBeInTheDocument();
    expect(screen.queryByTestId('market-request')).toBeNull();
    expect(screen.getByTestId('market-request-state-12')).toHaveTextContent('待处理');
    expect(screen.getByTestId('market-request-reason-11')).toHaveTextContent('拒绝原因：档期已满');
    expect(screen.queryByTestId('market-withdraw-11')).toBeNull();
    fireEvent.click(screen.getByTestId('market-withdraw-12'));
    await waitFor(() => expect(bodies(post, '/market/request/withdraw')).toEqual([{ requestId: 12 }]));
  });

  it('words a refused request in Chinese', async () => {
    serve({ detail: PROMO_DETAIL, refuse: { '/market/request': 'serviceId: you already have an open request (12) for service 7' } });
    renderApp('/qs/service/detail/7', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('market-request'));
    fireEvent.change(await screen.findByTestId('market-request-note'), { target: { value: '再来一个' } });
    fireEvent.click(screen.getByTestId('market-request-ok'));
    expect(await screen.findByTestId('market-request-error')).toHaveTextContent('你已有一个待处理的需求，等服务商处理或撤回后才能再提');
  });

  it('gives the owner edit and the publish switch, and offers to publish a saved one', async () => {
    const { post } = serve({ provider: true, detail: { ...PROMO_DETAIL, service: { ...PROMO, mine: true, published: false, openRequests: 2 } } });
    renderApp('/qs/service/detail/7', SIGNED_IN);
    expect(await screen.findByTestId('market-unpublished')).toHaveTextContent('这个服务还没有发布');
    expect(screen.getByTestId('market-edit')).toHaveAttribute('href', '/qs/service/new?id=7');
    expect(screen.queryByTestId('market-request')).toBeNull();
    expect(screen.getByTestId('market-own')).toHaveTextContent('待处理的需求 2 个');
    const toggle = screen.getByTestId('market-publish');
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    await waitFor(() => expect(bodies(post, '/market/service/publish')).toEqual([{ id: 7, published: true }]));
    fireEvent.click(screen.getByTestId('market-publish-now'));
    await waitFor(() => expect(bodies(post, '/market/service/publish')).toHaveLength(2));
  });

  it('says in place that an unknown service does not exist', async () => {
    serve({});
    renderApp('/qs/service/detail/99', SIGNED_IN);
    expect(await screen.findByTestId('market-error')).toHaveTextContent('这个服务不存在或已下架');
  });
});

describe('/qs/service/new', () => {
  it("posts the contract's body for a new service: samples are the caller's rendered works, up to six", async () => {
    const { post } = serve({ provider: true, works: [work(1), work(2, { status: 1, videoUrl: '', coverUrl: '' }), work(3), work(4)] });
    const { router } = renderApp('/qs/service/new', SIGNED_IN);
    expect(await screen.findByTestId('market-new-note')).toHaveTextContent('新服务保存后处于未发布状态');
    fireEvent.change(screen.getByTestId('market-title-input'), { target: { value: ' 婚礼模板设计 ' } });
    fireEvent.click(screen.getByTestId('market-kind-template'));
    fireEvent.change(screen.getByTestId('market-description-input'), { target: { value: '按你的照片定制' } });
    fireEvent.change(screen.getByTestId('market-price-input'), { target: { value: '800 元' } });
    fireEvent.change(screen.getByTestId('market-days-input'), { target: { value: '5' } });
    await screen.findByTestId('market-sample-pick-4');
    expect(screen.queryByTestId('market-sample-pick-2')).toBeNull();
    fireEvent.click(screen.getByTestId('market-sample-pick-4'));
    fireEvent.click(screen.getByTestId('market-sample-pick-1'));
    expect(screen.getByTestId('works-picked-count')).toHaveTextContent('已选 2/6');
    fireEvent.click(screen.getByTestId('market-save'));
    await waitFor(() =>
      expect(bodies(post, '/market/service/save')).toEqual([
        { title: '婚礼模板设计', kind: 'template', description: '按你的照片定制', price: '800 元', deliveryDays: 5, sampleTaskIds: [4, 1] },
      ]),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/qs/service/detail/21'));
  });

  it('asks for a title before saving', async () => {
    const { post } = serve({ provider: true });
    renderApp('/qs/service/new', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('market-save'));
    expect(await screen.findByText('请填写服务名称')).toBeInTheDocument();
    expect(bodies(post, '/market/service/save')).toEqual([]);
  });

  it('edits a service of the caller with its id, and words a refusal in Chinese', async () => {
    const { post } = serve({
      provider: true,
      detail: { ...PROMO_DETAIL, service: { ...PROMO, mine: true, sampleTaskIds: [3] } },
      works: [work(3)],
      refuse: { '/market/service/save': 'deliveryDays: 0 is out of range 1–60' },
    });
    renderApp('/qs/service/new?id=7', SIGNED_IN);
    expect(await screen.findByTestId('market-title-input')).toHaveValue('企业宣传片制作');
    expect(await screen.findByTestId('market-sample-pick-3')).toBeChecked();
    fireEvent.click(screen.getByTestId('market-save'));
    await waitFor(() =>
      expect(bodies(post, '/market/service/save')).toEqual([
        { id: 7, title: '企业宣传片制作', kind: 'video', description: '脚本、拍摄与剪辑\n两次修改', price: '3000 元起', deliveryDays: 10, sampleTaskIds: [3] },
      ]),
    );
    expect(await screen.findByTestId('market-save-error')).toHaveTextContent('交付时间必须是 1–60 天');
  });

  it('explains to a non-provider how to become one', async () => {
    serve({});
    renderApp('/qs/service/new', SIGNED_IN);
    expect(await screen.findByTestId('market-not-provider')).toHaveTextContent('只有服务商才能发布服务');
    expect(screen.getByTestId('market-to-emplacement')).toHaveAttribute('href', '/qs/service/emplacement');
    expect(screen.queryByTestId('market-save')).toBeNull();
  });
});

describe('/qs/service/my-service', () => {
  const received: RequestDto[] = [
    request(12, { mine: false, note: '年会开场视频' }),
    request(13, { mine: false, state: 'delivered', deliveredTaskId: 900 }),
  ];

  it('starts a provider on the received requests and delivers one of their works with {requestId, taskId}', async () => {
    const { post } = serve({ provider: true, mine: { services: [{ ...PROMO, mine: true, openRequests: 1 }], received }, works: [work(1), work(2)] });
    renderApp('/qs/service/my-service', SIGNED_IN);
    const row = await screen.findByTestId('market-received-12');
    expect(row).toHaveTextContent('年会开场视频');
    expect(screen.getByTestId('market-received-state-12')).toHaveTextContent('待处理');
    expect(screen.getByTestId('market-received-state-13')).toHaveTextContent('已交付');
    expect(screen.queryByTestId('market-deliver-13')).toBeNull();
    fireEvent.click(screen.getByTestId('market-deliver-12'));
    fireEvent.click(await screen.findByTestId('market-deliver-pick-2'));
    fireEvent.click(screen.getByTestId('market-deliver-ok'));
    await waitFor(() => expect(bodies(post, '/market/request/deliver')).toEqual([{ requestId: 12, taskId: 2 }]));
    expect(await screen.findByText('已交付，作品已发送到需求方的“我的作品”')).toBeInTheDocument();
  });

  it('declines with {requestId, reason}, and words a refusal in Chinese', async () => {
    const { post } = serve({ provider: true, mine: { received } });
    renderApp('/qs/service/my-service', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('market-decline-12'));
    expect(await screen.findByTestId('market-decline-ok')).toBeDisabled();
    fireEvent.change(screen.getByTestId('market-decline-reason'), { target: { value: ' 档期已满 ' } });
    post.mockRejectedValueOnce(
      new ApiError({ kind: 'business', url: '/market/request/decline', code: 3000, desc: 'requestId: request 12 is withdrawn, only an open request is declined', message: 'x' }),
    );
    fireEvent.click(screen.getByTestId('market-decline-ok'));
    expect(await screen.findByTestId('market-decline-error')).toHaveTextContent('这个需求已撤回，只有待处理的需求才能拒绝');
    fireEvent.click(screen.getByTestId('market-decline-ok'));
    await waitFor(() => expect(bodies(post, '/market/request/decline')).toEqual([{ requestId: 12, reason: '档期已满' }, { requestId: 12, reason: '档期已满' }]));
  });

  it("lists a provider's own services with their state and open requests", async () => {
    const { post } = serve({ provider: true, mine: { services: [{ ...PROMO, mine: true, openRequests: 3 }, service(8, { mine: true, published: false })] } });
    renderApp('/qs/service/my-service', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('market-tab-services'));
    expect(await screen.findByTestId('market-service-7')).toHaveTextContent('企业宣传片制作');
    expect(screen.getByTestId('market-open-count-7')).toHaveTextContent('3');
    expect(screen.getByTestId('market-edit-8')).toHaveAttribute('href', '/qs/service/new?id=8');
    expect(screen.getByTestId('market-publish-7')).toBeChecked();
    fireEvent.click(screen.getByTestId('market-publish-8'));
    await waitFor(() => expect(bodies(post, '/market/service/publish')).toEqual([{ id: 8, published: true }]));
  });

  it('shows everyone their sent requests: the delivered work, the decline reason, withdraw while open', async () => {
    const { post } = serve({
      mine: {
        sent: [request(21), request(22, { state: 'delivered', deliveredTaskId: 901 }), request(23, { state: 'declined', reason: '不接急单' })],
      },
    });
    renderApp('/qs/service/my-service', SIGNED_IN);
    expect(await screen.findByTestId('market-sent-21')).toHaveTextContent('需求21');
    expect(screen.queryByTestId('market-tab-received')).toBeNull();
    expect(screen.queryByTestId('market-tab-services')).toBeNull();
    expect(screen.getByTestId('market-sent-state-22')).toHaveAttribute('data-state', 'delivered');
    expect(screen.getByTestId('market-delivered-22')).toHaveAttribute('href', '/qs/mydiy?preview=901');
    expect(screen.getByTestId('market-sent-state-23')).toHaveTextContent('已拒绝');
    expect(screen.getByTestId('market-sent-reason-23')).toHaveTextContent('拒绝原因：不接急单');
    fireEvent.click(screen.getByTestId('market-withdraw-21'));
    await waitFor(() => expect(bodies(post, '/market/request/withdraw')).toEqual([{ requestId: 21 }]));
  });
});
