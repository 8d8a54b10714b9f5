import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { queryKeys } from '@/api/keys';
import { buildLayer, newRule } from '@/editor/state/defaults';
import { applyLanguage } from '@/app/i18n';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

function answerGets(extra: Record<string, unknown> = {}) {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url in extra) return extra[url];
    throw new Error(`unexpected ${url}`);
  });
}

// The editor chunk and antd's pickers load on first render; on a loaded machine that takes a while.
jest.setTimeout(120_000);

afterEach(() => jest.restoreAllMocks());

async function addText() {
  fireEvent.mouseEnter(await screen.findByTestId('add-text'));
  fireEvent.click(await screen.findByText('标题 (34)'));
}

describe('/diy', () => {
  it('opens a blank 未命名 document with the stage, toolbar, property panel, timeline and scene strip', async () => {
    answerGets();
    renderApp('/diy', SIGNED_IN);
    expect(await screen.findByTestId('diy-editor')).toBeInTheDocument();
    expect(document.getElementById('editor')).not.toBeNull();
    expect(screen.getByTestId('task-name')).toHaveTextContent('未命名');
    expect(screen.getByTestId('material-slot')).toBeInTheDocument();
    expect(screen.getByTestId('timeline-ruler')).toBeInTheDocument();
    expect(screen.getByTestId('scene-block-0')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('bottom-tab-scenes'));
    expect(await screen.findByTestId('scene-0')).toBeInTheDocument();
  });

  it('adds a text layer drawn as component{id} with its handle, and the default text', async () => {
    answerGets();
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    await waitFor(() => expect(document.getElementById('component1')).not.toBeNull());
    expect(document.getElementById('component-help1')).not.toBeNull();
    expect(document.getElementById('component1')).toHaveTextContent('双击编辑文字');
    expect(screen.getByTestId('save-state')).toHaveTextContent('有未保存的修改');
    act(() => {
      fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    });
    expect(store.getState().editor.doc.scenes[0]!.layers).toHaveLength(0);
  });

  it('keeps the selected layer\'s handles under dialogs: they are drawn inside the stage frame, its own stacking context', async () => {
    answerGets();
    renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    const box = await waitFor(() => {
      const found = document.querySelector('.moveable-control-box');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    const frame = screen.getByTestId('stage-frame');
    expect(frame.contains(box)).toBe(true);
    expect(frame.style.isolation).toBe('isolate');
  });

  it('edits a text in place on a real double-click (the second press counts 2 clicks)', async () => {
    answerGets();
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    const handle = await waitFor(() => document.getElementById('component-help1')!);
    // The first click of the pair goes to react-selecto and react-moveable (which jsdom cannot run).
    const second = fireEvent.mouseDown(handle, { detail: 2 });
    // The press is taken (its default would move the focus out of the text being edited).
    expect(second).toBe(false);
    const text = document.querySelector('#component1 [data-testid="layer-text"]') as HTMLElement;
    expect(text).toHaveAttribute('contenteditable', 'true');
    // jsdom has no layout, so no innerText of its own: the edit sets it as a browser would.
    text.innerText = '铃声';
    fireEvent.blur(text);
    expect(store.getState().editor.doc.scenes[0]!.layers[0]).toMatchObject({ content: '铃声' });
  });

  it('grows a text box to hold its text when it is edited, in the same undo step', async () => {
    answerGets();
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    const handle = await waitFor(() => document.getElementById('component-help1')!);
    fireEvent.mouseDown(handle, { detail: 2 });
    const text = document.querySelector('#component1 [data-testid="layer-text"]') as HTMLElement;
    text.innerText = '新年手机铃声限时大促销活动';
    fireEvent.blur(text);
    const layer = () => store.getState().editor.doc.scenes[0]!.layers[0]!;
    // jsdom has no canvas: the estimate measures (13 characters of 34 px, 4 % spare, 4 px each side).
    expect(layer()).toMatchObject({ content: '新年手机铃声限时大促销活动', w: 468, h: 71, x: 0 });
    act(() => {
      fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    });
    expect(layer()).toMatchObject({ content: '双击编辑文字', w: 320, x: 10 });
  });

  it('adds a text whose words do not fit the default box in a box that holds them', async () => {
    answerGets();
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await act(() => applyLanguage('en-US'));
    try {
      fireEvent.mouseEnter(await screen.findByTestId('add-text'));
      fireEvent.click(await screen.findByText('Title (34)'));
      const layer = await waitFor(() => store.getState().editor.doc.scenes[0]!.layers[0]!);
      // "double-click to edit text" is 25 characters of 0.6 em at 34 px.
      expect(layer).toMatchObject({ content: 'double-click to edit text', w: 539, h: 71 });
      expect(store.getState().editor.past).toHaveLength(1);
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
  });

  it('signs the material addresses of an opened task afresh', async () => {
    const rule = newRule();
    rule.scenes[0]!.layers.push(buildLayer({ kind: 'picture', src: '/diyvrbt/material/file/7/original', materialId: '7' }, 1, 100, [0, 3], rule.resolutionRatio));
    answerGets({ '/videotask/ofone/5': { id: 5, taskName: 'x', videoCreateInfo: JSON.stringify(rule), usedFor: '', status: -1 } });
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/byIds') return [{ id: '7', url: '/diyvrbt/material/file/7/original?ticket=fresh', coverUrl: '' }];
      return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
    });
    const { store } = renderApp('/diy?taskId=5', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    expect(post).toHaveBeenCalledWith('/material/byIds', { ids: '7' });
    expect(store.getState().editor.doc.scenes[0]!.layers[0]).toMatchObject({ src: '/diyvrbt/material/file/7/original?ticket=fresh' });
  });

  it('saves the document as taskInfo and shows the saved time', async () => {
    answerGets();
    const post = jest.spyOn(api, 'post').mockResolvedValue(42);
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent(/已于 \d\d:\d\d 保存/));
    // The material panel in the left column lists the library too: pick out the save call.
    const [url, body] = post.mock.calls.find(([u]) => u === '/videotask/save')!;
    expect(url).toBe('/videotask/save');
    const sent = body as { taskId: number; name: string; taskInfo: string; sizeCategoryId: number };
    expect(sent).toMatchObject({ taskId: -1, name: '未命名', sizeCategoryId: 41 });
    expect(JSON.parse(sent.taskInfo).scenes[0].layers[0]).toMatchObject({ type: 'word', content: '双击编辑文字' });
    expect(store.getState().editor.taskId).toBe(42);
  });

  it('makes one task of a double click on 生成视频, and saves the next click into it', async () => {
    answerGets();
    jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
    let made = 40;
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/videotask/save') return (body as { taskId: number }).taskId > 0 ? (body as { taskId: number }).taskId : ++made;
      if (url === '/videotask/runtask') return { jobId: 'j', status: 0 };
      return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
    });
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('run'));
    fireEvent.click(screen.getByTestId('run'));
    await screen.findByTestId('run-title');
    const saves = () => post.mock.calls.filter(([u]) => u === '/videotask/save').map(([, b]) => (b as { taskId: number }).taskId);
    const runs = () => post.mock.calls.filter(([u]) => u === '/videotask/runtask');
    expect(saves()).toEqual([-1]);
    expect(runs()).toHaveLength(1);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /close|关闭/i }));
    fireEvent.click(screen.getByTestId('run'));
    await waitFor(() => expect(runs()).toHaveLength(2));
    expect(saves()).toEqual([-1, 41]);
    expect(store.getState().editor.taskId).toBe(41);
  });

  it('follows a second 生成视频 in the same page from queued: the first render\'s end does not stand for it', async () => {
    answerGets();
    const stream = jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/videotask/save') return (body as { taskId: number }).taskId > 0 ? (body as { taskId: number }).taskId : 41;
      if (url === '/videotask/runtask') return { jobId: 'j', status: 0 };
      return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
    });
    const { queryClient } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('run'));
    expect(await screen.findByTestId('run-title')).toHaveTextContent('视频生成中');
    // The stream brings the first render's end.
    const done = { taskId: 41, status: 10, percent: 100, stage: 'done', framesDone: 50, framesTotal: 50, etaSeconds: 0, videoRelativePath: 'v.mp4', reason: '' };
    act(() => void queryClient.setQueryData(queryKeys.videoTask.state(41), done));
    await waitFor(() => expect(screen.getByTestId('run-title')).toHaveTextContent('视频已生成'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /close|关闭/i }));
    await waitFor(() => expect(screen.queryByTestId('run-title')).toBeNull());
    const opened = stream.mock.calls.length;
    fireEvent.click(screen.getByTestId('run'));
    await waitFor(() => expect(post.mock.calls.filter(([u]) => u === '/videotask/runtask')).toHaveLength(2));
    expect(await screen.findByTestId('run-title')).toHaveTextContent('视频生成中');
    expect(screen.queryByTestId('run-play')).toBeNull();
    expect(queryClient.getQueryData(queryKeys.videoTask.state(41))).toMatchObject({ status: 0, stage: 'queued', percent: 0 });
    // The new render's progress is followed.
    await waitFor(() => expect(stream.mock.calls.length).toBeGreaterThan(opened));
  });

  it('saves one at a time: a second save waits for the first and saves into the task it made', async () => {
    answerGets();
    let made = 40;
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/videotask/save') return (body as { taskId: number }).taskId > 0 ? (body as { taskId: number }).taskId : ++made;
      return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
    });
    renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    const saves = () => post.mock.calls.filter(([u]) => u === '/videotask/save').map(([, b]) => (b as { taskId: number }).taskId);
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()).toEqual([-1, 41]);
  });

  it('names the saved task in the address without opening it again, so the way back opens the same work', async () => {
    let saved = '';
    answerGets({ '/videotask/ofone/42': { get id() { return 42; }, taskName: '未命名', get videoCreateInfo() { return saved; }, usedFor: 'ALL', status: -1 } });
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/videotask/save') {
        saved = (body as { taskInfo: string }).taskInfo;
        return 42;
      }
      return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
    });
    const { store, router } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(router.state.location.search).toBe('?taskId=42'));
    // The same editor goes on: its undo history is there, and nothing was fetched.
    expect(store.getState().editor.past.length).toBeGreaterThan(0);
    expect(jest.mocked(api.get).mock.calls.some(([u]) => u === '/videotask/ofone/42')).toBe(false);
    await act(() => router.navigate('/'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(store.getState().editor.doc.scenes[0]!.layers).toHaveLength(1));
    expect(store.getState().editor.taskId).toBe(42);
    fireEvent.click(await screen.findByTestId('save'));
    await waitFor(() => expect(post.mock.calls.filter(([u]) => u === '/videotask/save')).toHaveLength(2));
    expect(post.mock.calls.filter(([u]) => u === '/videotask/save').map(([, b]) => (b as { taskId: number }).taskId)).toEqual([-1, 42]);
  });

  it('deletes the blank scenes on save, says so, and sends the document without them', async () => {
    answerGets();
    const post = jest.spyOn(api, 'post').mockResolvedValue(42);
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('timeline-add-scene'));
    await screen.findByTestId('scene-block-1');
    fireEvent.click(screen.getByTestId('save'));
    expect(await screen.findByText('已删除 1 个空白场景')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent(/已于 \d\d:\d\d 保存/));
    const [, body] = post.mock.calls.find(([u]) => u === '/videotask/save')!;
    expect(JSON.parse((body as { taskInfo: string }).taskInfo).scenes).toHaveLength(1);
    expect(store.getState().editor.doc.scenes).toHaveLength(1);
    expect(screen.queryByTestId('scene-block-1')).toBeNull();
  });

  it('keeps every edit and lists the problems when the server refuses the document', async () => {
    answerGets();
    jest.spyOn(api, 'post').mockRejectedValue(
      new ApiError({ kind: 'business', url: '/videotask/save', message: 'x', code: 3000, desc: 'scenes[0].layers[0].w: must be positive; and 2 more' }),
    );
    const { store } = renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    expect(await screen.findByTestId('save-problems')).toHaveTextContent('scenes[0].layers[0].w: must be positive');
    expect(screen.getByTestId('save-problems')).toHaveTextContent('and 2 more');
    expect(store.getState().editor.doc.scenes[0]!.layers).toHaveLength(1);
    expect(document.getElementById('component1')).toHaveStyle({ outline: '2px solid #ff4d4f' });
  });

  it('says a save that could not reach the server in the page language, naming no address', async () => {
    answerGets();
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/videotask/save') throw new ApiError({ kind: 'network', url, message: '/videotask/save 请求失败: Network Error' });
      return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
    });
    renderApp('/diy', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    expect(await screen.findByTestId('save-problems')).toHaveTextContent('网络连接中断，请检查网络后重试');
    expect(screen.getByTestId('save-problems')).not.toHaveTextContent('/videotask');
  });

  it('opens ?taskId=N from its saved document', async () => {
    const rule = newRule();
    rule.scenes[0]!.bgColor = '#123456';
    answerGets({ '/videotask/ofone/5': { id: 5, taskName: '我的铃声', videoCreateInfo: JSON.stringify(rule), usedFor: '', status: -1 } });
    const { store } = renderApp('/diy?taskId=5', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    expect(screen.getByTestId('task-name')).toHaveTextContent('我的铃声');
    // A task read from the server is saved (it said 尚未保存, a new document's words).
    expect(screen.getByTestId('save-state')).toHaveTextContent(/^已保存$/);
    expect(store.getState().editor).toMatchObject({ taskId: 5 });
    expect(document.getElementById('editor')).toHaveStyle({ background: '#123456' });
  });
});

describe('a save based on an older version (saved elsewhere since)', () => {
  interface Stored {
    id: number;
    taskName: string;
    videoCreateInfo: string;
    usedFor: string;
    status: number;
    version: number;
  }

  /** Task 7 at version 3 on a fake server that refuses a save naming another version, as the gateway does. */
  function server() {
    const state: { task: Stored } = { task: { id: 7, taskName: '我的作品', videoCreateInfo: JSON.stringify(newRule()), usedFor: 'ALL', status: -1, version: 3 } };
    answerGets({
      get '/videotask/ofone/7'() {
        return { ...state.task };
      },
    });
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
      if (url === '/redis/history/store') return { code: 2000, data: 1, desc: '' };
      if (url !== '/videotask/save') return { total: 0, pageNum: 1, pageSize: 20, dataList: [] };
      const b = body as { version?: number; taskInfo: string; name: string };
      if (b.version !== undefined && b.version !== state.task.version) {
        throw new ApiError({ kind: 'business', url, code: 3000, desc: '该作品已在别处修改，请刷新后再保存', message: 'x', data: { reason: 'stale_version' } });
      }
      state.task = { ...state.task, videoCreateInfo: b.taskInfo, taskName: b.name, version: state.task.version + 1 };
      return 7;
    });
    const versionsSent = () => post.mock.calls.filter(([u]) => u === '/videotask/save').map(([, b]) => (b as { version?: number }).version);
    /** Another tab saves the task: a second scene colour, a new name, the next version. */
    const savedElsewhere = () => {
      const theirs = newRule();
      theirs.scenes[0]!.bgColor = '#112233';
      state.task = { ...state.task, videoCreateInfo: JSON.stringify(theirs), taskName: '别处的名字', version: state.task.version + 1 };
    };
    return { state, versionsSent, savedElsewhere };
  }

  it('sends the version it opened; a stale refusal stores nothing and asks; keeping mine saves over the newer version', async () => {
    const { state, versionsSent, savedElsewhere } = server();
    const { store } = renderApp('/diy?taskId=7', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await waitFor(() => expect(store.getState().editor.version).toBe(3));
    savedElsewhere();
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    expect(await screen.findByText('作品已在别处修改')).toBeInTheDocument();
    expect(versionsSent()).toEqual([3]);
    expect(state.task.taskName).toBe('别处的名字');
    expect(store.getState().editor.doc.scenes[0]!.layers).toHaveLength(1);
    fireEvent.click(screen.getByTestId('conflict-mine'));
    await waitFor(() => expect(versionsSent()).toEqual([3, 4]));
    await waitFor(() => expect(store.getState().editor.conflict).toBe(false));
    expect(state.task.version).toBe(5);
    expect((JSON.parse(state.task.videoCreateInfo) as ReturnType<typeof newRule>).scenes[0]!.layers).toHaveLength(1);
    // The next save is checked against the version just stored, and goes through.
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(versionsSent()).toEqual([3, 4, 5]));
    expect(state.task.version).toBe(6);
    expect(store.getState().editor.conflict).toBe(false);
  });

  it('loading theirs opens the stored version and drops the edits here, saving nothing', async () => {
    const { versionsSent, savedElsewhere } = server();
    const { store } = renderApp('/diy?taskId=7', SIGNED_IN);
    await screen.findByTestId('diy-editor');
    await waitFor(() => expect(store.getState().editor.version).toBe(3));
    savedElsewhere();
    await addText();
    fireEvent.click(screen.getByTestId('save'));
    fireEvent.click(await screen.findByTestId('conflict-theirs'));
    await waitFor(() => expect(store.getState().editor.version).toBe(4));
    const ed = store.getState().editor;
    expect(ed.doc.scenes[0]).toMatchObject({ bgColor: '#112233', layers: [] });
    expect(ed.name).toBe('别处的名字');
    expect(ed.conflict).toBe(false);
    expect(screen.getByTestId('save-state')).not.toHaveTextContent('有未保存的修改');
    expect(versionsSent()).toEqual([3]);
  });
});
