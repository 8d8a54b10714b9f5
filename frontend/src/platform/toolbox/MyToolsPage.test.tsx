import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { ToolRun } from '@/api/toolbox';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { TOOL_TYPES, toolRun } from '@/test/toolboxFixtures';

jest.setTimeout(120_000);

const GIF = toolRun(1, 10, { outputs: [{ index: 0, kind: 'gif', name: '海边.gif', size: 600_000, durationMs: 3_000, width: 480, height: 270 }] });
const RUNNING = toolRun(2, 1, { type: 'VIDEO_COMPRESS', percent: 30, stage: 'encoding' });
const FAILED = toolRun(3, 9, { type: 'EXTRACT_AUDIO' });

function serve(list: ToolRun[]) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/toolbox/types') return { dataList: TOOL_TYPES };
    if (url === '/toolbox/mine') {
      const shown = params?.type ? list.filter((r) => r.type === params.type) : list;
      return { total: shown.length, dataList: shown };
    }
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/videotask/delete') return 1;
    if (url === '/v2/videotask/cancelTask') return { cancelled: [Number(body.taskIds)] };
    if (url === '/toolbox/use') return { materialId: 88 };
    throw new Error(`unexpected POST ${url}`);
  });
  // The running run's stream stays open without a word: the list's own state stands.
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  return { get, post };
}

afterEach(() => jest.restoreAllMocks());

async function confirm() {
  const texts = await screen.findAllByText(/^确\s?定$/);
  const last = texts[texts.length - 1];
  if (!last) throw new Error('no OK button');
  fireEvent.click(last.closest('button') ?? last);
}

describe('my tools', () => {
  it('lists my runs with tool, state, why one failed, and its progress', async () => {
    serve([GIF, RUNNING, FAILED]);
    renderApp('/my-tool', SIGNED_IN);
    const table = await screen.findByTestId('my-tools');
    await waitFor(() => expect(within(table).getAllByTestId('task-status')).toHaveLength(3));
    expect(within(table).getAllByTestId('task-status').map((el) => el.textContent)).toEqual(['已完成', '合成中', '失败']);
    expect(within(table).getByText('视频转 GIF')).toBeInTheDocument();
    expect(within(table).getByText('视频压缩')).toBeInTheDocument();
    expect(within(table).getByTestId('run-reason')).toHaveTextContent('输入没有视频流');
    expect(screen.getByTestId('cancel-2')).toBeInTheDocument();
    expect(screen.getByTestId('delete-1')).toBeInTheDocument();
  });

  it('filters by tool type through the server', async () => {
    const { get } = serve([GIF, RUNNING, FAILED]);
    renderApp('/qs/my-tools', SIGNED_IN);
    await screen.findByTestId('result-1');
    fireEvent.mouseDown(within(screen.getByTestId('my-tools-type')).getByRole('combobox'));
    const options = await screen.findAllByText('视频压缩');
    fireEvent.click(options[options.length - 1] as HTMLElement);
    await waitFor(() => expect(get).toHaveBeenCalledWith('/toolbox/mine', { pageNum: 1, pageSize: 20, type: 'VIDEO_COMPRESS' }));
    await waitFor(() => expect(screen.queryByTestId('result-1')).toBeNull());
    expect(screen.getByTestId('cancel-2')).toBeInTheDocument();
  });

  it('shows a result with its download and use in the editor', async () => {
    const { post } = serve([GIF]);
    renderApp('/my-tool', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('result-1'));
    const picture = await screen.findByTestId('output-picture');
    expect(picture).toHaveAttribute('src', '/diyvrbt/toolbox/file/1/0?ticket=tk-1');
    expect(screen.getByTestId('download-0')).toHaveAttribute('href', '/diyvrbt/toolbox/file/1/0?ticket=tk-1&download=1');
    fireEvent.click(screen.getByTestId('use-0'));
    expect(await screen.findByTestId('output-used')).toHaveAttribute('data-material-id', '88');
    expect(post).toHaveBeenCalledWith('/toolbox/use', { taskId: 1, index: 0 });
  });

  it('cancels a running run and deletes a finished one after confirmation', async () => {
    const { post } = serve([GIF, RUNNING]);
    renderApp('/my-tool', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('cancel-2'));
    await confirm();
    await waitFor(() => expect(post).toHaveBeenCalledWith('/v2/videotask/cancelTask', { taskIds: '2' }));
    fireEvent.click(screen.getByTestId('delete-1'));
    await confirm();
    await waitFor(() => expect(post).toHaveBeenCalledWith('/videotask/delete', { taskId: 1 }));
  });

  it('leads to the catalogue when there is nothing yet', async () => {
    serve([]);
    renderApp('/my-tool', SIGNED_IN);
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
  });
});

describe('the catalogue', () => {
  it('lists the shown tools, available ones first, the others with the reason worded from its code', async () => {
    serve([]);
    renderApp('/tools-index', SIGNED_IN);
    const gif = await screen.findByTestId('catalogue-video-to-gif');
    expect(gif).toHaveAttribute('href', '/tools/video-to-gif');
    expect(gif).toHaveAttribute('data-available', 'true');
    const beauty = screen.getByTestId('catalogue-intelligent-beauty');
    expect(beauty).toHaveAttribute('data-available', 'false');
    expect(within(beauty).getByTestId('catalogue-reason')).toHaveTextContent('这个工具还在建设中');
    expect(within(beauty).getByTestId('catalogue-reason')).not.toHaveTextContent('not built');
    expect(within(beauty).getByText('暂不可用')).toBeInTheDocument();
    // Hidden types are reachable by their page, not listed.
    expect(screen.queryByTestId('catalogue-ai-extract-portrait')).toBeNull();
    const order = [...document.querySelectorAll('[data-testid^="catalogue-"][data-available]')].map((el) => el.getAttribute('data-available'));
    expect(order).toEqual(['true', 'true', 'true', 'true', 'true', 'true', 'false']);
  });
});
