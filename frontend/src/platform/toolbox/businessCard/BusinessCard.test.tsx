import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO, tpl } from '@/test/templateFixtures';

function serve() {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/template/list') return { total: 1, list: [tpl(3, { kind: 'businessCard', taskName: '商务名片' })] };
    if (url === '/template/3') return tpl(3, { kind: 'businessCard', taskName: '商务名片' });
    if (url === '/business/template.csv') return new Blob([`姓名,职务\n`], { type: 'text/csv' });
    if (url === '/business/template.xlsx') return new Blob([JSON.stringify({ code: 3000, desc: '模板 3 不是名片模板' })], { type: 'application/json' });
    if (url === '/videotask/ofone/77') return { id: 77, taskName: '名片 张三', status: 0, reason: '', videoUrl: '', coverUrl: '', videoCreateInfo: '{}', sizeCategoryId: 50, usedFor: 'BUSINESS_CARD_TEMPLATE' };
    throw new Error(`unexpected GET ${url} ${JSON.stringify(params)}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
    if (url === '/v2/business/runBusinessCardTasks')
      return { made: [{ row: 2, taskId: 70 }, { row: 4, taskId: 71 }], failed: [{ row: 3, reason: 'memberName: 超过 8 个字' }] };
    if (url === '/v2/business/runOneBusinessCardTask') return { taskId: 77 };
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  return { get, post };
}

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('business cards', () => {
  it('lists business-card templates and opens the maker for one', async () => {
    const { get } = serve();
    const { router } = renderApp('/tools/business-card', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('card-use-3'));
    expect(get).toHaveBeenCalledWith('/template/list', { pageNum: 1, pageSize: 12, orderType: 1, kind: 'businessCard' });
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/tools/business-card/edit?templateId=3'));
    expect(await screen.findByText('制作名片：商务名片')).toBeInTheDocument();
  });

  it('downloads the header sheet and says why a refused one failed', async () => {
    const { get } = serve();
    const created: Blob[] = [];
    Object.assign(URL, { createObjectURL: (b: Blob) => (created.push(b), 'blob:sheet'), revokeObjectURL: () => undefined });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderApp('/tools/business-card/edit?templateId=3', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('sheet-csv'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(get).toHaveBeenCalledWith('/business/template.csv', { templateId: 3 }, { responseType: 'blob' });
    expect(created[0]?.type).toBe('text/csv');
    fireEvent.click(screen.getByTestId('sheet-xlsx'));
    expect(await screen.findByText('模板 3 不是名片模板')).toBeInTheDocument();
  });

  it('uploads a filled sheet and shows the made and failed rows', async () => {
    const { post } = serve();
    const { container } = renderApp('/tools/business-card/edit?templateId=3', SIGNED_IN);
    await screen.findByTestId('sheet-upload');
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(['姓名\n张三\n'], 'cards.csv', { type: 'text/csv' });
    fireEvent.change(input, { target: { files: [file] } });
    const report = await screen.findByTestId('card-report');
    expect(within(report).getByTestId('card-report-summary')).toHaveTextContent('成功 2 行，失败 1 行');
    expect(within(report).getByTestId('card-failed-3')).toHaveTextContent('memberName: 超过 8 个字');
    expect(within(report).getByText('查看作品 70').closest('a')).toHaveAttribute('href', '/tools/business-card/detail/70');
    const [url, form] = post.mock.calls.find(([u]) => u === '/v2/business/runBusinessCardTasks') ?? [];
    expect(url).toBe('/v2/business/runBusinessCardTasks');
    expect((form as FormData).get('templateId')).toBe('3');
    expect(((form as FormData).get('file') as File).name).toBe('cards.csv');
  });

  it('makes one card from the form and opens its detail', async () => {
    const { post } = serve();
    const { router } = renderApp('/tools/business-card/edit?templateId=3', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('card-make-one'));
    expect(await screen.findByTestId('card-form-empty')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalledWith('/v2/business/runOneBusinessCardTask', expect.anything());
    fireEvent.change(screen.getByTestId('card-field-1'), { target: { value: '张三' } });
    fireEvent.change(screen.getByTestId('card-field-6'), { target: { value: ' 某某公司 ' } });
    fireEvent.click(screen.getByTestId('card-make-one'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/v2/business/runOneBusinessCardTask', { templateId: 3, fields: { 1: '张三', 6: '某某公司' } }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/business-card/detail/77'));
    expect(await screen.findByTestId('card-detail')).toHaveTextContent('名片 张三');
  });

  it('lists my cards with a way to the card templates when there are none', async () => {
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/system/info') return SYSTEM_INFO;
      if (url === '/videotask/mine') return { total: 0, list: [] };
      throw new Error(`unexpected GET ${url}`);
    });
    renderApp('/tools/business-card/list', SIGNED_IN);
    const empty = await screen.findByTestId('empty-state');
    expect(within(empty).getByRole('button').closest('a')).toHaveAttribute('href', '/tools/business-card/template');
  });

  it('sends the maker without a template back to the template list', async () => {
    serve();
    const { router } = renderApp('/tools/business-card/edit', SIGNED_IN);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/business-card/template'));
  });
});
