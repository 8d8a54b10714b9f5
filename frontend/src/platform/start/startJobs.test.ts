import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { Rule } from '@/editor/model/gen/Rule';
import { material } from '@/test/materials';
import { handoffOf, runStartJob, StartProblem } from './startJobs';

afterEach(() => jest.restoreAllMocks());

function saved(post: jest.SpyInstance): { body: Record<string, unknown>; rule: Rule } {
  const call = post.mock.calls.find(([url]) => url === '/videotask/save');
  if (!call) throw new Error('nothing saved');
  const body = call[1] as Record<string, unknown>;
  return { body, rule: JSON.parse(String(body.taskInfo)) as Rule };
}

describe('runStartJob', () => {
  it('saves a blank task of the ratio and kind as a new task', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue(31);
    await expect(runStartJob({ kind: 'blank', name: '春节', ratio: '9:16', usedFor: 'TASK_TEMPLATE' })).resolves.toBe(31);
    const { body, rule } = saved(post);
    expect(body).toMatchObject({ taskId: -1, name: '春节', sizeCategoryId: 50, usedFor: 'TASK_TEMPLATE' });
    expect(rule.resolutionRatio.name).toBe('9:16');
  });

  it('fills a template with nothing replaced, naming the task when a name is given', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue({ taskId: 8 });
    await expect(runStartJob({ kind: 'template', name: '', templateId: 5 })).resolves.toBe(8);
    expect(post).toHaveBeenCalledWith('/template/fill', { templateId: 5, replaces: [] });
    await runStartJob({ kind: 'template', name: '店庆', templateId: 5 });
    expect(post).toHaveBeenLastCalledWith('/template/fill', { templateId: 5, name: '店庆', replaces: [] });
  });

  it('reads each picked material as the caller, then saves them in the order picked', async () => {
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/b') return material('b', { type: 'video', duration: 5 });
      if (url === '/material/info/a') return material('a');
      if (url === '/videotask/save') return 12;
      throw new Error(`unexpected ${url}`);
    });
    await expect(runStartJob({ kind: 'materials', name: '旅行', ratio: '16:9', layout: 'scenes', materialIds: ['b', 'a'] })).resolves.toBe(12);
    const { body, rule } = saved(post);
    expect(body).toMatchObject({ taskId: -1, name: '旅行', sizeCategoryId: 41, usedFor: 'ALL' });
    expect(rule.scenes.map((s) => s.layers.map((l) => (l as { materialId?: string }).materialId))).toEqual([['b'], ['a']]);
  });

  it('makes nothing when the server does not answer a picked material (not the caller’s)', async () => {
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/theirs') throw new ApiError({ kind: 'business', code: 3000, desc: 'material theirs does not exist', message: 'refused', url });
      if (url === '/material/info/a') return material('a');
      throw new Error(`unexpected ${url}`);
    });
    await expect(runStartJob({ kind: 'materials', name: 'x', ratio: '16:9', layout: 'one', materialIds: ['a', 'theirs'] })).rejects.toBeInstanceOf(ApiError);
    expect(post.mock.calls.map(([url]) => url)).not.toContain('/videotask/save');
  });

  it('refuses materials still being processed before saving', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue(material('a', { state: 'processing' }));
    await expect(runStartJob({ kind: 'materials', name: 'x', ratio: '16:9', layout: 'one', materialIds: ['a'] })).rejects.toEqual(new StartProblem('notReady'));
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('puts the picture, by its address as the caller reads it, into the chosen slot', async () => {
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/p9') return material('p9');
      if (url === '/template/fill') return { taskId: 44 };
      throw new Error(`unexpected ${url}`);
    });
    await expect(runStartJob({ kind: 'putImage', name: '', templateId: 3, slotId: 's2', materialId: 'p9' })).resolves.toBe(44);
    expect(post).toHaveBeenLastCalledWith('/template/fill', { templateId: 3, replaces: [{ id: 's2', replaceContent: material('p9').url }] });
  });
});

describe('handoffOf', () => {
  it('takes a job with a way back and nothing else', () => {
    const handoff = { job: { kind: 'template', name: '', templateId: 1 }, back: '/new-task' };
    expect(handoffOf(handoff)).toEqual(handoff);
    expect(handoffOf(null)).toBeNull();
    expect(handoffOf({ job: { kind: 'other' }, back: '/' })).toBeNull();
    expect(handoffOf({ job: { kind: 'blank' } })).toBeNull();
  });
});
