import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { queryKeys } from '@/api/keys';
import { applyLanguage } from '@/app/i18n';
import type { TaskSummary } from '@/api/videoTask';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const work = (id: number, status: number, change: Partial<TaskSummary> = {}): TaskSummary => ({
  id,
  taskName: `作品${id}`,
  status,
  reason: status === 9 ? '素材缺失' : '',
  videoUrl: status === 10 ? `/diyvrbt/videotask/download?taskId=${id}` : '',
  coverUrl: status === 10 ? `/diyvrbt/videotask/cover?taskId=${id}` : '',
  duration: 12,
  ...change,
});

function serve(all: TaskSummary[]) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/category/taskvideo') return { dataList: [] };
    if (url === '/videotask/mine') {
      // As GET /videotask/mine: `name` part of the name, `usedFor` (when sent) that use only.
      const name = typeof params?.name === 'string' ? params.name : '';
      const usedFor = typeof params?.usedFor === 'string' ? params.usedFor : null;
      const found = all.filter((t) => t.taskName.includes(name) && (usedFor === null || (t.usedFor ?? '') === usedFor));
      const pageNum = Number(params?.pageNum ?? 1);
      return { total: found.length, list: found.slice((pageNum - 1) * 10, pageNum * 10) };
    }
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/videotask/updateOneTask') return { ...work(Number(body.id), 10), taskName: body.name };
    if (url === '/videotask/delete') return null;
    if (url === '/videotask/duplicate') return 99;
    if (url === '/template/submit') return { id: 5, auditState: 'pending' };
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  return { get, post };
}

function mineCalls(get: jest.SpyInstance) {
  return get.mock.calls.filter(([url]) => url === '/videotask/mine').map(([, params]) => params as Record<string, unknown>);
}

/**
 * Presses OK on the popconfirm just opened: the last OK text in the page (a text query is much
 * cheaper than a role query on a whole page).
 */
async function confirmPopup(): Promise<void> {
  const texts = await screen.findAllByText(/^确\s?定$/);
  const last = texts[texts.length - 1];
  if (!last) throw new Error('no OK button');
  fireEvent.click(last.closest('button') ?? last);
}

// Each step re-renders a page of cards and antd popups; on the shared, loaded machine a whole
// journey can pass the default 30 s without anything being wrong.
jest.setTimeout(120_000);

afterEach(() => jest.restoreAllMocks());

describe('MyWorksPage', () => {
  it('shows works as cards with cover, name, duration, live state, failure reason and play/download', async () => {
    serve([work(1, 10), work(2, 9), work(3, 1)]);
    renderApp('/my-works', SIGNED_IN);
    const done = await screen.findByTestId('work-1');
    expect(within(done).getByTestId('work-name')).toHaveTextContent('作品1');
    expect(within(done).getByTestId('work-duration')).toHaveTextContent('0:12');
    await waitFor(() => expect(within(done).getByTestId('task-cover')).toHaveAttribute('src', '/diyvrbt/videotask/cover?taskId=1&ticket=tk-1'));
    expect(within(done).getByTestId('task-status')).toHaveTextContent('已完成');
    await waitFor(() => expect(within(done).getByTestId('download-1')).toHaveAttribute('href', '/diyvrbt/videotask/download?taskId=1&ticket=tk-1'));
    expect(within(screen.getByTestId('work-2')).getByTestId('task-reason')).toHaveTextContent('素材缺失');
    expect(within(screen.getByTestId('work-3')).getByTestId('task-status')).toHaveTextContent('合成中');
    fireEvent.click(within(done).getByTestId('preview-1'));
    expect(await screen.findByTestId('task-video')).toHaveAttribute('src', '/diyvrbt/videotask/download?taskId=1&ticket=tk-1');
  });

  it('fetches the list again when a followed render has finished, so the card gets its cover, preview and download', async () => {
    // The list was fetched while the server's row still said executing, with no video yet.
    const rows = [work(4, 1)];
    const { get } = serve(rows);
    const { queryClient } = renderApp('/my-works', SIGNED_IN);
    const card = await screen.findByTestId('work-4');
    expect(within(card).getByTestId('task-status')).toHaveTextContent('合成中');
    const before = mineCalls(get).length;
    // The render ends on the server; the progress watcher (here or in the editor) hears it.
    rows[0] = work(4, 10);
    const done = { taskId: 4, status: 10, percent: 100, stage: 'done', framesDone: 50, framesTotal: 50, etaSeconds: 0, videoRelativePath: 'v.mp4', reason: '' };
    act(() => void queryClient.setQueryData(queryKeys.videoTask.state(4), done));
    await waitFor(() => expect(mineCalls(get).length).toBeGreaterThan(before));
    await waitFor(() => expect(within(screen.getByTestId('work-4')).getByTestId('download-4')).toHaveAttribute('href', '/diyvrbt/videotask/download?taskId=4&ticket=tk-4'));
    expect(within(screen.getByTestId('work-4')).getByTestId('preview-4')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('work-4')).getByTestId('task-cover')).toHaveAttribute('src', '/diyvrbt/videotask/cover?taskId=4&ticket=tk-4'));
    // The row agrees now: nothing more is fetched.
    const after = mineCalls(get).length;
    await new Promise((r) => setTimeout(r, 50));
    expect(mineCalls(get)).toHaveLength(after);
  });

  it('shows the stored default name 未命名 in the page\'s language, as the editor does; a name of the user\'s own as it is', async () => {
    serve([work(5, 10, { taskName: '未命名' }), work(6, 10, { taskName: '未命名的广告' })]);
    await act(() => applyLanguage('en-US'));
    try {
      renderApp('/my-works', SIGNED_IN);
      expect(within(await screen.findByTestId('work-5')).getByTestId('work-name')).toHaveTextContent(/^Untitled$/);
      expect(within(screen.getByTestId('work-6')).getByTestId('work-name')).toHaveTextContent('未命名的广告');
      fireEvent.click(within(screen.getByTestId('work-5')).getByTestId('preview-5'));
      expect(await screen.findByText('Untitled', { selector: '.ant-modal-title' })).toBeInTheDocument();
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
  });

  it('opens a work in the editor by its task id', async () => {
    serve([work(1, 10)]);
    renderApp('/my-works', SIGNED_IN);
    const edit = await screen.findByTestId('edit-1');
    expect(edit).toBeEnabled();
    expect(edit.closest('a')).toHaveAttribute('href', '/diy?taskId=1');
  });

  it('searches by name and pages by 10', async () => {
    const all = Array.from({ length: 12 }, (_, i) => work(i + 1, -1, { taskName: i === 11 ? '春节海报' : `作品${i + 1}` }));
    const { get } = serve(all);
    renderApp('/my-works', SIGNED_IN);
    await screen.findByTestId('work-1');
    expect(mineCalls(get)[0]).toEqual({ pageNum: 1, pageSize: 10 });
    expect(screen.getByText('共 12 个作品')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByTestId('work-12')).toBeInTheDocument();
    expect(mineCalls(get).at(-1)).toEqual({ pageNum: 2, pageSize: 10 });
    const search = within(screen.getByTestId('works-search')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: ' 春节 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(mineCalls(get).at(-1)).toEqual({ pageNum: 1, pageSize: 10, name: '春节' }));
    expect(await screen.findByText('共 1 个作品')).toBeInTheDocument();
  });

  it('renames a work', async () => {
    const { post } = serve([work(4, -1)]);
    renderApp('/my-works', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('rename-4'));
    fireEvent.change(await screen.findByTestId('rename-input'), { target: { value: '新年快乐' } });
    fireEvent.click(screen.getByTestId('rename-ok'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/videotask/updateOneTask', { id: 4, name: '新年快乐' }));
    expect(await screen.findByText('已重命名')).toBeInTheDocument();
  });

  it('duplicates a work', async () => {
    const { post } = serve([work(4, -1)]);
    renderApp('/my-works', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('duplicate-4'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/videotask/duplicate', { taskId: 4 }));
    expect(await screen.findByText('已复制作品')).toBeInTheDocument();
  });

  it('deletes a work after confirmation', async () => {
    const { post } = serve([work(4, -1)]);
    renderApp('/my-works', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('delete-4'));
    expect(post).not.toHaveBeenCalledWith('/videotask/delete', expect.anything());
    await confirmPopup();
    await waitFor(() => expect(post).toHaveBeenCalledWith('/videotask/delete', { taskId: 4 }));
    expect(await screen.findByText('作品已删除')).toBeInTheDocument();
  });

  it('shows the empty state when there are no works', async () => {
    serve([]);
    renderApp('/my-works', SIGNED_IN);
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('这里还没有内容，去创作吧');
  });

  it('submits a work as a template with its kind', async () => {
    const { post } = serve([work(4, 10, { sizeCategoryId: 50 })]);
    renderApp('/my-works', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('submit-template-4'));
    expect(await screen.findByText('提交为模板：作品4')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('submit-ok'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/submit', { taskId: 4, kind: 'classic', categoryIds: [], sizeCategoryId: 50 }));
    expect(await screen.findByText('已提交，等待审核')).toBeInTheDocument();
  });

  it('opens the player of the work `?preview=` names (a work just delivered), once', async () => {
    serve([work(7, 10), work(3, 10)]);
    renderApp('/qs/mydiy?preview=7', SIGNED_IN);
    const video = await screen.findByTestId('task-video');
    expect(video).toHaveAttribute('src', '/diyvrbt/videotask/download?taskId=7&ticket=tk-7');
  });

  it('lists only DIY works under /mydiyring', async () => {
    const { get } = serve([work(1, 10, { usedFor: '' }), work(2, 10, { usedFor: 'TASK_TEMPLATE' })]);
    renderApp('/mydiyring', SIGNED_IN);
    expect(await screen.findByTestId('work-1')).toBeInTheDocument();
    expect(screen.queryByTestId('work-2')).toBeNull();
    expect(screen.getByText('我的 DIY 彩铃')).toBeInTheDocument();
    expect(mineCalls(get)[0]).toEqual({ pageNum: 1, pageSize: 10, usedFor: '' });
  });
});
