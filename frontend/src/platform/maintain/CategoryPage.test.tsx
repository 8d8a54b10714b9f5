import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { TaskVideoCategory } from '@/api/category';
import { ApiError } from '@/api/errors';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const CREATOR = { ...SIGNED_IN, roleId: 8 };

const cat = (categoryId: number, categoryName: string, higherUpId = -1, children: TaskVideoCategory[] = []): TaskVideoCategory => ({
  categoryId,
  categoryName,
  dimension: 'industry',
  higherUpId,
  push: false,
  children,
});

function serve(tree: TaskVideoCategory[], post: (url: string, body: Record<string, unknown>) => unknown = () => null) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/category/taskvideo') return { dataList: tree };
    throw new Error(`unexpected GET ${url}`);
  });
  const sent = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => post(url, body as Record<string, unknown>));
  return { get, post: sent };
}

const treeCalls = (get: jest.SpyInstance) => get.mock.calls.filter(([url]) => url === '/category/taskvideo').map(([, params]) => params);

afterEach(() => jest.restoreAllMocks());

describe('CategoryPage', () => {
  it('is for administrators only: others get the login-expired handling', async () => {
    serve([]);
    renderApp('/eb-maintain/category', CREATOR);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it('shows the tree of a dimension with its children open, and switches dimension', async () => {
    const { get } = serve([cat(1, '餐饮', -1, [cat(2, '茶饮', 1)])]);
    renderApp('/eb-maintain/category', ADMIN);
    expect(await screen.findByTestId('category-2')).toHaveTextContent('茶饮');
    expect(treeCalls(get)[0]).toEqual({ dimension: 'industry' });
    fireEvent.click(screen.getByRole('tab', { name: 'IVVR' }));
    await waitFor(() => expect(treeCalls(get).at(-1)).toEqual({ dimension: 'ivvr' }));
    expect(screen.queryByTestId('add-child-1')).not.toBeInTheDocument();
  });

  it('creates a subcategory and renames one', async () => {
    const { post } = serve([cat(1, '餐饮')]);
    renderApp('/eb-maintain/category', ADMIN);
    fireEvent.click(await screen.findByTestId('add-child-1'));
    fireEvent.change(await screen.findByTestId('name-input'), { target: { value: ' 茶饮 ' } });
    fireEvent.click(screen.getByTestId('name-ok'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/category/taskvideo', { categoryName: '茶饮', dimension: 'industry', higherUpId: 1 }, { silent: true }));
    await waitFor(() => expect(screen.queryByTestId('name-input')).not.toBeInTheDocument());
    fireEvent.click(screen.getByTestId('rename-1'));
    const input = await screen.findByTestId('name-input');
    expect(input).toHaveValue('餐饮');
    fireEvent.change(input, { target: { value: '餐饮美食' } });
    fireEvent.click(screen.getByTestId('name-ok'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/category/updatename', { categoryId: 1, categoryName: '餐饮美食' }, { silent: true }));
  });

  it('words a duplicate name and keeps the dialog open', async () => {
    serve([cat(1, '餐饮')], (url) => {
      if (url === '/category/taskvideo') throw new ApiError({ kind: 'business', url, code: 3000, desc: 'categoryName: `餐饮` already exists here', message: 'x' });
      return null;
    });
    renderApp('/eb-maintain/category', ADMIN);
    fireEvent.click(await screen.findByTestId('create-root'));
    fireEvent.change(await screen.findByTestId('name-input'), { target: { value: '餐饮' } });
    fireEvent.click(screen.getByTestId('name-ok'));
    expect(await screen.findByText('名称「餐饮」已存在，请换一个名称')).toBeInTheDocument();
    expect(screen.getByTestId('name-input')).toBeInTheDocument();
  });

  it('asks in a warm-tip dialog before deleting, and says where a category in use is used', async () => {
    const { post } = serve([cat(1, '餐饮')], (url) => {
      if (url === '/category/taskvideo/delete') {
        const desc = 'category `餐饮` is in use: 2 template(s) are filed under it or its children (开业, 春节); move them to another category first';
        throw new ApiError({ kind: 'business', url, code: 3000, desc, message: 'x' });
      }
      return null;
    });
    renderApp('/eb-maintain/category', ADMIN);
    fireEvent.click(await screen.findByTestId('delete-1'));
    expect((await screen.findAllByText('温馨提示')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/category/taskvideo/delete', { categoryId: 1 }, { silent: true }));
    expect(await screen.findByText(/有 2 个模板归在它或它的子分类下（开业, 春节）/)).toBeInTheDocument();
  });

  it('pushes a category to the home page', async () => {
    const { post } = serve([cat(1, '餐饮')]);
    renderApp('/eb-maintain/category', ADMIN);
    fireEvent.click(await screen.findByTestId('push-1'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/category/setPush', { ids: '1', push: true }, { silent: true }));
  });
});
