import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Collection } from '@/api/collection';
import { ApiError } from '@/api/errors';
import { collection } from '@/test/collectionFixtures';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';

/** A manager's server holding `stored` (positions as listed); the POSTs change it as the contract says. */
function serve(stored: Collection[]) {
  let list = stored.map((c, position) => ({ ...c, position }));
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/manage/collection/list') return list.filter((c) => c.kind === params?.kind);
    const one = /^\/manage\/collection\/(\d+)$/.exec(url);
    if (one) return { ...list.find((c) => c.id === Number(one[1])), templates: [], audit: [] };
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/manage/collection/save') {
      const made = collection(40, { kind: body.kind as Collection['kind'], name: String(body.name), description: String(body.description), position: list.length });
      list = [...list, made];
      return made;
    }
    if (url === '/manage/collection/publish') {
      const c = list.find((x) => x.id === body.id);
      if (c && c.templateIds.length === 0 && body.published)
        throw new ApiError({ kind: 'business', url, code: 3000, desc: 'templateIds: a collection needs a template before it is published', message: 'x' });
      list = list.map((x) => (x.id === body.id ? { ...x, published: Boolean(body.published) } : x));
      return list.find((x) => x.id === body.id);
    }
    if (url === '/manage/collection/order') {
      const ids = body.ids as number[];
      list = list.map((c) => ({ ...c, position: ids.indexOf(c.id) }));
      return list;
    }
    if (url === '/manage/collection/delete') {
      list = list.filter((c) => c.id !== body.id);
      return true;
    }
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

const bodies = (post: jest.SpyInstance, url: string) => post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);
const rowIds = () => screen.getAllByTestId(/^collection-row-/).map((row) => row.getAttribute('data-testid'));

const SUMMER = collection(1, { name: '夏日专题', published: true, coverUrl: '/cover/7.jpg', coverTemplateId: 7, templateIds: [7, 8], templateCount: 2 });
const NEW_YEAR = collection(2, { name: '新年专题', templateIds: [9], templateCount: 1, updateTime: '2026-11-21 10:00:00' });
const EMPTY = collection(3, { name: '空专题' });

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('collection centre (manager)', () => {
  it('lists the topics by position with cover, name, template count, state and time', async () => {
    const { get } = serve([SUMMER, NEW_YEAR, collection(5, { kind: 'case', name: '餐饮案例' })]);
    renderApp('/manage/topic-center', MANAGER);
    const row = await screen.findByTestId('collection-row-1');
    expect(get).toHaveBeenCalledWith('/manage/collection/list', { kind: 'topic' });
    expect(rowIds()).toEqual(['collection-row-1', 'collection-row-2']);
    expect(within(row).getByAltText('夏日专题')).toHaveAttribute('src', '/cover/7.jpg');
    expect(within(row).getByTestId('collection-count-1')).toHaveTextContent('2');
    expect(within(row).getByTestId('collection-state-1')).toHaveTextContent('已发布');
    expect(screen.getByTestId('collection-state-2')).toHaveTextContent('未发布');
    expect(screen.getByTestId('collection-row-2')).toHaveTextContent('2026-11-21 10:00:00');
    expect(screen.getByTestId('collection-open-2')).toHaveAttribute('href', '/manage/topic/2');
    expect(screen.getByTestId('collection-up-1')).toBeDisabled();
    expect(screen.getByTestId('collection-down-2')).toBeDisabled();
  });

  it('lists the cases on the case centre', async () => {
    serve([SUMMER, collection(5, { kind: 'case', name: '餐饮案例' })]);
    renderApp('/manage/case-center', MANAGER);
    expect(await screen.findByTestId('collection-row-5')).toHaveTextContent('餐饮案例');
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent('案例中心');
    expect(screen.queryByTestId('collection-row-1')).toBeNull();
  });

  it('creates a topic from a name and description, then opens it', async () => {
    const { post } = serve([SUMMER]);
    const { router } = renderApp('/manage/topic-center', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-new'));
    fireEvent.click(await screen.findByTestId('collection-new-ok'));
    expect(await screen.findByText('请填写名称')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('collection-name-input'), { target: { value: ' 秋日专题 ' } });
    fireEvent.change(screen.getByTestId('collection-description-input'), { target: { value: '秋天的模板' } });
    fireEvent.click(screen.getByTestId('collection-new-ok'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/topic/40'));
    expect(bodies(post, '/manage/collection/save')).toEqual([{ kind: 'topic', name: '秋日专题', description: '秋天的模板', templateIds: [] }]);
  });

  it('words a duplicate name in the new dialog', async () => {
    serve([SUMMER]);
    jest.spyOn(api, 'post').mockRejectedValue(new ApiError({ kind: 'business', url: '/manage/collection/save', code: 3000, desc: 'name: 「夏日专题」 is already a topic', message: 'x' }));
    renderApp('/manage/topic-center', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-new'));
    fireEvent.change(await screen.findByTestId('collection-name-input'), { target: { value: '夏日专题' } });
    fireEvent.click(screen.getByTestId('collection-new-ok'));
    expect(await screen.findByTestId('collection-error')).toHaveTextContent('已经有叫“夏日专题”的专题了，请换一个名称');
  });

  it('publishes and withdraws; an empty topic is refused in words', async () => {
    const { post } = serve([SUMMER, NEW_YEAR, EMPTY]);
    renderApp('/manage/topic-center', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-publish-2'));
    await waitFor(() => expect(screen.getByTestId('collection-state-2')).toHaveTextContent('已发布'));
    fireEvent.click(screen.getByTestId('collection-publish-1'));
    await waitFor(() => expect(screen.getByTestId('collection-state-1')).toHaveTextContent('未发布'));
    expect(bodies(post, '/manage/collection/publish')).toEqual([
      { id: 2, published: true },
      { id: 1, published: false },
    ]);
    fireEvent.click(screen.getByTestId('collection-publish-3'));
    expect(await screen.findByText('先添加至少一个模板并保存，才能发布')).toBeInTheDocument();
    expect(screen.getByTestId('collection-state-3')).toHaveTextContent('未发布');
  });

  it('moves a topic up or down, sending every id of the kind in the new order', async () => {
    const { post } = serve([SUMMER, NEW_YEAR, EMPTY]);
    renderApp('/manage/topic-center', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-down-1'));
    await waitFor(() => expect(rowIds()).toEqual(['collection-row-2', 'collection-row-1', 'collection-row-3']));
    fireEvent.click(screen.getByTestId('collection-up-3'));
    await waitFor(() => expect(rowIds()).toEqual(['collection-row-2', 'collection-row-3', 'collection-row-1']));
    expect(bodies(post, '/manage/collection/order')).toEqual([
      { kind: 'topic', ids: [2, 1, 3] },
      { kind: 'topic', ids: [2, 3, 1] },
    ]);
  });

  it('asks in a warm-tip dialog before deleting', async () => {
    const { post } = serve([SUMMER, NEW_YEAR]);
    renderApp('/manage/topic-center', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-delete-2'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('温馨提示');
    expect(dialog).toHaveTextContent('确定删除专题“新年专题”吗？');
    expect(bodies(post, '/manage/collection/delete')).toEqual([]);
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('collection-row-2')).toBeNull());
    expect(bodies(post, '/manage/collection/delete')).toEqual([{ id: 2 }]);
    expect(screen.getByTestId('collection-row-1')).toBeInTheDocument();
  });

  it('is refused to a user without the manager role', async () => {
    const { get } = serve([SUMMER]);
    renderApp('/manage/topic-center', SIGNED_IN);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
    expect(get).not.toHaveBeenCalledWith('/manage/collection/list', expect.anything());
  });
});
