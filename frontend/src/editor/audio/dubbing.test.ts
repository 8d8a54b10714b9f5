import { ApiError } from '@/api/errors';
import type { TaskState } from '@/api/videoTask';
import { material } from '@/test/materials';
import { dub, DubbingFailed, type DubbingDeps } from './dubbing';

const INPUT = { text: '你好', voice: 'cmn' as const, rate: 1, pitch: 50 };
const state = (status: number, percent: number, reason = ''): TaskState => ({
  taskId: 7,
  status,
  percent,
  stage: status === 10 ? 'done' : 'rendering',
  framesDone: 0,
  framesTotal: 0,
  etaSeconds: 0,
  videoRelativePath: '',
  reason,
});

/** Deps whose run reports `states` in turn. */
function deps(states: TaskState[]): DubbingDeps & { used: jest.Mock } {
  const used = jest.fn(async () => ({ materialId: 'v1' }));
  return {
    start: jest.fn(async () => ({ taskId: 7 })),
    watch: async (_id, handlers) => states.forEach((s) => handlers.onState(s)),
    use: used,
    ready: async (id) => material(id, { type: 'audio', duration: 2.4 }),
    used,
  };
}

describe('dub', () => {
  it('follows the run to its end and answers the material its sound became', async () => {
    const seen: number[] = [];
    const d = deps([state(1, 40), state(10, 100)]);
    const m = await dub(INPUT, { onStarted: (id) => seen.push(-id), onState: (s) => seen.push(s.percent) }, new AbortController().signal, d);
    expect(seen).toEqual([-7, 40, 100]);
    expect(d.start).toHaveBeenCalledWith(INPUT);
    expect(d.used).toHaveBeenCalledWith(7, 0);
    expect(m).toMatchObject({ id: 'v1', duration: 2.4 });
  });

  it('says why a run failed and makes no material', async () => {
    const d = deps([state(1, 40), state(9, 0, 'text to speech: espeak-ng failed')]);
    const run = dub(INPUT, { onStarted: () => {}, onState: () => {} }, new AbortController().signal, d);
    await expect(run).rejects.toEqual(expect.objectContaining({ reason: 'text to speech: espeak-ng failed', status: 9 }));
    await expect(run).rejects.toBeInstanceOf(DubbingFailed);
    expect(d.used).not.toHaveBeenCalled();
  });

  it('stops following when aborted and makes no material', async () => {
    const controller = new AbortController();
    const d = deps([]);
    d.watch = async () => controller.abort();
    await expect(dub(INPUT, { onStarted: () => {}, onState: () => {} }, controller.signal, d)).rejects.toMatchObject({ name: 'AbortError' });
    expect(d.used).not.toHaveBeenCalled();
  });

  it('passes a refusal on as it came, naming its field', async () => {
    const d = deps([]);
    const desc = 'rate: 3 is not a speed between 0.5 and 2';
    const refused = new ApiError({ kind: 'business', url: '/tts/textToVoice', message: desc, code: 3000, desc, data: { field: 'rate' } });
    d.start = async () => {
      throw refused;
    };
    await expect(dub(INPUT, { onStarted: () => {}, onState: () => {} }, new AbortController().signal, d)).rejects.toBe(refused);
  });
});
