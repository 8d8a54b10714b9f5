import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Material } from '@/api/material';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import { material, page } from '@/test/materials';
import { SIGNED_IN } from '@/test/renderApp';
import { applyLanguage } from '@/app/i18n';
import { MaterialPanel } from './MaterialPanel';

interface Served {
  user?: Material[];
  library?: (body: Record<string, unknown>) => Material[];
  favourites?: { id: string; type: string }[];
}

function serve({ user = [], library = () => [], favourites = [] }: Served) {
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return page(user);
    if (url === '/material/ofdefault') return page(library(body));
    if (url === '/favorite/list') return favourites.filter((f) => f.type === body.type).map((f) => ({ ...f, phoneNumber: '13800000000' }));
    if (url === '/favorite/add' || url === '/favorite/remove') return null;
    if (url === '/material/getVideoState') return { state: 'processing', failReason: '' };
    throw new Error(`unexpected POST ${url}`);
  });
}

function renderPanel(onPick = jest.fn()) {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <Providers store={store} queryClient={queryClient}>
      <MaterialPanel onPick={onPick} />
    </Providers>,
  );
  return onPick;
}

function calls(post: jest.SpyInstance, url: string) {
  return post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);
}

// Each step re-renders a page of cards and antd popups; on the shared, loaded machine a whole
// journey can pass the default 30 s without anything being wrong.
jest.setTimeout(120_000);

afterEach(() => jest.restoreAllMocks());

describe('MaterialPanel', () => {
  it('lists my uploads and picks only ready materials; a failed one shows its reason', async () => {
    serve({
      user: [
        material('r'),
        material('p', { state: 'processing', coverUrl: '' }),
        material('f', { state: 'failed', failReason: '不支持的编码 hevc' }),
      ],
    });
    const onPick = renderPanel();
    fireEvent.click(await screen.findByText('素材r'));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 'r' }));
    fireEvent.click(screen.getByText('素材p'));
    fireEvent.click(screen.getByText('素材f'));
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(within(screen.getByTestId('material-f')).getByTestId('material-fail-reason')).toHaveTextContent('不支持的编码 hevc');
    expect(screen.getByTestId('material-upload-button')).toBeInTheDocument();
  });

  it('picks a material whose probe ended though the list, fetched before, still says processing', async () => {
    const post = serve({ user: [material('late', { state: 'processing' })] });
    const listed = post.getMockImplementation();
    post.mockImplementation(async (url: string, data?: unknown) => (url === '/material/getVideoState' ? { state: 'ready', failReason: '' } : listed?.(url, data)));
    const onPick = renderPanel();
    await waitFor(() => expect(within(screen.getByTestId('material-late')).getByTestId('material-state')).toHaveAttribute('data-state', 'ready'));
    await waitFor(() => expect(calls(post, '/material/ofuser').length).toBeGreaterThan(1));
    fireEvent.click(screen.getByText('素材late'));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 'late', state: 'ready' }));
  });

  it("wraps its group tabs onto a second row rather than cutting one off or hiding some behind '…'", async () => {
    serve({});
    renderPanel();
    await screen.findByRole('tab', { name: '我的' });
    const rules = Array.from(screen.getByTestId('material-panel').querySelectorAll('style')).map((el) => el.textContent ?? '').join('\n');
    expect(rules).toMatch(/\.ant-tabs-nav-list \{[^}]*flex-wrap: wrap/);
    expect(rules).toMatch(/\.ant-tabs-nav-operations[^{]*\{ display: none !important; \}/);
  });

  it("shows the starter library's names in the page's language", async () => {
    await applyLanguage('en-US');
    try {
      serve({ user: [material('u1', { materialName: '渐变·晨曦' }), material('u2', { materialName: 'holiday.mp4' })] });
      renderPanel();
      expect(await screen.findByText('Gradient · Dawn')).toBeInTheDocument();
      expect(screen.getByText('holiday.mp4')).toBeInTheDocument();
    } finally {
      await applyLanguage('zh-CN');
    }
  });

  it('asks the system library for each kind, with orientation and sort', async () => {
    const post = serve({ library: (body) => [material(`${String(body.type ?? 'mask')}-1`, { type: String(body.type ?? 'picture') })] });
    renderPanel();
    fireEvent.click(await screen.findByRole('tab', { name: '文字' }));
    await screen.findByText('素材artWord-1');
    expect(calls(post, '/material/ofdefault').at(-1)).toEqual({
      pageNum: 1,
      pageSize: 30,
      categoryId: -1,
      type: 'artWord',
      horizontalOrVertical: undefined,
      orderType: 'newest',
    });
    fireEvent.click(within(screen.getByTestId('panel-kind')).getByText('动效字'));
    await screen.findByText('素材dynamicWord-1');
    fireEvent.click(screen.getByRole('tab', { name: '图片' }));
    fireEvent.click(within(await screen.findByTestId('panel-kind')).getByText('蒙版'));
    await screen.findByText('素材mask-1');
    expect(calls(post, '/material/ofdefault').at(-1)).toMatchObject({ categoryId: 2003, type: undefined });
    fireEvent.click(within(screen.getByTestId('panel-kind')).getByText('动态'));
    await waitFor(() => expect(calls(post, '/material/ofdefault').at(-1)).toMatchObject({ type: 'gif' }));
    fireEvent.click(within(screen.getByTestId('panel-order')).getByText('最热'));
    fireEvent.click(within(screen.getByTestId('panel-orientation')).getByText('竖版'));
    await waitFor(() => expect(calls(post, '/material/ofdefault').at(-1)).toMatchObject({ type: 'gif', horizontalOrVertical: 1, orderType: 'hottest' }));
  });

  it('splits backgrounds into still and moving ones', async () => {
    serve({ library: () => [material('still', { type: 'backgrounds' }), material('moving', { type: 'backgrounds', duration: 4 })] });
    renderPanel();
    fireEvent.click(await screen.findByRole('tab', { name: '背景' }));
    expect(await screen.findByText('素材still')).toBeInTheDocument();
    expect(screen.queryByText('素材moving')).not.toBeInTheDocument();
    fireEvent.click(within(screen.getByTestId('panel-kind')).getByText('动态'));
    expect(await screen.findByText('素材moving')).toBeInTheDocument();
    expect(screen.queryByText('素材still')).not.toBeInTheDocument();
  });

  it('filters backgrounds by style class', async () => {
    const post = serve({
      library: () => [material('gradient', { type: 'backgrounds', styleId: 1 }), material('tech', { type: 'backgrounds', styleId: 6 })],
    });
    renderPanel();
    fireEvent.click(await screen.findByRole('tab', { name: '背景' }));
    expect(await screen.findByText('素材tech')).toBeInTheDocument();
    fireEvent.mouseDown(within(screen.getByTestId('panel-style')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('科技'));
    await waitFor(() => expect(calls(post, '/material/ofdefault').at(-1)).toMatchObject({ type: 'backgrounds', styleId: 6 }));
    await waitFor(() => expect(screen.queryByText('素材gradient')).not.toBeInTheDocument());
    expect(screen.getByText('素材tech')).toBeInTheDocument();
  });

  it('asks the starter library for buttons, atmosphere and border effects by category', async () => {
    const post = serve({ library: (body) => [material(`c${String(body.categoryId)}`, { type: 'specialEffects' })] });
    renderPanel();
    fireEvent.click(await screen.findByRole('tab', { name: '按钮' }));
    expect(await screen.findByText('素材c4001')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: '特效' }));
    fireEvent.click(within(await screen.findByTestId('panel-kind')).getByText('边框'));
    expect(await screen.findByText('素材c5002')).toBeInTheDocument();
    expect(calls(post, '/material/ofdefault').at(-1)).toMatchObject({ categoryId: 5002, type: 'specialEffects' });
  });

  it('says a kind with no source is not available, and asks nothing for it', async () => {
    const post = serve({});
    renderPanel();
    fireEvent.click(await screen.findByRole('tab', { name: '文字' }));
    fireEvent.click(within(await screen.findByTestId('panel-kind')).getByText('动画字'));
    expect(await screen.findByTestId('panel-not-available')).toHaveTextContent('动画字 暂未开放');
    expect(calls(post, '/material/ofdefault').every((b) => b.type === 'artWord')).toBe(true);
  });

  it('stars and unstars a material', async () => {
    const post = serve({ user: [material('a'), material('b')], favourites: [{ id: 'b', type: 'picture' }] });
    renderPanel();
    await screen.findByText('素材a');
    await waitFor(() => expect(screen.getByTestId('favourite-b')).toHaveAttribute('aria-pressed', 'true'));
    expect(calls(post, '/favorite/list')[0]).toEqual({ type: 'picture', phoneNumber: '13800000000' });
    fireEvent.click(screen.getByTestId('favourite-a'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/favorite/add', { id: 'a', type: 'picture', phoneNumber: '13800000000' }));
    expect(await screen.findByText('已收藏')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('favourite-b'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/favorite/remove', { id: 'b', type: 'picture', phoneNumber: '13800000000' }));
    expect(await screen.findByText('已取消收藏')).toBeInTheDocument();
  });
});
