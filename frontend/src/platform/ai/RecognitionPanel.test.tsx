import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Ability } from '@/api/ai';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { NO_QUOTA } from '@/test/toolboxFixtures';

jest.setTimeout(120_000);

const ASR: Ability = { key: 'speech-content-analysis', group: 'analyze', nameZh: '语音内容分析', nameEn: 'Speech content analysis', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' };
const SOUND = material('5', { type: 'audio', materialName: 'hello.wav', duration: 2, hasAudio: true, fileSize: 64_000 });
const TRANSCRIPT = { language: 'en', text: 'hello world', words: [{ word: 'hello', startMs: 120, endMs: 480 }, { word: 'world', startMs: 520, endMs: 990 }], durationMs: 2000, model: 'pocketsphinx en-us' };

function sse(events: [string, object][]): ReadableStream<Uint8Array> {
  const text = events.map(([event, data], i) => `id: ${i + 1}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });
}

const state = (status: number, percent: number, stage: string, reason = '') => ({ taskId: 3, status, percent, stage, framesDone: 0, framesTotal: 0, etaSeconds: 0, videoRelativePath: '', reason });

function serve(run: (body: Record<string, unknown>) => Promise<unknown>, events: [string, object][]) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/ai/abilities') return [ASR];
    if (url === '/material/quota') return NO_QUOTA;
    if (url === '/toolbox/file/3/0') return new Blob([JSON.stringify(TRANSCRIPT)], { type: 'application/json' });
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return page([SOUND]);
    const info = /^\/material\/info\/(.+)$/.exec(url);
    if (info) return SOUND;
    if (url === '/ASR/voiceToText') return run(body);
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(async () => sse(events));
  return post;
}

afterEach(() => jest.restoreAllMocks());

describe('/ai/ability/analyze-speech-content-analysis', () => {
  it('recognises a picked sound on the farm and shows the transcript with word timings', async () => {
    const post = serve(async () => ({ taskId: 3, jobId: 'j3' }), [
      ['progress', state(1, 40, 'rendering')],
      ['done', state(10, 100, 'done')],
    ]);
    renderApp('/ai/ability/analyze-speech-content-analysis', SIGNED_IN);
    expect(await screen.findByTestId('asr-run')).toBeDisabled();
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('asr-run'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/ASR/voiceToText', { materialId: '5', language: 'en' }, { silent: true }));
    expect(await screen.findByTestId('transcript-text')).toHaveTextContent('hello world');
    const words = screen.getByTestId('transcript-words');
    expect(within(words).getByText('0.12 s')).toBeInTheDocument();
    expect(within(words).getByText('0.99 s')).toBeInTheDocument();
  });

  it('says why a run failed', async () => {
    serve(async () => ({ taskId: 3, jobId: 'j3' }), [['failed', state(9, 0, 'error', 'speech recognition: no speech was heard in the sound')]]);
    renderApp('/ai/ability/analyze-speech-content-analysis', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('asr-run'));
    expect(await screen.findByTestId('asr-error')).toHaveTextContent('no speech was heard');
  });

  it('words a refused language under its field with the server’s reason', async () => {
    const desc = 'not-configured: no Mandarin speech model ships in a Debian package';
    serve(async () => {
      throw new ApiError({ kind: 'business', url: '/ASR/voiceToText', message: desc, code: 3000, desc, data: { reason: 'not-configured', field: 'language' } });
    }, []);
    renderApp('/ai/ability/analyze-speech-content-analysis', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('asr-run'));
    expect(await screen.findByText(desc)).toBeInTheDocument();
    expect(screen.queryByTestId('transcript')).toBeNull();
  });
});
