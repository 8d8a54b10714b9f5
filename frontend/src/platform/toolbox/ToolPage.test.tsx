import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { Material } from '@/api/material';
import type { ToolRun } from '@/api/toolbox';
import { applyLanguage, i18n } from '@/app/i18n';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { NO_QUOTA, TOOL_TYPES, toolRun, toolType } from '@/test/toolboxFixtures';
import { unavailableText } from './toolText';

// Whole-app renders with antd forms on a loaded machine can pass the default 30 s.
jest.setTimeout(120_000);

const CLIP = material('42', { type: 'video', materialName: '海边.mp4', duration: 10, hasAudio: true, fileSize: 8 * 1024 ** 2 });

/** A stream the test writes events into, one at a time. */
function controlledStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  let id = 0;
  return {
    body,
    send(event: string, data: object) {
      id += 1;
      controller?.enqueue(new TextEncoder().encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    close: () => controller?.close(),
  };
}

const state = (taskId: number, status: number, percent: number, stage: string, reason = '') => ({
  taskId,
  status,
  percent,
  stage,
  framesDone: 0,
  framesTotal: 0,
  etaSeconds: 0,
  videoRelativePath: '',
  reason,
});

interface Served {
  run?: (body: Record<string, unknown>) => Promise<unknown>;
  toolRun?: () => ToolRun;
  materials?: Material[];
  stream?: ReadableStream<Uint8Array>;
  /** The server's list of tools, when not the fixtures'. */
  types?: typeof TOOL_TYPES;
}

function serve(options: Served = {}) {
  const materials = options.materials ?? [CLIP];
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/toolbox/types') return { dataList: options.types ?? TOOL_TYPES };
    if (url.startsWith('/toolbox/run/') && options.toolRun) return options.toolRun();
    if (url === '/material/quota') return NO_QUOTA;
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return page(materials);
    const info = /^\/material\/info\/(.+)$/.exec(url);
    if (info) return materials.find((m) => m.id === info[1]);
    if (url === '/toolbox/run' && options.run) return options.run(body);
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/toolbox/use') return { materialId: 77 };
    if (url === '/v2/videotask/cancelTask') return { cancelled: [Number(body.taskIds)] };
    throw new Error(`unexpected POST ${url}`);
  });
  const stream = jest.spyOn(api, 'stream').mockImplementation(async () => options.stream ?? new ReadableStream());
  return { get, post, stream };
}

afterEach(() => jest.restoreAllMocks());

async function pickClip() {
  fireEvent.click(await screen.findByTestId('material-42'));
  await screen.findByTestId('input-preview');
}

describe('a tool page', () => {
  it('runs extract-audio: pick, options, run, stage and percent from the stream, the result, use in the editor', async () => {
    const events = controlledStream();
    let finished = false;
    const { post, stream } = serve({
      run: async () => ({ taskId: 9, jobId: 'job-9' }),
      toolRun: () =>
        finished
          ? toolRun(9, 10, { type: 'EXTRACT_AUDIO', outputs: [{ index: 0, kind: 'audio', name: '海边.wav', size: 1_764_000, durationMs: 10_000, width: 0, height: 0 }] })
          : toolRun(9, 1, { type: 'EXTRACT_AUDIO' }),
      stream: events.body,
    });
    renderApp('/tools/extract-audio', SIGNED_IN);
    expect(await screen.findByTestId('tool-no-input')).toHaveTextContent('请先在左侧选择或上传素材');
    await pickClip();
    fireEvent.click(within(screen.getByTestId('option-format')).getByText('WAV（无损）'));
    fireEvent.click(screen.getByTestId('tool-run-button'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/toolbox/run', { type: 'EXTRACT_AUDIO', materialIds: ['42'], params: { format: 'wav' } }, { silent: true }));

    await waitFor(() => expect(stream).toHaveBeenCalledWith('/videotask/events', expect.objectContaining({ params: { taskId: 9 } })));
    events.send('progress', state(9, 1, 55, 'encoding'));
    await waitFor(() => expect(screen.getByTestId('task-stage')).toHaveTextContent('编码视频'));
    expect(screen.getByTestId('task-progress')).toHaveTextContent('55%');
    expect(screen.getByTestId('tool-cancel')).toBeInTheDocument();

    finished = true;
    events.send('done', state(9, 10, 100, 'done'));
    events.close();
    const audio = await screen.findByTestId('output-audio');
    expect(audio).toHaveAttribute('src', '/diyvrbt/toolbox/file/9/0?ticket=tk-9');
    expect(screen.getByTestId('download-0')).toHaveAttribute('href', '/diyvrbt/toolbox/file/9/0?ticket=tk-9&download=1');
    expect(screen.getByTestId('output-facts')).toHaveTextContent('1.7M · 0:10');
    expect(screen.queryByTestId('tool-cancel')).toBeNull();

    fireEvent.click(screen.getByTestId('use-0'));
    const used = await screen.findByTestId('output-used');
    expect(used).toHaveTextContent('已加入我的素材');
    expect(used).toHaveAttribute('data-material-id', '77');
    expect(post).toHaveBeenCalledWith('/toolbox/use', { taskId: 9, index: 0 });
    expect(within(used).getByTestId('open-editor').closest('a')).toHaveAttribute('href', '/diy');
  });

  it('reads the run again after the stream says it ended, until the read shows the end and its outputs', async () => {
    const events = controlledStream();
    let ended = false;
    // The first read after the end raced it: still executing, no outputs.
    let readsAfterEnd = 0;
    const { get } = serve({
      run: async () => ({ taskId: 12, jobId: 'job-12' }),
      toolRun: () => {
        if (!ended) return toolRun(12, 1, { type: 'VIDEO_SPEEDUP' });
        readsAfterEnd += 1;
        if (readsAfterEnd === 1) return toolRun(12, 1, { type: 'VIDEO_SPEEDUP' });
        return toolRun(12, 10, { type: 'VIDEO_SPEEDUP', outputs: [{ index: 0, kind: 'video', name: 'speed.mp4', size: 90_000, durationMs: 5_000, width: 320, height: 180 }] });
      },
      stream: events.body,
    });
    renderApp('/tools/speed-video', SIGNED_IN);
    await pickClip();
    fireEvent.click(screen.getByTestId('tool-run-button'));
    await waitFor(() => expect(api.stream).toHaveBeenCalled());
    events.send('progress', state(12, 1, 40, 'rendering'));
    await waitFor(() => expect(screen.getByTestId('task-progress')).toHaveTextContent('40%'));
    ended = true;
    events.send('done', state(12, 10, 100, 'done'));
    events.close();
    expect(await screen.findByTestId('tool-outputs-loading')).toBeInTheDocument();
    expect(await screen.findByTestId('output-video', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(readsAfterEnd).toBeGreaterThanOrEqual(2);
    const reads = get.mock.calls.filter(([url]) => url === '/toolbox/run/12').length;
    // Once the read shows the end, it is not read again.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(get.mock.calls.filter(([url]) => url === '/toolbox/run/12').length).toBe(reads);
  });

  it('shows why a run failed mid-way', async () => {
    const events = controlledStream();
    serve({ run: async () => ({ taskId: 5, jobId: 'job-5' }), toolRun: () => toolRun(5, 9, { type: 'VIDEO_COMPRESS', reason: '编码器出错' }), stream: events.body });
    renderApp('/tools/video-compress', SIGNED_IN);
    await pickClip();
    fireEvent.click(screen.getByTestId('tool-run-button'));
    await waitFor(() => expect(api.stream).toHaveBeenCalled());
    events.send('error', state(5, 9, 40, 'error', '编码器出错'));
    events.close();
    expect(await screen.findByTestId('tool-failed')).toHaveTextContent('处理失败编码器出错');
    expect(screen.queryByTestId('tool-outputs')).toBeNull();
  });

  it('names the parameter of a refusal from the envelope', async () => {
    const refusal = new ApiError({ kind: 'business', url: '/toolbox/run', code: 3000, message: 'x', desc: 'params.speed must be between 0.25 and 4', data: { field: 'params.speed' } });
    serve({ run: () => Promise.reject(refusal) });
    renderApp('/tools/speed-video', SIGNED_IN);
    await pickClip();
    fireEvent.click(screen.getByTestId('tool-run-button'));
    expect(await screen.findByTestId('tool-refused')).toHaveTextContent('倍速：params.speed must be between 0.25 and 4');
    expect(screen.queryByTestId('tool-run')).toBeNull();
  });

  it('shows the GIF range on the clip and its size, and will not run a range past the clip', async () => {
    const { post } = serve();
    renderApp('/tools/video-to-gif', SIGNED_IN);
    await pickClip();
    expect(screen.getAllByTestId('range-mark')).toHaveLength(1);
    expect(screen.getByTestId('estimate')).toHaveTextContent('预计约');
    expect(screen.getByTestId('estimate')).toHaveTextContent('480×270，30 帧');
    const field = screen.getByTestId('gif-end');
    const end = field.tagName === 'INPUT' ? field : within(field).getByRole('spinbutton');
    fireEvent.change(end, { target: { value: '12' } });
    expect(await screen.findByTestId('tool-problems')).toHaveTextContent('结束时间：超出了素材的时长（10.0 秒）');
    expect(screen.getByTestId('tool-run-button')).toBeDisabled();
    expect(post).not.toHaveBeenCalledWith('/toolbox/run', expect.anything(), expect.anything());
  });

  it('estimates the compressed size from the quality and from a target', async () => {
    serve();
    renderApp('/tools/video-compress', SIGNED_IN);
    await pickClip();
    expect(screen.getByTestId('estimate')).toHaveTextContent('大小 8M → 约 2.8M');
    fireEvent.click(within(screen.getByTestId('option-compress-by')).getByText('目标大小'));
    expect(await screen.findByTestId('option-target')).toBeInTheDocument();
    expect(screen.getByTestId('estimate')).toHaveTextContent('大小 8M → 约 4M');
  });

  it('change-screen offers the blurred fill or a crop that follows the subject, and sends the mode', async () => {
    const { post } = serve({
      types: [...TOOL_TYPES, toolType('VIDEO_H_TO_V', 'change-screen', { shown: false })],
      run: async () => ({ taskId: 9, jobId: 'job-9' }),
      toolRun: () => toolRun(9, 1, { type: 'VIDEO_H_TO_V' }),
    });
    renderApp('/tools/change-screen', SIGNED_IN);
    await pickClip();
    expect(screen.getByTestId('estimate')).toHaveTextContent('1280×720');
    expect(screen.getByTestId('reframe-help')).toHaveTextContent('上下用模糊放大的画面填充');
    expect(screen.queryByTestId('follow-window')).toBeNull();
    fireEvent.click(within(screen.getByTestId('option-reframe')).getByText('跟随主体裁剪'));
    // The window is the output's shape at the clip's full height: 720 × 9 / 16, even.
    expect(await screen.findByTestId('follow-window')).toHaveTextContent('每帧取 406×720 的窗口跟随主体，放大到 720×1280');
    expect(screen.getByTestId('reframe-help')).toHaveTextContent('运动最集中的位置');
    fireEvent.click(screen.getByTestId('tool-run-button'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/toolbox/run', { type: 'VIDEO_H_TO_V', materialIds: ['42'], params: { aspect: '9:16', mode: 'follow' } }, { silent: true }),
    );
  });

  it('will not take a silent video for extract-audio', async () => {
    serve({ materials: [{ ...CLIP, hasAudio: false }] });
    renderApp('/tools/extract-audio', SIGNED_IN);
    await pickClip();
    expect(await screen.findByTestId('tool-problems')).toHaveTextContent('素材：这个视频没有声音');
    expect(screen.getByTestId('tool-run-button')).toBeDisabled();
  });

  it('says a tool is not available, with the reason worded from its code and no form', async () => {
    serve();
    renderApp('/tools/ai-extract-portrait', SIGNED_IN);
    const page = await screen.findByTestId('tool-unavailable');
    expect(page).toHaveTextContent('AI 人像抠图 暂不可用');
    expect(page).toHaveTextContent('需要人像分割模型，服务端尚未安装');
    expect(page).not.toHaveTextContent('segmentation');
    expect(screen.queryByTestId('tool-options')).toBeNull();
    expect(screen.queryByTestId('tool-input-picker')).toBeNull();
  });

  it('words the reason in English too, and shows the server words for a code it does not know', async () => {
    await act(() => applyLanguage('en-US'));
    try {
      serve();
      renderApp('/tools/ai-extract-portrait', SIGNED_IN);
      expect(await screen.findByTestId('tool-unavailable')).toHaveTextContent('It needs a person-matting model, and none is installed on the server yet');
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
    const t = i18n.getFixedT('zh-CN');
    expect(unavailableText(t, { reason: 'the GPU pool is full', reasonCode: 'no_gpu' })).toBe('the GPU pool is full');
    expect(unavailableText(t, { reason: '', reasonCode: '' })).toBe('服务端暂未开放这个工具');
    expect(unavailableText(t, { reason: 'this tool is not built yet', reasonCode: 'not_built' })).toBe('这个工具还在建设中');
  });

  it('says so when the server does not list a tool at all', async () => {
    serve();
    renderApp('/tools/ppt', SIGNED_IN);
    expect(await screen.findByTestId('tool-unavailable')).toHaveTextContent('服务端没有提供这个工具');
  });
});
