import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { TemplateSummary } from '@/api/template';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';
import { cat, slot, SYSTEM_INFO, tpl } from '@/test/templateFixtures';

function serve(byState: Record<string, TemplateSummary[]>) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/category/taskvideo') return { dataList: [cat(1, '行业', [cat(11, '餐饮')])] };
    if (url === '/template/check') {
      const list = (byState[String(params?.state)] ?? []).filter((t) => !params?.kind || t.kind === params.kind);
      return { total: list.length, list };
    }
    const one = /^\/template\/check\/(\d+)$/.exec(url);
    if (one) {
      const found = Object.values(byState).flat().find((t) => t.id === Number(one[1]));
      return { ...found, videoCreateInfo: '{}' };
    }
    if (url === '/template/slots/9') return [slot('t1', 'text', { content: '店名', maxLength: 10 }), slot('p1', 'picture')];
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/template/audit') return tpl(Number(body.id), { auditState: body.approve ? 'approved' : 'rejected', reason: String(body.reason ?? '') });
    if (url === '/template/categories') return tpl(Number(body.id));
    if (url === '/template/setPush') return body.ids;
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

function checkCalls(get: jest.SpyInstance) {
  return get.mock.calls.filter(([url]) => url === '/template/check').map(([, params]) => params as Record<string, unknown>);
}

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('template check (manager)', () => {
  it('lists templates by state and kind', async () => {
    const { get } = serve({ pending: [tpl(9, { auditState: 'pending' }), tpl(10, { auditState: 'pending', kind: 'businessCard' })], rejected: [tpl(4, { auditState: 'rejected', reason: '模糊' })] });
    renderApp('/manage/check-template/pending', MANAGER);
    expect(await screen.findByTestId('template-9')).toBeInTheDocument();
    expect(checkCalls(get)[0]).toEqual({ state: 'pending', pageNum: 1, pageSize: 12 });
    expect(within(screen.getByTestId('template-9')).getByTestId('check-9').closest('a')).toHaveAttribute('href', '/manage/check-template-detail/9');

    fireEvent.mouseDown(within(screen.getByTestId('check-kind')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('电子名片'));
    await waitFor(() => expect(checkCalls(get).at(-1)).toEqual({ state: 'pending', kind: 'businessCard', pageNum: 1, pageSize: 12 }));
    await waitFor(() => expect(screen.queryByTestId('template-9')).toBeNull());

    fireEvent.click(screen.getByTestId('state-rejected'));
    expect(await screen.findByTestId('template-4')).toBeInTheDocument();
    expect(within(screen.getByTestId('template-4')).getByTestId('audit-reason')).toHaveTextContent('模糊');
    expect(checkCalls(get).at(-1)).toEqual({ state: 'rejected', pageNum: 1, pageSize: 12 });
  });

  it.each(['/manage/check-template/whatever', '/manage/check-template'])('sends %s to the pending list', async (path) => {
    serve({ pending: [tpl(9, { auditState: 'pending' })] });
    const { router } = renderApp(path, MANAGER);
    expect(await screen.findByTestId('template-9')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/manage/check-template/pending');
  });

  it('is refused to a user without the manager role', async () => {
    const { get } = serve({ pending: [tpl(9)] });
    renderApp('/manage/check-template/pending', SIGNED_IN);
    expect(await screen.findByTestId('login-expired')).toHaveTextContent(/登录过期/);
    expect(checkCalls(get)).toHaveLength(0);
  });

  it('previews a template with its slots and approves it', async () => {
    const { post } = serve({ pending: [tpl(9, { auditState: 'pending', videoUrl: '/preview/9.mp4' })] });
    renderApp('/manage/check-template-detail/9', MANAGER);
    expect(await screen.findByTestId('detail-video')).toHaveAttribute('src', '/preview/9.mp4');
    expect(await within(screen.getByTestId('detail-slots')).findByText('店名')).toBeInTheDocument();
    // A picture slot shows its picture, not its address.
    expect(within(screen.getByTestId('detail-slots')).getByTestId('slot-picture')).toHaveAttribute('src', '/tpl/own.png');
    expect(within(screen.getByTestId('detail-slots')).queryByText('/tpl/own.png')).toBeNull();
    fireEvent.click(screen.getByTestId('approve'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/audit', { id: 9, approve: true }));
    expect(await screen.findByText('已通过审核')).toBeInTheDocument();
  });

  it('rejects only with a reason', async () => {
    const { post } = serve({ pending: [tpl(9, { auditState: 'pending' })] });
    renderApp('/manage/check-template-detail/9', MANAGER);
    fireEvent.click(await screen.findByTestId('reject'));
    fireEvent.click(await screen.findByTestId('reject-ok'));
    expect(await screen.findByText('请填写驳回原因')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalledWith('/template/audit', expect.anything());
    fireEvent.change(screen.getByTestId('reject-reason'), { target: { value: ' 画面模糊 ' } });
    fireEvent.click(screen.getByTestId('reject-ok'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/audit', { id: 9, approve: false, reason: '画面模糊' }));
  });

  it('sets the categories (with the parent of a second-level one) and pushes an approved template', async () => {
    const { post } = serve({ approved: [tpl(9, { auditState: 'approved', categoryIds: [11] })] });
    renderApp('/manage/check-template-detail/9', MANAGER);
    fireEvent.click(await screen.findByTestId('detail-push'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/setPush', { ids: [9], push: true }));
    fireEvent.click(screen.getByTestId('categories-save'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/categories', { id: 9, categoryIds: [11], sizeCategoryId: 50 }));
    expect(screen.queryByTestId('approve')).toBeNull();
  });
});

describe('ManageTemplatePage', () => {
  it('lists approved templates and pushes one or many', async () => {
    const { get, post } = serve({ approved: [tpl(1, { categoryIds: [1, 11] }), tpl(2, { push: true })] });
    renderApp('/manage/manage-template', MANAGER);
    expect(await screen.findByTestId('push-1')).not.toBeChecked();
    expect(screen.getByTestId('push-2')).toBeChecked();
    expect(checkCalls(get)[0]).toEqual({ state: 'approved', pageNum: 1, pageSize: 12 });
    expect(await screen.findByText('餐饮')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('push-1'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/setPush', { ids: [1], push: true }));
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[0] as HTMLElement);
    fireEvent.click(screen.getByTestId('push-off'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/setPush', { ids: [1, 2], push: false }));
  });
});
