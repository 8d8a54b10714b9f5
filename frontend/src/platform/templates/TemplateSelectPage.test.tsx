import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Collection } from '@/api/collection';
import { ApiError } from '@/api/errors';
import type { Material } from '@/api/material';
import type { TaskVideoCategory } from '@/api/category';
import type { TemplateSummary } from '@/api/template';
import { collection } from '@/test/collectionFixtures';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { cat, slot, SYSTEM_INFO, tpl } from '@/test/templateFixtures';

const CATEGORIES = [cat(1, '行业', [cat(11, '餐饮')]), cat(2, '用途', [cat(21, '节日'), cat(22, '婚礼')])];

const picture: Material = {
  id: 'm1',
  materialName: '我的照片',
  type: 'picture',
  categoryId: -1,
  styleId: -1,
  openState: 0,
  reasonsForFailureOfAudit: '',
  state: 'ready',
  failReason: '',
  fileSize: 2048,
  size: '100x100',
  width: 100,
  height: 100,
  duration: 0,
  frameRate: 0,
  rotation: 0,
  hasAudio: false,
  codec: '',
  horizontalOrVertical: 1,
  url: '/files/m1.png?sig=x',
  coverUrl: '/files/m1.jpg',
  filmstripUrl: '',
  waveformUrl: '',
  previewUrl: '',
  createTime: '',
};

function serve(templates: TemplateSummary[], categories: TaskVideoCategory[] | undefined = CATEGORIES, collections: Collection[] = []) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/category/taskvideo') return { dataList: categories };
    if (url === '/template/list') {
      const pageNum = Number(params?.pageNum ?? 1);
      const size = Number(params?.pageSize ?? 12);
      return { total: templates.length, list: templates.slice((pageNum - 1) * size, pageNum * size) };
    }
    if (url === '/template/slots/7') return [slot('t1', 'text', { maxLength: 4 }), slot('p1', 'picture'), slot('v1', 'video')];
    if (url === '/collection/list') return collections;
    const one = /^\/collection\/(\d+)$/.exec(url);
    const found = collections.find((c) => c.id === Number(one?.[1]));
    if (found) return { ...found, templates: found.templateIds.map((id) => templates.find((x) => x.id === id)) };
    if (one) throw new ApiError({ kind: 'business', url, code: 3000, desc: 'not found', message: 'x' });
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
    if (url === '/template/fill') return { taskId: 55 };
    if (url === '/material/ofuser') return { total: 1, pageNum: 1, pageSize: 30, dataList: [picture] };
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

function listCalls(get: jest.SpyInstance) {
  return get.mock.calls.filter(([url]) => url === '/template/list').map(([, params]) => params as Record<string, unknown>);
}

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('TemplateSelectPage', () => {
  it('keeps the two-level picker rules and filters the grid by the chosen category', async () => {
    const { get } = serve([tpl(1)]);
    renderApp('/template-select', SIGNED_IN);
    const firsts = await screen.findAllByTestId('category-first');
    expect(firsts.map((n) => n.textContent)).toEqual(['行业', '用途']);
    expect(screen.getByTestId('category-selected')).toHaveTextContent('全部分类');
    await screen.findByTestId('template-1');
    expect(listCalls(get)[0]).toEqual({ pageNum: 1, pageSize: 12, orderType: 1 });

    fireEvent.click(screen.getByText('行业'));
    expect(screen.getAllByTestId('category-second').map((n) => n.textContent)).toEqual(['全部', '餐饮']);
    expect(screen.getByTestId('category-selected')).toHaveTextContent('行业 / 全部');
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1, categoryId: 1 }));

    fireEvent.click(screen.getByText('餐饮'));
    expect(screen.getByTestId('category-selected')).toHaveTextContent('行业 / 餐饮');
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1, categoryId: 11 }));

    fireEvent.click(screen.getByText('用途'));
    expect(screen.getAllByTestId('category-second').map((n) => n.textContent)).toEqual(['全部', '节日', '婚礼']);
    expect(screen.getByTestId('category-selected')).toHaveTextContent('用途 / 全部');

    fireEvent.click(screen.getByTestId('category-clear'));
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1 }));
  });

  it('filters by size, kind and name and remembers the search', async () => {
    const { get } = serve([tpl(1)]);
    const { store } = renderApp('/template-select', SIGNED_IN);
    await screen.findByTestId('template-1');
    fireEvent.click(screen.getByTestId('size-50'));
    await waitFor(() => expect(listCalls(get).at(-1)).toMatchObject({ sizeCategoryId: '50' }));
    fireEvent.click(screen.getByTestId('size-51'));
    await waitFor(() => expect(listCalls(get).at(-1)).toMatchObject({ sizeCategoryId: '50,51' }));
    fireEvent.click(screen.getByRole('tab', { name: '电子名片' }));
    await waitFor(() => expect(listCalls(get).at(-1)).toMatchObject({ kind: 'businessCard', sizeCategoryId: '50,51' }));
    const search = within(screen.getByTestId('template-search')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: ' 春节 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1, kind: 'businessCard', sizeCategoryId: '50,51', name: '春节' }));
    expect(store.getState().user.searchHistory['13800000000']).toEqual(['春节']);
    expect(within(screen.getByTestId('search-history')).getByText('春节')).toBeInTheDocument();
  });

  it('shows cards with name, duration and slot counts, plays the preview on hover, and pages on', async () => {
    const all = Array.from({ length: 14 }, (_, i) => tpl(i + 1, i === 0 ? { videoUrl: '/preview/1.mp4' } : {}));
    const { get } = serve(all);
    renderApp('/template-select', SIGNED_IN);
    const first = await screen.findByTestId('template-1');
    expect(within(first).getByTestId('template-name')).toHaveTextContent('模板1');
    expect(within(first).getByTestId('template-duration')).toHaveTextContent('0:15');
    expect(within(first).getByTestId('template-slots')).toHaveTextContent('文字 2 · 图片 1 · 视频 0');
    expect(within(first).getByTestId('template-cover')).toHaveAttribute('src', '/cover/1.jpg');
    fireEvent.mouseEnter(within(first).getByTestId('template-cover-box'));
    expect(within(first).getByTestId('template-preview')).toHaveAttribute('src', '/preview/1.mp4');
    fireEvent.mouseLeave(within(first).getByTestId('template-cover-box'));
    expect(within(first).queryByTestId('template-preview')).toBeNull();
    // No preview render yet: hovering keeps the cover.
    const second = screen.getByTestId('template-2');
    fireEvent.mouseEnter(within(second).getByTestId('template-cover-box'));
    expect(within(second).queryByTestId('template-preview')).toBeNull();

    expect(screen.queryByTestId('template-13')).toBeNull();
    fireEvent.click(screen.getByTestId('load-more'));
    expect(await screen.findByTestId('template-14')).toBeInTheDocument();
    expect(listCalls(get).at(-1)).toMatchObject({ pageNum: 2 });
  });

  it('offers the one-level IVVR categories on the IVVR tab, where choosing the selected one again deselects it', async () => {
    const ivvr = { ...cat(30, '彩铃场景'), dimension: 'ivvr' };
    const size = { ...cat(50, '竖屏'), dimension: 'size' };
    const { get } = serve([tpl(1)], [...CATEGORIES, ivvr, size]);
    renderApp('/template-select', SIGNED_IN);
    const firsts = await screen.findAllByTestId('category-first');
    expect(firsts.map((n) => n.textContent)).toEqual(['行业', '用途']);
    fireEvent.click(screen.getByText('行业'));
    fireEvent.click(screen.getByRole('tab', { name: 'IVVR 模板' }));
    await waitFor(() => expect(screen.getAllByTestId('category-first').map((n) => n.textContent)).toEqual(['彩铃场景']));
    expect(screen.queryAllByTestId('category-second')).toHaveLength(0);
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1, kind: 'ivvr' }));
    fireEvent.click(screen.getByText('彩铃场景'));
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1, kind: 'ivvr', categoryId: 30 }));
    fireEvent.click(screen.getByText('彩铃场景'));
    await waitFor(() => expect(listCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1, kind: 'ivvr' }));
  });

  it('shows a collection named in the address: its heading and its templates in its order, then all templates again', async () => {
    const summer = collection(5, { name: '夏日专题', description: '清凉一夏', published: true, templateIds: [3, 1], templateCount: 2 });
    const { get } = serve([tpl(1), tpl(2), tpl(3)], CATEGORIES, [summer]);
    const { router } = renderApp('/template-select?collection=5', SIGNED_IN);
    const heading = await screen.findByTestId('template-collection-heading');
    expect(heading).toHaveTextContent('夏日专题');
    expect(heading).toHaveTextContent('清凉一夏');
    await screen.findByTestId('template-3');
    expect(screen.getAllByTestId(/^template-\d+$/).map((n) => n.getAttribute('data-testid'))).toEqual(['template-3', 'template-1']);
    expect(get).toHaveBeenCalledWith('/collection/5', undefined, { silent: true });
    expect(listCalls(get)).toHaveLength(0);
    expect(screen.getByTestId('template-collection-chip-5')).toHaveClass('ant-tag-checkable-checked');

    fireEvent.click(screen.getByTestId('template-collection-back'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByTestId('template-2')).toBeInTheDocument();
    expect(screen.queryByTestId('template-collection-heading')).toBeNull();
  });

  it('offers chips of the published topics, cases and industries that show one collection at a time', async () => {
    const collections = [
      collection(5, { name: '夏日专题', published: true, templateIds: [2] }),
      collection(6, { kind: 'case', name: '餐饮案例', published: true, templateIds: [1, 3] }),
      collection(7, { kind: 'industry', name: '教育行业', published: true, templateIds: [3] }),
    ];
    serve([tpl(1), tpl(2), tpl(3)], CATEGORIES, collections);
    const { router } = renderApp('/template-select', SIGNED_IN);
    const chips = await screen.findByTestId('template-collections');
    expect(chips).toHaveTextContent('专题夏日专题');
    expect(chips).toHaveTextContent('案例餐饮案例');
    expect(chips).toHaveTextContent('行业教育行业');
    await screen.findByTestId('template-2');

    fireEvent.click(screen.getByTestId('template-collection-chip-6'));
    await waitFor(() => expect(router.state.location.search).toBe('?collection=6'));
    expect(await screen.findByTestId('template-collection-heading')).toHaveTextContent('餐饮案例');
    await waitFor(() => expect(screen.getAllByTestId(/^template-\d+$/).map((n) => n.getAttribute('data-testid'))).toEqual(['template-1', 'template-3']));

    fireEvent.click(screen.getByTestId('template-collection-chip-6'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByTestId('template-2')).toBeInTheDocument();
  });

  it('says so when the collection in the address is withdrawn', async () => {
    serve([tpl(1)], CATEGORIES, []);
    renderApp('/template-select?collection=9', SIGNED_IN);
    expect(await screen.findByTestId('template-collection-gone')).toHaveTextContent('这组模板已下线或不存在');
    expect(screen.queryByTestId('template-collections')).toBeNull();
    fireEvent.click(screen.getByTestId('template-collection-back'));
    expect(await screen.findByTestId('template-1')).toBeInTheDocument();
  });

  it('asks a visitor to sign in instead of listing templates', async () => {
    const { get } = serve([tpl(1)]);
    renderApp('/template-select');
    expect(await screen.findByTestId('template-signin')).toHaveTextContent('登录后即可浏览和使用模板');
    expect(await screen.findAllByTestId('category-first')).toHaveLength(2);
    expect(listCalls(get)).toHaveLength(0);
  });

  it('shows the empty state when nothing matches', async () => {
    serve([]);
    renderApp('/template-select', SIGNED_IN);
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('这里还没有内容，去创作吧');
  });

  it('offers a retry when the categories do not load, and still lists templates', async () => {
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/system/info') return SYSTEM_INFO;
      if (url === '/template/list') return { total: 1, list: [tpl(3)] };
      throw new Error('down');
    });
    renderApp('/template-select', SIGNED_IN);
    expect(await screen.findByTestId('category-error')).toBeInTheDocument();
    expect(await screen.findByTestId('template-3')).toBeInTheDocument();
  });

  it('fills a template: text within its length, a picture from my materials, then opens the new work in the editor', async () => {
    const { post } = serve([tpl(7)]);
    const { router } = renderApp('/template-select', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('use-7'));
    const text = await screen.findByTestId('slot-text-t1');
    expect(text).toHaveValue('原文字');

    fireEvent.change(text, { target: { value: '太长的一段文字' } });
    fireEvent.click(screen.getByTestId('fill-edit'));
    expect(await screen.findByText('最多 4 个字')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalledWith('/template/fill', expect.anything());

    fireEvent.change(text, { target: { value: '新年好' } });
    const own = within(screen.getByTestId('slot-media-p1'));
    expect(own.getByTestId('slot-picture')).toHaveAttribute('src', '/tpl/own.png');
    expect(own.getByTestId('slot-media-name')).toHaveTextContent('保留模板原内容');
    expect(within(screen.getByTestId('slot-media-v1')).queryByTestId('slot-picture')).toBeNull();
    fireEvent.click(screen.getByTestId('slot-pick-p1'));
    fireEvent.click(await screen.findByTestId('material-m1'));
    await waitFor(() => expect(within(screen.getByTestId('slot-media-p1')).getByTestId('slot-media-name')).toHaveTextContent('我的照片'));
    expect(within(screen.getByTestId('slot-media-p1')).getByTestId('slot-picture')).toHaveAttribute('src', '/files/m1.jpg');
    expect(within(screen.getByTestId('slot-media-v1')).getByTestId('slot-media-name')).toHaveTextContent('保留模板原内容');
    expect(post).toHaveBeenCalledWith('/material/ofuser', expect.objectContaining({ type: 'picture' }));

    fireEvent.click(screen.getByTestId('fill-edit'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/template/fill', {
        templateId: 7,
        name: '模板7',
        replaces: [
          { id: 't1', replaceContent: '新年好' },
          { id: 'p1', replaceContent: '/files/m1.png?sig=x' },
        ],
      }),
    );
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/diy?taskId=55'));
    expect(await screen.findByText('已生成作品「模板7」')).toBeInTheDocument();
  });
});
