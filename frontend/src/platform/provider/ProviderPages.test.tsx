import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { ProviderApplication } from '@/api/provider';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';

function application(id: number, over: Partial<ProviderApplication> = {}): ProviderApplication {
  return {
    id,
    userId: 'ann@example.com',
    name: '光影工作室',
    contact: '13800138000',
    intro: '婚礼与企业宣传片',
    state: 'pending',
    reason: '',
    reviewedBy: '',
    createTime: '2026-11-28 10:00:00',
    reviewTime: '',
    ...over,
  };
}

interface Served {
  mine?: ProviderApplication[];
  queue?: Record<string, ProviderApplication[]>;
  one?: ProviderApplication;
  refuse?: string;
}

function serve({ mine = [], queue = {}, one, refuse }: Served) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/service/applications') return mine;
    if (url === '/manage/service/list') {
      const list = queue[String(params?.state)] ?? [];
      return { total: list.length, list };
    }
    if (one && url === `/manage/service/${one.id}`) return one;
    throw new Error(`unexpected GET ${url}`);
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    if (refuse) throw new ApiError({ kind: 'business', url, message: refuse, code: 3000, desc: refuse });
    if (url === '/service/apply') return application(9, data as Partial<ProviderApplication>);
    if (url === '/manage/service/decide') return { ...one, state: (data as { approve: boolean }).approve ? 'approved' : 'rejected' };
    throw new Error(`unexpected POST ${url}`);
  });
}

function bodies(post: jest.SpyInstance, url: string) {
  return post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);
}

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('service-provider applications', () => {
  it('applies with every field filled, then waits', async () => {
    const post = serve({});
    renderApp('/qs/service/emplacement', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('service-apply-submit'));
    expect(await screen.findByText('请填写公司或工作室名称')).toBeInTheDocument();
    expect(bodies(post, '/service/apply')).toEqual([]);
    fireEvent.change(screen.getByTestId('service-apply-name'), { target: { value: '光影工作室' } });
    fireEvent.change(screen.getByTestId('service-apply-contact'), { target: { value: '13800138000' } });
    fireEvent.change(screen.getByTestId('service-apply-intro'), { target: { value: '婚礼与企业宣传片' } });
    fireEvent.click(screen.getByTestId('service-apply-submit'));
    await waitFor(() => expect(bodies(post, '/service/apply')).toEqual([{ name: '光影工作室', contact: '13800138000', intro: '婚礼与企业宣传片' }]));
  });

  it('shows a waiting application instead of the form, and a rejection with its reason', async () => {
    serve({ mine: [application(2), application(1, { state: 'rejected', reason: '样片不足' })] });
    renderApp('/qs/service/emplacement', SIGNED_IN);
    expect(await screen.findByTestId('service-apply-waiting')).toBeInTheDocument();
    expect(screen.queryByTestId('service-apply-form')).not.toBeInTheDocument();
    expect(screen.getByTestId('my-application-reason-1')).toHaveTextContent('驳回原因：样片不足');
    expect(screen.getByTestId('my-application-state-2')).toHaveAttribute('data-state', 'pending');
  });

  it('says when the user is a provider', async () => {
    serve({ mine: [application(3, { state: 'approved' })] });
    renderApp('/qs/service/emplacement', SIGNED_IN);
    expect(await screen.findByTestId('service-provider-yes')).toHaveTextContent('你已成为服务商');
  });

  it('lists the queue by state and opens a review', async () => {
    serve({ queue: { pending: [application(5)], rejected: [application(6, { state: 'rejected', reason: '资料不全' })] } });
    renderApp('/manage/check-service', MANAGER);
    expect(await screen.findByTestId('service-open-5')).toHaveAttribute('href', '/manage/check-service-detail/5');
    fireEvent.click(screen.getByTestId('service-state-rejected'));
    expect(await screen.findByTestId('service-open-6')).toBeInTheDocument();
    expect(screen.queryByTestId('service-open-5')).not.toBeInTheDocument();
  });

  it('rejects only with a reason, and approves', async () => {
    const post = serve({ one: application(7) });
    renderApp('/manage/check-service-detail/7', MANAGER);
    expect(await screen.findByTestId('service-detail-name')).toHaveTextContent('光影工作室');
    fireEvent.click(screen.getByTestId('service-reject'));
    fireEvent.click(await screen.findByTestId('reject-ok'));
    expect(await screen.findByText('请填写驳回原因')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('reject-reason'), { target: { value: ' 样片不足 ' } });
    fireEvent.click(screen.getByTestId('reject-ok'));
    await waitFor(() => expect(bodies(post, '/manage/service/decide')).toEqual([{ id: 7, approve: false, reason: '样片不足' }]));
    fireEvent.click(screen.getByTestId('service-approve'));
    await waitFor(() => expect(bodies(post, '/manage/service/decide').at(-1)).toEqual({ id: 7, approve: true, reason: undefined }));
  });

  it("shows the server's refusal", async () => {
    serve({ one: application(8), refuse: 'id: application 8 was already approved' });
    renderApp('/manage/check-service-detail/8', MANAGER);
    fireEvent.click(await screen.findByTestId('service-approve'));
    expect(await screen.findByText('这条申请已被处理，请刷新页面')).toBeInTheDocument();
  });
});
