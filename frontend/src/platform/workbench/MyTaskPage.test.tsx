import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { TaskState, TaskSummary } from '@/api/videoTask';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const task = (id: number, status: number, taskName = `任务${id}`): TaskSummary => ({
  id,
  taskName,
  status,
  reason: status === 9 ? '素材缺失' : '',
  videoUrl: status === 10 ? `/diyvrbt/videotask/download?taskId=${id}` : '',
  coverUrl: status === 10 ? `/diyvrbt/videotask/cover?taskId=${id}` : '',
});

const state = (taskId: number, percent: number, status: number, stage: string): TaskState => ({
  taskId,
  status,
  percent,
  stage,
  framesDone: Math.round(percent * 1.5),
  framesTotal: 150,
  etaSeconds: 75,
  videoRelativePath: '',
  reason: '',
});

function sse(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
    },
  });
}

function serve(list: TaskSummary[], options: { stream?: () => Promise<ReadableStream<Uint8Array>>; poll?: TaskState } = {}) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/videotask/mine') return { total: list.length, list };
    if (url === '/videotask/state' && options.poll) return { ...options.poll, taskId: params?.taskId };
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/videotask/runtask') return { jobId: 'job-1', status: 0 };
    if (url === '/v2/videotask/cancelTask') return { cancelled: [Number(body.taskIds)] };
    throw new Error(`unexpected POST ${url}`);
  });
  const stream = jest
    .spyOn(api, 'stream')
    .mockImplementation(options.stream ?? (() => Promise.reject(new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' }))));
  return { get, post, stream };
}

afterEach(() => jest.restoreAllMocks());

describe('MyTaskPage', () => {
  it('lists tasks with a status tag for every code', async () => {
    serve([task(1, -1), task(2, 0), task(3, 1), task(4, 9), task(5, 10), task(6, 11)], {
      stream: () => new Promise(() => undefined),
    });
    renderApp('/workbench/my-task', SIGNED_IN);
    await screen.findByText('任务1');
    expect(screen.getAllByTestId('task-status').map((n) => n.textContent)).toEqual(['新建', '排队中', '合成中', '失败', '已完成', '已取消']);
    expect(screen.getByText('共 6 个任务')).toBeInTheDocument();
    expect(screen.getByTestId('task-reason')).toHaveTextContent('素材缺失');
  });

  it('shows each video\'s length and, once rendered with sound, its loudness', async () => {
    serve([{ ...task(5, 10), duration: 75, loudness: -16.04 }, { ...task(6, -1), duration: 6, loudness: null }]);
    renderApp('/workbench/my-task', SIGNED_IN);
    await screen.findByText('任务5');
    expect(screen.getAllByTestId('task-duration').map((n) => n.textContent)).toEqual(['1:15', '0:06']);
    expect(screen.getAllByTestId('task-loudness').map((n) => n.textContent)).toEqual([' · -16.0 LUFS']);
  });

  it('shows the cover and a download link carrying a media ticket for a finished task', async () => {
    const { post } = serve([task(5, 10)]);
    renderApp('/workbench/my-task', SIGNED_IN);
    const cover = await screen.findByTestId('task-cover');
    expect(cover).toHaveAttribute('src', '/diyvrbt/videotask/cover?taskId=5&ticket=tk-5');
    await waitFor(() => expect(screen.getByTestId('download-5')).toHaveAttribute('href', '/diyvrbt/videotask/download?taskId=5&ticket=tk-5'));
    expect(post.mock.calls.filter(([url]) => url === '/videotask/mediaTicket')).toHaveLength(1);
  });

  it('previews the video in a modal with the ticket in its src', async () => {
    serve([task(5, 10)]);
    renderApp('/workbench/my-task', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('preview-5'));
    const video = await screen.findByTestId('task-video');
    expect(video).toHaveAttribute('src', '/diyvrbt/videotask/download?taskId=5&ticket=tk-5');
    expect(video).toHaveAttribute('controls');
  });

  it('runs a task, says so, and shows stage, percent, frames and ETA from the event stream', async () => {
    const events =
      `id: 1\nevent: progress\ndata: ${JSON.stringify(state(7, 10, 1, 'fetching'))}\n\n` +
      `: keep-alive\n\nid: 2\nevent: progress\ndata: ${JSON.stringify(state(7, 40, 1, 'rendering'))}\n\n`;
    const { post, stream } = serve([task(7, -1)], { stream: () => Promise.resolve(sse(events)) });
    renderApp('/workbench/my-task', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('run-7'));
    expect(await screen.findByText('任务已在后台运行，进度会实时更新')).toBeInTheDocument();
    expect(post).toHaveBeenCalledWith('/videotask/runtask', { taskId: 7 });
    await waitFor(() => expect(screen.getByTestId('task-stage')).toHaveTextContent('渲染画面'));
    const progress = screen.getByTestId('task-progress');
    expect(progress).toHaveTextContent('40%');
    expect(within(progress).getByTestId('task-frames')).toHaveTextContent('帧 60/150');
    expect(within(progress).getByTestId('task-eta')).toHaveTextContent('剩余约 1:15');
    expect(screen.getByTestId('task-status')).toHaveTextContent('合成中');
    expect(stream).toHaveBeenCalledWith('/videotask/events', expect.objectContaining({ params: { taskId: 7 }, silent: true }));
    expect(screen.getByTestId('cancel-7')).toBeInTheDocument();
  });

  it('falls back to polling the state when the stream is not available', async () => {
    serve([task(8, 1)], { poll: state(8, 100, 10, 'done') });
    renderApp('/workbench/my-task', SIGNED_IN);
    await waitFor(() => expect(screen.getByTestId('task-stage')).toHaveTextContent('合成完成'));
    expect(screen.getByTestId('task-status')).toHaveTextContent('已完成');
  });

  it('cancels a running task after confirmation', async () => {
    const { post } = serve([task(2, 0)], { stream: () => new Promise(() => undefined) });
    renderApp('/workbench/my-task', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('cancel-2'));
    fireEvent.click(await screen.findByRole('button', { name: /^确\s?定$/ }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/v2/videotask/cancelTask', { taskIds: '2' }));
    expect(await screen.findByText('任务已取消')).toBeInTheDocument();
  });

  it('shows the variant empty state when there are no tasks', async () => {
    serve([]);
    renderApp('/workbench/my-task', SIGNED_IN);
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('这里还没有内容，去创作吧');
  });
});
