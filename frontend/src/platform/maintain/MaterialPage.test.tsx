import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { Material } from '@/api/material';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const MANAGER = { ...SIGNED_IN, role: 'TEMPLATE_MANAGER' as const, roleId: 3 };

const row = (id: string, materialName: string, categoryId: number, openState: number, type = 'backgrounds'): Material =>
  ({ id, materialName, categoryId, openState, type, state: 'ready', failReason: '', coverUrl: '', styleId: -1, createTime: '' }) as unknown as Material;

function serve(rows: Material[]) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    throw new Error(`unexpected GET ${url}`);
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
    if (url === '/maintain/material/list') {
      const b = body as { categoryId?: number; openState?: number };
      const list = rows.filter((r) => (b.categoryId === undefined || r.categoryId === b.categoryId) && (b.openState === undefined || r.openState === b.openState));
      return { total: list.length, pageNum: 1, pageSize: 20, dataList: list };
    }
    if (url === '/maintain/material/upload') return { id: 'new' };
    return { changed: 1 };
  });
}

const listCalls = (post: jest.SpyInstance) => post.mock.calls.filter(([url]) => url === '/maintain/material/list').map(([, b]) => b);

afterEach(() => jest.restoreAllMocks());

describe('MaterialPage', () => {
  it('is the default page of the maintenance area, for administrators only', async () => {
    serve([]);
    renderApp('/eb-maintain/material', MANAGER);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it('lists system materials with their category and open state, and filters by category', async () => {
    const post = serve([row('a', '晚霞', 3001, 1), row('b', '旧按钮', 4001, 0, 'picture')]);
    renderApp('/eb-maintain/material', ADMIN);
    expect(await screen.findByTestId('system-name-a')).toHaveTextContent('晚霞');
    expect(screen.getByTestId('open-a')).toHaveTextContent('上架中');
    expect(screen.getByTestId('open-b')).toHaveTextContent('已下架');
    expect(screen.getByText('静态背景')).toBeInTheDocument();
    expect(screen.getByText('共 2 个系统素材')).toBeInTheDocument();
    expect(listCalls(post)[0]).toEqual({ pageNum: 1, pageSize: 20 });
    fireEvent.mouseDown(screen.getByTestId('filter-category').querySelector('input') as HTMLInputElement);
    fireEvent.click(await screen.findByTitle('按钮样式'));
    await waitFor(() => expect(listCalls(post).at(-1)).toEqual({ categoryId: 4001, pageNum: 1, pageSize: 20 }));
    await waitFor(() => expect(screen.queryByTestId('system-name-a')).not.toBeInTheDocument());
  });

  it('retires after a warm-tip confirmation and offers again', async () => {
    const post = serve([row('a', '晚霞', 3001, 1), row('b', '旧按钮', 4001, 0, 'picture')]);
    renderApp('/eb-maintain/material', ADMIN);
    fireEvent.click(await screen.findByTestId('retire-a'));
    expect((await screen.findAllByText('温馨提示')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('confirm-retire'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/maintain/material/update', { materialIds: 'a', openState: 0 }, { silent: true }));
    fireEvent.click(screen.getByTestId('restore-b'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/maintain/material/update', { materialIds: 'b', openState: 1 }, { silent: true }));
  });

  it('uploads into a starter category, with the category before the file', async () => {
    const post = serve([]);
    renderApp('/eb-maintain/material', ADMIN);
    fireEvent.click(await screen.findByTestId('system-upload'));
    expect(screen.getByTestId('upload-pick')).toBeDisabled();
    fireEvent.mouseDown(screen.getByTestId('upload-category').querySelector('input') as HTMLInputElement);
    fireEvent.click(await screen.findByTitle('静态背景 · 3001'));
    await waitFor(() => expect(screen.getByTestId('upload-pick')).not.toBeDisabled());
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('.png,.jpg,.jpeg,.bmp');
    const file = new File([new Uint8Array([1, 2, 3])], '晚霞.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    fireEvent.change(screen.getByTestId('upload-name'), { target: { value: '晚霞' } });
    fireEvent.click(screen.getByTestId('upload-ok'));
    await waitFor(() => expect(post.mock.calls.some(([url]) => url === '/maintain/material/upload')).toBe(true));
    const form = post.mock.calls.find(([url]) => url === '/maintain/material/upload')?.[1] as FormData;
    expect([form.get('categoryId'), form.get('materialName'), (form.get('uploadFile') as File).name]).toEqual(['3001', '晚霞', '晚霞.png']);
  }, 90_000);
});
