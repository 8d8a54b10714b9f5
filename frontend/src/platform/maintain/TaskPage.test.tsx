import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { AdminTask, Attempt, Farm, Migration, Setting } from '@/api/maintainFarm';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const CREATOR = { ...SIGNED_IN, roleId: 7 };

const task = (id: number, status: number, reason = ''): AdminTask => ({
  id,
  taskName: `作品${id}`,
  userId: `u${id}`,
  status,
  reason,
  toolType: '',
  createTime: '2026-11-01 10:00:00',
  updateTime: '2026-11-01 10:05:00',
});

const attempt: Attempt = { jobId: 'job-aaaa-1', attempt: 1, state: 'failed', queuedTime: 'q', startedTime: 's', endedTime: 'e', error: 'decoder crashed' };
const farm: Farm = { maintenance: false, changedBy: '', changedTime: '', queued: 2, running: 1, version: '0.1.0 (abc123)' };
const settings: Setting[] = [
  { key: 'toolbox.enabled', value: 'true', kind: 'switch', min: 0, max: 1, defaultValue: 'true' },
  { key: 'toolbox.maxActivePerUser', value: '20', kind: 'number', min: 1, max: 50, defaultValue: '20' },
];

const migrations: Migration[] = [
  { service: 'auth', name: 'm20260101_000001_users', applied: true, appliedTime: '2026-11-01 10:00:00', known: true },
  { service: 'auth', name: 'm20260201_000002_roles', applied: true, appliedTime: '2026-11-02 10:00:00', known: true },
  { service: 'task', name: 'm20260101_000001_tasks', applied: true, appliedTime: '2026-11-01 10:00:00', known: true },
  { service: 'task', name: 'm20261128_000014_market', applied: false, appliedTime: '', known: true },
  { service: 'ring', name: 'm20260101_000001_rings', applied: true, appliedTime: '2026-11-01 10:00:00', known: true },
  { service: 'ring', name: 'm20270101_000009_later', applied: true, appliedTime: '2027-01-01 10:00:00', known: false },
];

function serve(rows: AdminTask[]) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/maintain/task/list') return { total: rows.length, list: rows };
    if (url.startsWith('/maintain/task/attempts/')) return [attempt];
    if (url === '/maintain/audit') return [{ actor: 'admin1', action: 'requeue', item: 'task:9', before: 'error', after: 'wait', time: 't' }];
    if (url === '/maintain/farm') return farm;
    if (url === '/maintain/migrations') return migrations;
    if (url === '/maintain/config') return settings;
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockResolvedValue({ jobId: 'job-2' });
  return { get, post };
}

afterEach(() => jest.restoreAllMocks());

describe('maintenance farm pages', () => {
  it('are for administrators only', async () => {
    serve([]);
    renderApp('/eb-maintain/task', CREATOR);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it('requeue a failed task only, and show its attempts and audit trail', async () => {
    const { post } = serve([task(9, 9, 'decoder crashed'), task(10, 10)]);
    renderApp('/eb-maintain/task', ADMIN);
    expect(await screen.findByTestId('status-9')).toHaveTextContent('失败');
    expect(screen.getByTestId('requeue-10')).toBeDisabled();
    fireEvent.click(screen.getByTestId('requeue-9'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/maintain/task/requeue', { taskId: 9 }));
    fireEvent.click(screen.getByTestId('attempts-9'));
    expect(await screen.findByText('decoder crashed', { selector: 'td span' })).toBeInTheDocument();
    expect(await screen.findByText('admin1')).toBeInTheDocument();
  });

  it('show the version and the draining farm, and switch maintenance on', async () => {
    const { post } = serve([]);
    renderApp('/eb-maintain/upgrade', ADMIN);
    expect(await screen.findByText('0.1.0 (abc123)')).toBeInTheDocument();
    expect(screen.getByTestId('maintenance-state')).toHaveTextContent('已关闭');
    fireEvent.click(screen.getByTestId('maintenance-switch'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s?定/ }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/maintain/farm/maintenance', { maintenance: true }));
  });

  it("list each service's migrations: up to date, pending, or applied by a newer version", async () => {
    serve([]);
    renderApp('/eb-maintain/upgrade', ADMIN);
    expect(await screen.findByTestId('migration-state-auth')).toHaveTextContent('已是最新');
    expect(screen.getByText('m20260201_000002_roles · 2026-11-02 10:00:00')).toBeInTheDocument();
    expect(screen.getByTestId('migration-state-task')).toHaveTextContent('待执行：m20261128_000014_market');
    expect(screen.getByTestId('migration-state-ring')).toHaveTextContent('由更新版本执行：m20270101_000009_later');
    expect(screen.getByTestId('migration-state-ring')).toHaveTextContent('已是最新');
  });

  it('change a number setting', async () => {
    const { post } = serve([]);
    renderApp('/eb-maintain/config', ADMIN);
    const input = (await screen.findByTestId('value-toolbox-maxActivePerUser')).querySelector('input') ?? screen.getByTestId('value-toolbox-maxActivePerUser');
    fireEvent.change(input, { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('save-toolbox-maxActivePerUser'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/maintain/config', { key: 'toolbox.maxActivePerUser', value: '3' }, { silent: true }));
  });
});
