import { screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { MaterialQuota } from '@/api/quotaUsage';
import type { TaskSummary } from '@/api/videoTask';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { TOOL_TYPES, toolRun } from '@/test/toolboxFixtures';

const QUOTA: MaterialQuota = {
  usedBytes: 1.2 * 1024 ** 3,
  limitBytes: 5 * 1024 ** 3,
  materials: 37,
  limitMaterials: 2000,
  tenantUsedBytes: 0,
  tenantLimitBytes: 0,
  tenantMaterials: 0,
  tenantLimitMaterials: 0,
};

const task = (id: number, status: number, taskName = `作品${id}`) => ({ id, taskName, status, reason: '', videoUrl: '', coverUrl: '' }) as TaskSummary;

afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('/workbench', () => {
  it('shows storage against the quota, recent materials and works, and what is running with its progress', async () => {
    const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
      if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
      if (url === '/material/quota') return QUOTA;
      if (url === '/videotask/mine') return params?.taskState ? { total: 1, list: [task(2, 1)] } : { total: 2, list: [task(1, 10, '春游'), task(2, 1)] };
      if (url === '/videotask/state') return { taskId: params?.taskId, status: 1, percent: 42, stage: 'rendering', framesDone: 63, framesTotal: 150, etaSeconds: 10, videoRelativePath: '', reason: '' };
      if (url === '/toolbox/mine') return { total: 2, dataList: [toolRun(9, 1), toolRun(10, 10)] };
      if (url === '/toolbox/types') return TOOL_TYPES;
      throw new Error(`unexpected GET ${url}`);
    });
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/ofuser') return page([material('m1'), material('m2')]);
      if (url === '/videotask/mediaTicket') return { ticket: 'tk', expiresInSeconds: 600 };
      throw new Error(`unexpected POST ${url}`);
    });
    jest.spyOn(api, 'stream').mockRejectedValue(new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' }));
    renderApp('/workbench', SIGNED_IN);
    expect(await screen.findByTestId('workbench-storage-text')).toHaveTextContent('1.2 GB');
    expect(await screen.findByTestId('workbench-material-m2')).toHaveAttribute('href', '/workbench/my-material');
    expect(await screen.findByTestId('workbench-work-1')).toHaveAttribute('href', '/diy?taskId=1');
    expect(screen.getByTestId('workbench-work-1')).toHaveTextContent('春游');
    const running = screen.getByTestId('workbench-running');
    await waitFor(() => expect(within(running).getByTestId('workbench-render-2')).toBeInTheDocument());
    expect(within(running).getByTestId('workbench-tool-9')).toBeInTheDocument();
    expect(within(running).queryByTestId('workbench-tool-10')).toBeNull();
    await waitFor(() => expect(within(screen.getByTestId('workbench-render-2')).getByTestId('task-progress')).toHaveTextContent('42%'));
    // Running renders are asked for by state, so one beyond the first page of works still shows.
    expect(get).toHaveBeenCalledWith('/videotask/mine', expect.objectContaining({ taskState: '0,1' }));
  });
});
