import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { uploadResumable } from '@/api/resumableUpload';
import type { Rule } from '@/editor/model/gen/Rule';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { slot, SYSTEM_INFO, tpl } from '@/test/templateFixtures';
import { LOADING_PATIENCE_MS } from './LoadingPage';
import type { StartHandoff } from './startJobs';

type Handler = (url: string, body: Record<string, unknown>) => unknown;

// The page's resumable sends are tested in api/resumableUpload.test.ts against a tus server; here each
// file is answered at once.
jest.mock('@/api/resumableUpload', () => ({ ...jest.requireActual('@/api/resumableUpload'), uploadResumable: jest.fn() }));

/** Answers the layout's calls and `get`/`post` by the handlers; anything else fails the call. */
function serve(get: Handler, post: Handler = () => undefined) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/category/taskvideo') return { dataList: [] };
    const answer = await get(url, params ?? {});
    if (answer === undefined) throw new Error(`unexpected GET ${url}`);
    return answer;
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const answer = await post(url, (data ?? {}) as Record<string, unknown>);
    if (answer === undefined) throw new Error(`unexpected POST ${url}`);
    return answer;
  });
}

function savedBody(post: jest.SpyInstance) {
  const call = post.mock.calls.find(([url]) => url === '/videotask/save');
  return call ? (call[1] as Record<string, unknown>) : null;
}

async function expectEditorOn(router: ReturnType<typeof renderApp>['router'], taskId: number) {
  await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/diy?taskId=${taskId}`));
}

afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('/new-task', () => {
  it('creates a blank task of the chosen ratio, name and kind, then opens the editor on it', async () => {
    const post = serve(
      () => undefined,
      (url) => (url === '/videotask/save' ? 21 : undefined),
    );
    const { router } = renderApp('/new-task', SIGNED_IN);
    fireEvent.click(await screen.findByText('9:16'));
    fireEvent.change(screen.getByTestId('new-task-name'), { target: { value: '开业视频' } });
    fireEvent.click(screen.getByTestId('new-task-start'));
    await expectEditorOn(router, 21);
    const body = savedBody(post);
    expect(body).toMatchObject({ taskId: -1, name: '开业视频', sizeCategoryId: 50, usedFor: 'ALL' });
    expect((JSON.parse(String(body?.taskInfo)) as Rule).resolutionRatio.name).toBe('9:16');
  });

  it('starts from an approved template of the ratio and opens the editor on the task the template made', async () => {
    const get = jest.fn((url: string) => (url === '/template/list' ? { total: 1, list: [tpl(5, { sizeCategoryId: 41 })] } : undefined));
    const post = serve(get, (url) => (url === '/template/fill' ? { taskId: 8 } : undefined));
    const { router } = renderApp('/new-task', SIGNED_IN);
    fireEvent.click(await screen.findByText('从模板开始'));
    expect(screen.getByTestId('new-task-start')).toBeDisabled();
    fireEvent.click(await screen.findByTestId('choose-template-5'));
    fireEvent.click(screen.getByTestId('new-task-start'));
    await expectEditorOn(router, 8);
    expect(post).toHaveBeenCalledWith('/template/fill', { templateId: 5, replaces: [] });
    // The templates offered are those of the chosen ratio (16:9 is size 41).
    expect(get).toHaveBeenCalledWith('/template/list', expect.objectContaining({ sizeCategoryId: '41' }));
  });
});

describe('/loading', () => {
  const blank: StartHandoff = { job: { kind: 'blank', name: '未命名', ratio: '16:9', usedFor: 'ALL' }, back: '/new-task' };

  it('says there is nothing to wait for when opened without a job', async () => {
    serve(() => undefined);
    renderApp('/loading', SIGNED_IN);
    expect(await screen.findByTestId('loading-nothing')).toHaveTextContent('这里没有正在等待的任务');
  });

  it('shows a refused start in words with the way back, and makes one call only', async () => {
    const post = serve(
      () => undefined,
      (url) => {
        if (url === '/videotask/save') throw new ApiError({ kind: 'business', code: 3000, desc: 'scenes: at least one scene', message: 'refused', url });
        return undefined;
      },
    );
    const { router } = renderApp({ pathname: '/loading', state: blank }, SIGNED_IN);
    expect(await screen.findByTestId('loading-failed')).toHaveTextContent('没能创建任务');
    expect(post.mock.calls.filter(([url]) => url === '/videotask/save')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('loading-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/new-task'));
  });

  it('leaves a user who went back where they went when the task is made after all', async () => {
    let made: (id: number) => void = () => undefined;
    serve(
      () => undefined,
      (url) => (url === '/videotask/save' ? new Promise<number>((resolve) => (made = resolve)) : undefined),
    );
    const { router } = renderApp({ pathname: '/loading', state: { ...blank, back: '/workbench/my-task' } }, SIGNED_IN);
    await screen.findByTestId('loading-what');
    await act(() => router.navigate('/workbench/my-task'));
    await act(async () => made(77));
    expect(router.state.location.pathname).toBe('/workbench/my-task');
  });

  it('says what it waits for, and after a while that it takes long, with the way back', async () => {
    jest.useFakeTimers();
    try {
      serve(
        () => undefined,
        (url) => (url === '/videotask/save' ? new Promise(() => undefined) : undefined),
      );
      renderApp({ pathname: '/loading', state: blank }, SIGNED_IN);
      expect(await screen.findByTestId('loading-what')).toHaveTextContent('正在创建空白任务');
      expect(screen.queryByTestId('loading-late')).toBeNull();
      act(() => jest.advanceTimersByTime(LOADING_PATIENCE_MS));
      expect(await screen.findByTestId('loading-late')).toHaveTextContent('比平时久了一些');
      expect(screen.getByTestId('loading-back').closest('a')).toHaveAttribute('href', '/new-task');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('/from-jiancai', () => {
  it('makes a task with the picked materials, one scene each, and opens the editor', async () => {
    const post = serve(
      () => undefined,
      (url) => {
        if (url === '/material/info/v1') return material('v1', { type: 'video', duration: 6, horizontalOrVertical: 2 });
        if (url === '/material/info/p1') return material('p1');
        if (url === '/videotask/save') return 30;
        return undefined;
      },
    );
    const { router } = renderApp('/from-jiancai?ids=v1,p1', SIGNED_IN);
    expect(await screen.findByText('已选 2 个素材')).toBeInTheDocument();
    await screen.findByText('素材p1');
    fireEvent.click(screen.getByTestId('from-jiancai-start'));
    await expectEditorOn(router, 30);
    const body = savedBody(post);
    // A portrait first material suggests 9:16.
    expect(body).toMatchObject({ taskId: -1, sizeCategoryId: 50 });
    const rule = JSON.parse(String(body?.taskInfo)) as Rule;
    expect(rule.scenes.map((s) => s.layers.map((l) => (l as { materialId?: string }).materialId))).toEqual([['v1'], ['p1']]);
  });

  it('refuses to start with a material the server does not answer to this user', async () => {
    const post = serve(
      () => undefined,
      (url) => {
        if (url === '/material/info/p1') return material('p1');
        if (url === '/material/info/theirs') throw new ApiError({ kind: 'business', code: 3000, desc: 'material does not exist', message: 'refused', url });
        return undefined;
      },
    );
    renderApp('/from-jiancai?ids=p1,theirs', SIGNED_IN);
    expect(await screen.findByTestId('from-jiancai-unusable')).toHaveTextContent('有 1 个素材不存在或您无权使用');
    expect(screen.getByTestId('from-jiancai-start')).toBeDisabled();
    expect(post.mock.calls.map(([url]) => url)).not.toContain('/videotask/save');
  });

  it('is reached from the material workbench with the picked ids', async () => {
    serve(
      (url) => (url === '/material/quota' ? { usedBytes: 0, limitBytes: 0, materials: 0, limitMaterials: 0 } : undefined),
      (url) => (url === '/material/ofuser' ? page([material('a'), material('b'), material('c')]) : undefined),
    );
    const { router } = renderApp('/workbench/my-material/1200', SIGNED_IN);
    await screen.findByText('素材a');
    fireEvent.click(screen.getByTestId('material-select-c'));
    fireEvent.click(screen.getByTestId('material-select-a'));
    fireEvent.click(screen.getByTestId('create-from-selected'));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/from-jiancai?ids=a,c'));
  });
});

describe('/put-image', () => {
  it('puts an uploaded picture into the chosen template’s picture slot and opens the editor', async () => {
    const get = (url: string) => {
      if (url === '/template/list') return { total: 2, list: [tpl(3), tpl(4, { replacePicture: 0, taskName: '纯文字模板' })] };
      if (url === '/template/slots/3') return [slot('t1', 'text'), slot('s1', 'picture'), slot('s2', 'picture', { sceneIndex: 1 })];
      return undefined;
    };
    const post = serve(get, (url) => {
      if (url === '/material/ofuser') return page([material('p9')]);
      if (url === '/material/info/p9') return material('p9');
      if (url === '/template/fill') return { taskId: 44 };
      return undefined;
    });
    const { router } = renderApp('/put-image', SIGNED_IN);
    fireEvent.click(await screen.findByText('素材p9'));
    fireEvent.click(await screen.findByTestId('choose-template-3'));
    // A template without a picture slot is not offered.
    expect(screen.queryByText('纯文字模板')).toBeNull();
    fireEvent.click(await screen.findByTestId('put-image-slot-s2'));
    await waitFor(() => expect(screen.getByTestId('put-image-start')).toBeEnabled());
    fireEvent.click(screen.getByTestId('put-image-start'));
    await expectEditorOn(router, 44);
    expect(post).toHaveBeenCalledWith('/template/fill', { templateId: 3, replaces: [{ id: 's2', replaceContent: material('p9').url }] });
  });
});

describe('/upload', () => {
  it('uploads several files, follows each until probed, and leads to a task made of the ready ones', async () => {
    const state: Record<string, string> = { u1: 'processing', u2: 'ready' };
    let n = 0;
    jest.mocked(uploadResumable).mockImplementation(async (_file, onProgress) => {
      n += 1;
      // The first file goes on from an earlier, unfinished upload of it.
      onProgress?.({ percent: 100, resumedFrom: n === 1 ? 4 * 1024 * 1024 : undefined });
      return `u${n}`;
    });
    serve(
      () => undefined,
      (url) => {
        if (url === '/material/info/u1') return material('u1', { state: state.u1 });
        if (url === '/material/info/u2') return material('u2', { type: 'audio' });
        return undefined;
      },
    );
    const { container, router } = renderApp('/upload', SIGNED_IN);
    const input = (await screen.findByTestId('upload-page')).querySelector('input[type=file]') as HTMLInputElement;
    expect(container.contains(input)).toBe(true);
    fireEvent.change(input, { target: { files: [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.mp3', { type: 'audio/mpeg' })] } });
    expect(await screen.findByText('本次已上传 2 个')).toBeInTheDocument();
    expect(screen.getByTestId('upload-resumed')).toHaveTextContent('已从 4 MB 处继续上传');
    await screen.findByText('素材u2');
    // Audio cannot start a task, and the picture is still being probed.
    expect(screen.queryByTestId('upload-create')).toBeNull();
    state.u1 = 'ready';
    fireEvent.click(await screen.findByTestId('upload-create', {}, { timeout: 10_000 }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/from-jiancai?ids=u1'));
  });
});
