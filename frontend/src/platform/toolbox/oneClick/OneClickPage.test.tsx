import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { encodeBody, JSON_CONTENT_TYPE } from '@/api/encoding';
import { ApiError } from '@/api/errors';
import type { Material } from '@/api/material';
import type { OneClickTemplate } from '@/api/oneClick';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { cat, SYSTEM_INFO, tpl } from '@/test/templateFixtures';
import { NO_QUOTA, toolType, TOOL_TYPES } from '@/test/toolboxFixtures';
import { autoPick, categoryOptions, fitProblem, hundredthsDown, planSlots, totalSeconds } from './plan';

jest.setTimeout(120_000);

const A = material('a', { type: 'video', materialName: '海边.mp4', duration: 2, state: 'ready' });
const B = material('b', { type: 'video', materialName: '山路.mp4', duration: 2, state: 'ready' });

/** A template offered for one-click filming with video slots of these lengths, seconds. */
const offer = (id: number, name: string, slots: number[]): OneClickTemplate => ({
  ...tpl(id, { taskName: name, replaceVideo: slots.length, duration: slots.reduce((a, b) => a + b, 0) }),
  videoSlots: slots.map((seconds, i) => ({ id: `v${i + 1}`, sceneIndex: i, seconds })),
});

interface Served {
  templates?: (body: Record<string, unknown>) => Promise<OneClickTemplate[]>;
  run?: (body: Record<string, unknown>) => Promise<unknown>;
  available?: boolean;
  materials?: Material[];
}

function serve(options: Served = {}) {
  const materials = options.materials ?? [A, B];
  const types = [...TOOL_TYPES, toolType('ONE_CLICK_FILMING', 'ai-one-step-video-cut', options.available === false ? { available: false, reason: 'off', reasonCode: 'not_built' } : {})];
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/toolbox/types') return { dataList: types };
    if (url === '/category/taskvideo') return { dataList: [cat(5, '旅行', [cat(6, '海岛')])] };
    if (url === '/material/quota') return NO_QUOTA;
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return page(materials);
    const info = /^\/material\/info\/(.+)$/.exec(url);
    if (info) return materials.find((m) => m.id === info[1]);
    if (url === '/v2/videotask/oneClick/template' && options.templates) return { dataList: await options.templates(body) };
    if (url === '/v2/videotask/oneClick/run' && options.run) return options.run(body);
    if (url === '/videotask/runtask') return { taskId: body.taskId, jobId: 'job-1', status: 0 };
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  return { get, post };
}

afterEach(() => jest.restoreAllMocks());

/** Picks the clips from my materials, in order. */
async function pickClips(...ids: string[]) {
  for (const id of ids) fireEvent.click(await screen.findByTestId(`material-${id}`));
  await waitFor(() => expect(screen.getAllByTestId(/^one-click-clip-\d+$/)).toHaveLength(ids.length));
}

async function chooseCategory(title: string) {
  fireEvent.mouseDown(screen.getByTestId('one-click-category').querySelector('input') as HTMLInputElement);
  fireEvent.click(await screen.findByTitle(title));
}

describe('one-click filming (ai-one-step-video-cut)', () => {
  it('puts two clips into a chosen template, shows the cuts, makes the work and opens it or renders it', async () => {
    const { post } = serve({
      templates: async () => [offer(8, '旅行快剪', [1.5, 2.5]), offer(9, '长模板', [10])],
      run: async () => ({
        taskId: 31,
        placed: [
          { slotId: 'v1', materialId: 'a', start: 0, end: 1.5, slot: 1.5, held: 0 },
          { slotId: 'v2', materialId: 'b', start: 0, end: 2, slot: 2.5, held: 0.5 },
        ],
      }),
    });
    renderApp('/tools/ai-one-step-video-cut', SIGNED_IN);
    expect(await screen.findByTestId('one-click-page-choose')).toHaveTextContent('一键成片');
    await pickClips('a', 'b');
    await chooseCategory('旅行 / 海岛');
    await waitFor(() => expect(post).toHaveBeenCalledWith('/v2/videotask/oneClick/template', { categoryId: 6, timeLength: 15 }, { silent: true }));
    fireEvent.click(await screen.findByTestId('one-click-use-8'));

    const plan = await screen.findByTestId('one-click-plan');
    expect(within(plan).getByTestId('one-click-slot-0')).toHaveTextContent('视频位 1 · 1.5 s海边.mp4截取 0 s – 1.5 s');
    expect(within(plan).getByTestId('one-click-slot-1')).toHaveTextContent('视频位 2 · 2.5 s山路.mp4截取 0 s – 2 s停在最后一帧 0.5 s');
    fireEvent.change(screen.getByTestId('one-click-name'), { target: { value: ' 我的旅行 ' } });
    fireEvent.click(screen.getByTestId('one-click-run'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/v2/videotask/oneClick/run', { templateId: 8, materialIds: ['a', 'b'], name: '我的旅行' }, { silent: true }),
    );

    const result = await screen.findByTestId('one-click-result');
    expect(within(result).getByTestId('one-click-placed-1')).toHaveTextContent('山路.mp4截取 0 s – 2 s停在最后一帧 0.5 s');
    expect(within(result).getByTestId('one-click-open').closest('a')).toHaveAttribute('href', '/diy?taskId=31');
    fireEvent.click(within(result).getByTestId('one-click-render'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/videotask/runtask', { taskId: 31 }));
    expect(await screen.findByTestId('one-click-rendering')).toHaveTextContent('已开始渲染');
  });

  it('says a refusal naming its field, and too many clips before asking', async () => {
    serve({
      templates: async () => [offer(8, '单镜头', [3])],
      run: async () => {
        throw new ApiError({ kind: 'business', url: '/v2/videotask/oneClick/run', code: 3000, desc: 'materialIds[0]: material a is still being processed', message: 'x', data: { field: 'materialIds[0]' } });
      },
    });
    renderApp('/tools/ai-one-step-video-cut', SIGNED_IN);
    await pickClips('a', 'b');
    await chooseCategory('旅行');
    fireEvent.click(await screen.findByTestId('one-click-use-8'));
    expect(await screen.findByTestId('one-click-problem')).toHaveTextContent('片段太多：这个模板只有 1 个视频位');
    expect(screen.getByTestId('one-click-run')).toBeDisabled();
    fireEvent.click(screen.getByTestId('one-click-remove-1'));
    await waitFor(() => expect(screen.queryByTestId('one-click-problem')).not.toBeInTheDocument());
    fireEvent.click(screen.getByTestId('one-click-run'));
    expect(await screen.findByTestId('one-click-refused')).toHaveTextContent('material a is still being processed');
  });

  it('says when a category has no template for it', async () => {
    serve({
      templates: async () => {
        throw new ApiError({ kind: 'business', url: '/v2/videotask/oneClick/template', code: 3000, desc: 'categoryId: category 5 does not hold an approved template with a video slot', message: 'x', data: { field: 'categoryId' } });
      },
    });
    renderApp('/tools/ai-one-step-video-cut', SIGNED_IN);
    await screen.findByTestId('one-click-category');
    await chooseCategory('旅行');
    expect(await screen.findByTestId('one-click-no-template')).toHaveTextContent('category 5 does not hold an approved template with a video slot');
  });

  it('is not offered while the server says the tool is not available', async () => {
    serve({ available: false });
    renderApp('/tools/ai-one-step-video-cut', SIGNED_IN);
    expect(await screen.findByTestId('tool-unavailable')).toBeInTheDocument();
  });
});

describe('intelligent generation', () => {
  it('asks for the clips\' total length and picks the closest template with a slot for every clip', async () => {
    const { post } = serve({ templates: async () => [offer(3, '一个镜头', [4]), offer(4, '两个镜头', [2, 2])] });
    renderApp('/tools/intelligent-generation', SIGNED_IN);
    expect(await screen.findByTestId('one-click-page-auto')).toHaveTextContent('智能生成');
    await pickClips('a', 'b');
    expect(await screen.findByTestId('one-click-total')).toHaveTextContent('片段总时长 4 s');
    await chooseCategory('旅行');
    await waitFor(() => expect(post).toHaveBeenCalledWith('/v2/videotask/oneClick/template', { categoryId: 5, timeLength: 4 }, { silent: true }));
    const shown = await screen.findByTestId('one-click-templates');
    expect(within(shown).getByTestId('template-4')).toHaveTextContent('为你挑选');
    expect(within(shown).queryByTestId('template-3')).not.toBeInTheDocument();
    expect(screen.getByTestId('one-click-slot-1')).toHaveTextContent('山路.mp4截取 0 s – 2 s');
  });
});

describe('the oneClick calls', () => {
  it('send JSON bodies: the clip lists are arrays, which a form would flatten', () => {
    const run = encodeBody('/v2/videotask/oneClick/run', { templateId: 8, materialIds: ['a', 'b'] });
    expect(run.contentType).toBe(JSON_CONTENT_TYPE);
    expect(JSON.parse(run.body as string)).toEqual({ templateId: 8, materialIds: ['a', 'b'] });
    expect(encodeBody('/v2/videotask/oneClick/template', { categoryId: 5, timeLength: 4 }).contentType).toBe(JSON_CONTENT_TYPE);
  });
});

describe('the plan', () => {
  it('cuts each clip to its slot on a hundredth inside the clip, holding a shorter one', () => {
    const slots = [
      { id: 'v1', sceneIndex: 0, seconds: 1.5 },
      { id: 'v2', sceneIndex: 1, seconds: 2.5 },
      { id: 'v3', sceneIndex: 1, seconds: 1 },
    ];
    const plan = planSlots(slots, [
      { id: 'a', name: 'A', seconds: 10 },
      { id: 'b', name: 'B', seconds: 1.234 },
    ]);
    expect(plan.map((p) => [p.clip?.id ?? null, p.end, p.held])).toEqual([
      ['a', 1.5, 0],
      ['b', 1.23, 1.27],
      [null, 0, 0],
    ]);
    expect(hundredthsDown(0.29)).toBe(0.29);
    expect(fitProblem({ videoSlots: slots }, 0)).toBe('noClip');
    expect(fitProblem({ videoSlots: slots }, 4)).toBe('tooMany');
    expect(fitProblem({ videoSlots: slots }, 3)).toBeNull();
    expect(totalSeconds([{ id: 'a', name: 'A', seconds: 1.26 }, { id: 'b', name: 'B', seconds: 2.01 }])).toBe(3.3);
  });

  it('cuts nothing for a clip whose length is not read yet (no 0 s cut shown)', () => {
    const plan = planSlots([{ id: 'v1', sceneIndex: 0, seconds: 2 }], [{ id: 'a', name: 'A', seconds: null }]);
    expect(plan.map((p) => [p.clip?.id ?? null, p.end, p.held])).toEqual([['a', null, 0]]);
    expect(totalSeconds([{ id: 'a', name: 'A', seconds: null }, { id: 'b', name: 'B', seconds: 2 }])).toBe(2);
  });

  it('picks for the user the closest template with enough slots, else the closest', () => {
    const one = offer(1, 'one', [4]);
    const two = offer(2, 'two', [2, 2]);
    expect(autoPick([one, two], 2)).toBe(two);
    expect(autoPick([one, two], 1)).toBe(one);
    expect(autoPick([one], 3)).toBe(one);
    expect(autoPick([], 1)).toBeNull();
  });

  it('offers first-level categories and their second level under them', () => {
    expect(categoryOptions([cat(5, '旅行', [cat(6, '海岛')]), cat(7, '美食')])).toEqual([
      { value: 5, label: '旅行' },
      { value: 6, label: '旅行 / 海岛' },
      { value: 7, label: '美食' },
    ]);
  });
});
