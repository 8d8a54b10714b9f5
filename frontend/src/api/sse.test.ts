import { createSseParser, readSse, type SseEvent } from './sse';

function parseAll(chunks: string[], initialId = '') {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e), initialId);
  for (const c of chunks) parser.push(c);
  return { events, parser };
}

const STREAM =
  ': keep-alive\n\n' +
  'id: 1\nevent: progress\ndata: {"percent":10}\n\n' +
  'id: 2\r\nevent: progress\r\ndata: {"percent":\r\ndata: 50}\r\n\r\n' +
  ':comment in the middle\n' +
  'id: 3\revent: done\rdata:{"percent":100}\r\r';

const EXPECTED: SseEvent[] = [
  { event: 'progress', data: '{"percent":10}', id: '1' },
  { event: 'progress', data: '{"percent":\n50}', id: '2' },
  { event: 'done', data: '{"percent":100}', id: '3' },
];

describe('createSseParser', () => {
  it('parses a whole stream with LF, CRLF and CR line ends, comments and multi-line data', () => {
    const { events, parser } = parseAll([STREAM]);
    expect(events).toEqual(EXPECTED);
    expect(parser.lastEventId()).toBe('3');
  });

  it('gives the same events however the text is split into chunks', () => {
    for (let size = 1; size <= 7; size += 1) {
      const chunks: string[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(parseAll(chunks).events).toEqual(EXPECTED);
    }
    for (let cut = 0; cut <= STREAM.length; cut += 1) {
      expect(parseAll([STREAM.slice(0, cut), '', STREAM.slice(cut)]).events).toEqual(EXPECTED);
    }
  });

  it('treats a CR at the end of a chunk and an LF at the start of the next as one line end', () => {
    const { events } = parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
    expect(events).toEqual([{ event: 'message', data: 'a\nb', id: '' }]);
  });

  it('holds an incomplete event until its blank line arrives', () => {
    const { events, parser } = parseAll(['id: 7\ndata: x\n']);
    expect(events).toEqual([]);
    parser.push('\n');
    expect(events).toEqual([{ event: 'message', data: 'x', id: '7' }]);
  });

  it('keeps the last id across events, updates it without data, and ignores ids with NUL', () => {
    const { events, parser } = parseAll(['id: 4\n\n', 'data: a\n\n', 'id: bad\0id\ndata: b\n\n'], '2');
    expect(events).toEqual([
      { event: 'message', data: 'a', id: '4' },
      { event: 'message', data: 'b', id: '4' },
    ]);
    expect(parser.lastEventId()).toBe('4');
  });

  it('starts from the given id and reads retry, ignoring unknown fields and bad retry values', () => {
    const { events, parser } = parseAll(['retry: 1500\nfoo: bar\ndata\n\nretry: x\n\n'], '9');
    expect(events).toEqual([{ event: 'message', data: '', id: '9' }]);
    expect(parser.retryMs()).toBe(1500);
  });

  it('does not dispatch an event that has no data lines', () => {
    expect(parseAll(['event: progress\n\n: ping\n\n']).events).toEqual([]);
  });
});

describe('readSse', () => {
  it('decodes UTF-8 split across byte chunks', async () => {
    const bytes = new TextEncoder().encode('data: 渲染中\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readSse(body, createSseParser((e) => events.push(e)));
    expect(events).toEqual([{ event: 'message', data: '渲染中', id: '' }]);
  });

  it('ends when the signal aborts', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: a\n\n'));
      },
    });
    const ac = new AbortController();
    const events: SseEvent[] = [];
    const done = readSse(body, createSseParser((e) => events.push(e)), ac.signal);
    await Promise.resolve();
    ac.abort();
    await done;
    expect(events).toHaveLength(1);
  });
});
