import { api } from './client';
import { encodeBody } from './encoding';
import { ApiError } from './errors';
import { anyRunActive, fetchMyToolRuns, fetchToolTypes, refusedField, runTool, toolFileUrl, toolRunsParams, type ToolRun } from './toolbox';

afterEach(() => jest.restoreAllMocks());

const run = (id: number, status: number): ToolRun => ({
  id,
  type: 'VIDEO_TO_GIF',
  name: `run ${id}`,
  status,
  percent: 0,
  stage: 'queued',
  reason: '',
  params: {},
  materialIds: ['1'],
  outputs: [],
  createdMs: 0,
  updatedMs: 0,
});

describe('toolbox calls', () => {
  it('lists the tool types, an absent list as none', async () => {
    const get = jest.spyOn(api, 'get').mockResolvedValueOnce({ dataList: [{ type: 'EXTRACT_AUDIO', path: 'extract-audio' }] }).mockResolvedValueOnce(undefined);
    expect(await fetchToolTypes()).toEqual([{ type: 'EXTRACT_AUDIO', path: 'extract-audio' }]);
    expect(await fetchToolTypes()).toEqual([]);
    expect(get).toHaveBeenCalledWith('/toolbox/types');
  });

  it('starts a run quietly with the type, the material ids and the params', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue({ taskId: 9, jobId: 'j-9' });
    const answer = await runTool({ type: 'VIDEO_SPEEDUP', materialIds: ['42'], params: { speed: 2 } });
    expect(answer).toEqual({ taskId: 9, jobId: 'j-9' });
    expect(post).toHaveBeenCalledWith('/toolbox/run', { type: 'VIDEO_SPEEDUP', materialIds: ['42'], params: { speed: 2 } }, { silent: true });
  });

  it('sends toolbox bodies as JSON, so params and id lists keep their shape', () => {
    const body = { type: 'QUICK_CUT_VIDEO', materialIds: ['42'], params: { mode: 'keep', ranges: [{ startMs: 0, endMs: 1000 }] } };
    expect(encodeBody('/toolbox/run', body)).toEqual({ body: JSON.stringify(body), contentType: 'application/json;charset=UTF-8' });
    expect(encodeBody('/toolbox/use', { taskId: 9, index: 0 }).contentType).toBe('application/json;charset=UTF-8');
  });

  it('asks for my runs of one type only when a type is chosen', async () => {
    expect(toolRunsParams({ pageNum: 2, pageSize: 20, type: '' })).toEqual({ pageNum: 2, pageSize: 20 });
    expect(toolRunsParams({ pageNum: 1, pageSize: 20, type: 'VIDEO_COMPRESS' })).toEqual({ pageNum: 1, pageSize: 20, type: 'VIDEO_COMPRESS' });
    const get = jest.spyOn(api, 'get').mockResolvedValue({ dataList: [run(1, 10)] });
    expect(await fetchMyToolRuns({ pageNum: 1, pageSize: 20, type: 'VIDEO_TO_GIF' })).toEqual({ total: 1, dataList: [run(1, 10)] });
    expect(get).toHaveBeenCalledWith('/toolbox/mine', { pageNum: 1, pageSize: 20, type: 'VIDEO_TO_GIF' });
  });

  it('addresses an output with the media ticket, and as an attachment for downloads', () => {
    expect(toolFileUrl(9, 0, 'a b')).toBe('/diyvrbt/toolbox/file/9/0?ticket=a+b');
    expect(toolFileUrl(9, 2, 'tk', true)).toBe('/diyvrbt/toolbox/file/9/2?ticket=tk&download=1');
  });

  it('reads the parameter a refusal names', () => {
    const refusal = (data: unknown) => new ApiError({ kind: 'business', url: '/toolbox/run', code: 3000, message: 'x', desc: 'x', data });
    expect(refusedField(refusal({ field: 'params.speed' }))).toBe('params.speed');
    expect(refusedField(refusal({ field: '' }))).toBeNull();
    expect(refusedField(refusal(null))).toBeNull();
    expect(refusedField(new Error('x'))).toBeNull();
  });

  it('polls my runs only while one is queued or running', () => {
    expect(anyRunActive({ total: 2, dataList: [run(1, 10), run(2, 0)] })).toBe(true);
    expect(anyRunActive({ total: 2, dataList: [run(1, 10), run(2, 1)] })).toBe(true);
    expect(anyRunActive({ total: 2, dataList: [run(1, 10), run(2, 9)] })).toBe(false);
    expect(anyRunActive(undefined)).toBe(false);
  });
});
