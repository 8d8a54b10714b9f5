import { ApiError } from './errors';
import type { StreamOptions } from './client';
import { MAX_STREAM_FAILURES, POLL_INTERVAL_MS, watchTaskProgress, type ProgressDeps, type ProgressMode } from './taskProgress';
import type { TaskState } from './videoTask';

const state = (percent: number, status = 1, stage = 'rendering'): TaskState => ({
  taskId: 5,
  status,
  percent,
  stage,
  framesDone: percent,
  framesTotal: 100,
  etaSeconds: 10,
  videoRelativePath: '',
  reason: '',
});

function body(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

const event = (id: number, name: string, s: TaskState) => `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(s)}\n\n`;

function deps(streams: Array<(options: StreamOptions) => ReadableStream<Uint8Array> | Error>, polls: Array<TaskState | Error> = []) {
  const calls: StreamOptions[] = [];
  const sleeps: number[] = [];
  const d: ProgressDeps = {
    stream: async (_url, options) => {
      calls.push(options);
      const next = streams.shift();
      if (!next) throw new Error('no more streams');
      const result = next(options);
      if (result instanceof Error) throw result;
      return result;
    },
    poll: async () => {
      const next = polls.shift();
      if (!next) throw new Error('no more polls');
      if (next instanceof Error) throw next;
      return next;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
  return { d, calls, sleeps };
}

async function run(d: ProgressDeps) {
  const states: TaskState[] = [];
  const modes: ProgressMode[] = [];
  await watchTaskProgress(5, { onState: (s) => states.push(s), onMode: (m) => modes.push(m) }, new AbortController().signal, d);
  return { states, modes };
}

describe('watchTaskProgress', () => {
  it('reads events in order and stops at done', async () => {
    const { d, calls } = deps([() => body(`: keep-alive\n\n${event(1, 'progress', state(10))}${event(2, 'progress', state(60))}${event(3, 'done', state(100, 10, 'done'))}`)]);
    const { states, modes } = await run(d);
    expect(states.map((s) => s.percent)).toEqual([10, 60, 100]);
    expect(modes).toEqual(['stream']);
    expect(calls[0]).toMatchObject({ params: { taskId: 5 }, lastEventId: '', silent: true });
  });

  it('reconnects with Last-Event-ID after the stream ends early', async () => {
    const { d, calls, sleeps } = deps([
      () => body(event(1, 'progress', state(10)) + event(2, 'progress', state(20))),
      () => body(event(3, 'cancelled', state(20, 11, 'cancelled'))),
    ]);
    const { states } = await run(d);
    expect(states.map((s) => s.status)).toEqual([1, 1, 11]);
    expect(calls.map((c) => c.lastEventId)).toEqual(['', '2']);
    expect(sleeps).toEqual([1000]);
  });

  it('falls back to polling every 2 s when the stream keeps failing', async () => {
    const network = () => new ApiError({ kind: 'network', url: '/videotask/events', message: 'reset' });
    const { d, sleeps } = deps(
      Array.from({ length: MAX_STREAM_FAILURES }, () => network),
      [state(30), new ApiError({ kind: 'network', url: '/videotask/state', message: 'blip' }), state(100, 10, 'done')],
    );
    const { states, modes } = await run(d);
    expect(modes).toEqual(['stream', 'polling']);
    expect(states.map((s) => s.percent)).toEqual([30, 100]);
    expect(sleeps.filter((ms) => ms === POLL_INTERVAL_MS)).toHaveLength(2);
  });

  it('polls at once when the server has no stream for this task', async () => {
    const { d, calls } = deps([() => new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' })], [state(100, 9, 'error')]);
    const { states, modes } = await run(d);
    expect(calls).toHaveLength(1);
    expect(modes).toEqual(['stream', 'polling']);
    expect(states[0]?.status).toBe(9);
  });

  it('stops on an expired session (the client handles it)', async () => {
    const { d } = deps([() => new ApiError({ kind: 'auth', url: '/videotask/events', code: 4000, message: 'expired' })]);
    const { states, modes } = await run(d);
    expect(states).toEqual([]);
    expect(modes).toEqual(['stream']);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const { d } = deps([
      (options) =>
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(event(1, 'progress', state(5))));
            options.signal?.addEventListener('abort', () => c.error(new Error('aborted')));
          },
        }),
    ]);
    const states: TaskState[] = [];
    const watching = watchTaskProgress(5, { onState: (s) => states.push(s) }, controller.signal, d);
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await watching;
    expect(states.map((s) => s.percent)).toEqual([5]);
  });
});
