import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { ManagedUser } from '@/api/manageUsers';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const CREATOR = { ...SIGNED_IN, roleId: 7 };

const row = (userId: number, mail: string, operatorLevel: number, role = 'CREATE_VIDEO', disabled = false): ManagedUser => ({
  userId,
  mail,
  operatorLevel,
  role,
  disabled,
  createTime: '2026-11-01 10:00:00',
});

function serve(rows: ManagedUser[], total = rows.length) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/manage/users') {
      const keyword = String(params?.keyword ?? '');
      const list = rows.filter((r) => r.mail.includes(keyword));
      return { total: keyword ? list.length : total, list };
    }
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockResolvedValue(null);
  return { get, post };
}

const usersCalls = (get: jest.SpyInstance) => get.mock.calls.filter(([url]) => url === '/manage/users').map(([, params]) => params);

afterEach(() => jest.restoreAllMocks());

describe('UsersPage', () => {
  it('is for administrators only: others get the login-expired handling', async () => {
    serve([]);
    renderApp('/eb-maintain/users', CREATOR);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it('lists users with level, derived role and disabled state, and pages', async () => {
    const { get } = serve([row(1, 'a@x.cn', 0, 'CREATE_VIDEO'), row(2, 'b@x.cn', 3, 'TEMPLATE_MANAGER', true)], 25);
    renderApp('/eb-maintain/users', ADMIN);
    expect(await screen.findByText('a@x.cn')).toBeInTheDocument();
    expect(screen.getByTestId('role-2')).toHaveTextContent('管理者');
    expect(screen.getByTestId('role-2')).toHaveAttribute('title', 'TEMPLATE_MANAGER');
    expect(within(screen.getByTestId('level-2')).getByText('3 · 运营经理')).toBeInTheDocument();
    expect(screen.getByTestId('disabled-2')).toBeChecked();
    expect(screen.getByTestId('disabled-1')).not.toBeChecked();
    expect(screen.getByText('共 25 个用户')).toBeInTheDocument();
    expect(usersCalls(get)[0]).toEqual({ keyword: '', pageNum: 1, pageSize: 10 });
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(usersCalls(get).at(-1)).toEqual({ keyword: '', pageNum: 3, pageSize: 10 }));
  });

  it('searches from the first page', async () => {
    const { get } = serve([row(1, 'a@x.cn', 0), row(2, 'b@x.cn', 9)]);
    renderApp('/eb-maintain/users', ADMIN);
    await screen.findByText('a@x.cn');
    const search = screen.getByTestId('users-search').querySelector('input') as HTMLInputElement;
    fireEvent.change(search, { target: { value: ' b@ ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.queryByText('a@x.cn')).not.toBeInTheDocument());
    expect(screen.getByText('b@x.cn')).toBeInTheDocument();
    expect(usersCalls(get).at(-1)).toEqual({ keyword: 'b@', pageNum: 1, pageSize: 10 });
  });

  it('disables a user and reloads the list', async () => {
    const { get, post } = serve([row(1, 'a@x.cn', 0), row(2, 'b@x.cn', 9)]);
    renderApp('/eb-maintain/users', ADMIN);
    await screen.findByText('b@x.cn');
    const before = usersCalls(get).length;
    fireEvent.click(screen.getByTestId('disabled-2'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/manage/users/disable', { userId: 2, disabled: true }));
    await waitFor(() => expect(usersCalls(get).length).toBeGreaterThan(before));
  });

  it('offers the named levels 0–9 without 5 and changes a level', async () => {
    const { get, post } = serve([row(2, 'b@x.cn', 9)]);
    renderApp('/eb-maintain/users', ADMIN);
    await screen.findByText('b@x.cn');
    const before = usersCalls(get).length;
    // ByRole walks the accessibility tree of the whole table and is slow; the select's input is enough.
    fireEvent.mouseDown(screen.getByTestId('level-2').querySelector('input') as HTMLInputElement);
    await screen.findByTitle('0 · 管理员');
    const labels = Array.from(document.querySelectorAll('.ant-select-item-option')).map((o) => o.getAttribute('title'));
    expect(labels.map((l) => Number(l?.split(' ')[0]))).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
    fireEvent.click(screen.getByTitle('4 · 模板管理员'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/manage/users/level', { userId: 2, operatorLevel: 4 }));
    await waitFor(() => expect(usersCalls(get).length).toBeGreaterThan(before));
  });
});
