/**
 * A server-sent events parser (WHATWG HTML "event stream interpretation") for streams read
 * with fetch(): text arrives in chunks split anywhere, even inside a CRLF pair.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, 'message' when absent. */
  event: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
  /** The last event id seen so far (ids persist across events, as in EventSource). */
  id: string;
}

export interface SseParser {
  /** Feeds decoded text; complete events are passed to the callback in order. */
  push(text: string): void;
  /** The last event id seen, '' before any. */
  lastEventId(): string;
  /** The last `retry:` value in milliseconds, or null. */
  retryMs(): number | null;
}

/** Returns a parser that calls `onEvent` for each complete event. */
export function createSseParser(onEvent: (event: SseEvent) => void, initialId = ''): SseParser {
  let buffer = '';
  let skipLeadingLf = false;
  let data: string[] = [];
  let eventType = '';
  let lastId = initialId;
  let retry: number | null = null;

  function dispatch(): void {
    if (data.length > 0) onEvent({ event: eventType || 'message', data: data.join('\n'), id: lastId });
    data = [];
    eventType = '';
  }

  function line(text: string): void {
    if (text === '') {
      dispatch();
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        data.push(value);
        break;
      case 'event':
        eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        break;
      default:
        break;
    }
  }

  return {
    push(text: string) {
      if (text === '') return;
      let chunk = text;
      if (skipLeadingLf && chunk.startsWith('\n')) chunk = chunk.slice(1);
      skipLeadingLf = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i += 1) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i += 1;
          } else {
            skipLeadingLf = true;
          }
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    lastEventId: () => lastId,
    retryMs: () => retry,
  };
}

/** Reads a byte stream to its end, feeding the parser; resolves when the stream ends. */
export async function readSse(body: ReadableStream<Uint8Array>, parser: SseParser, signal?: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } finally {
    signal?.removeEventListener('abort', cancel);
    try {
      reader.releaseLock();
    } catch {
      /* a cancelled read may still hold the lock; the stream is done either way */
    }
  }
}
