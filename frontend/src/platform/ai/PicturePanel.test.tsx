import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Ability } from '@/api/ai';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { applyLanguage, i18n } from '@/app/i18n';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { NO_QUOTA, toolRun } from '@/test/toolboxFixtures';

jest.setTimeout(120_000);

const ability = (key: string, nameZh: string, nameEn: string, available = true): Ability => ({
  key,
  group: 'create',
  nameZh,
  nameEn,
  hasPage: true,
  available,
  provider: available ? 'http' : 'none',
  reasonCode: available ? '' : 'not-configured',
  reason: available ? '' : 'no provider is configured for text-to-image; set [ai.abilities.text-to-image] provider = "http" with base_url, model and api_key_env',
});
const T2I = ability('text-to-image', '文生图', 'Text to image');
const SIMILAR = ability('similar-image-generation', '相似图生成', 'Similar image generation');
const KITE = material('8', { type: 'picture', materialName: 'kite.png', fileSize: 4_000 });
const picture = (index: number) => ({ index, kind: 'picture', name: `text-to-image-${index + 1}.png`, size: 40_000, durationMs: 0, width: 512, height: 512 });
const DONE = toolRun(3, 10, { type: 'TEXT_TO_IMAGE', params: { prompt: '红色的风筝', size: '512x512', count: 2 }, materialIds: [], outputs: [picture(0), picture(1)] });

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

function serve(abilities: Ability[], start: (url: string, body: Record<string, unknown>) => Promise<unknown>, run = DONE, events: [string, object][] = [['done', state(10, 100, 'done')]]) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/ai/abilities') return abilities;
    if (url === '/material/quota') return NO_QUOTA;
    if (url === '/toolbox/run/3') return run;
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return page([KITE]);
    if (/^\/material\/info\//.test(url)) return KITE;
    if (url === '/videotask/mediaTicket') return { ticket: 'tk-3', expiresInSeconds: 600 };
    if (url === '/toolbox/use') return { materialId: 91 };
    if (url === '/ai/textToImage' || url === '/ai/similarImage') return start(url, body);
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(async () => sse(events));
  return post;
}

afterEach(async () => {
  jest.restoreAllMocks();
  await applyLanguage('zh-CN');
});

describe('/ai/ability/create-text-to-image', () => {
  it('draws pictures from a prompt on the farm and shows them with download and use', async () => {
    const post = serve([T2I], async () => ({ taskId: 3, jobId: 'j3' }));
    renderApp('/ai/ability/create-text-to-image', SIGNED_IN);
    expect(await screen.findByTestId('picture-run')).toBeDisabled();
    fireEvent.change(screen.getByTestId('picture-prompt'), { target: { value: '红色的风筝' } });
    fireEvent.change(screen.getByTestId('picture-count'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('picture-run'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/ai/textToImage', { prompt: '红色的风筝', size: '512x512', count: 2 }, { silent: true }));
    const outputs = await screen.findByTestId('tool-outputs');
    expect(within(outputs).getAllByTestId('output-picture')).toHaveLength(2);
    expect(within(outputs).getAllByTestId('output-facts')[0]).toHaveTextContent('512×512');
    expect(screen.getByTestId('download-1')).toHaveAttribute('href', expect.stringContaining('/toolbox/file/3/1'));
    fireEvent.click(screen.getByTestId('use-0'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/toolbox/use', { taskId: 3, index: 0 }));
  });

  it('words a refused prompt under its field and a failed run with its reason', async () => {
    const desc = 'prompt: is 1001 characters long, at most 1000 are taken';
    serve([T2I], async () => {
      throw new ApiError({ kind: 'business', url: '/ai/textToImage', message: desc, code: 3000, desc, data: { field: 'prompt' } });
    });
    renderApp('/ai/ability/create-text-to-image', SIGNED_IN);
    fireEvent.change(await screen.findByTestId('picture-prompt'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('picture-run'));
    expect(await screen.findByTestId('picture-refused-prompt')).toHaveTextContent('请输入 1–1000 字的画面描述');

    jest.restoreAllMocks();
    const failed = toolRun(3, 9, { type: 'TEXT_TO_IMAGE', reason: 'text to image: the AI provider refused the call (401): bad key' });
    serve([T2I], async () => ({ taskId: 3, jobId: 'j3' }), failed, [['failed', state(9, 0, 'error', failed.reason)]]);
    fireEvent.click(screen.getByTestId('picture-run'));
    expect(await screen.findByTestId('tool-failed')).toHaveTextContent('refused the call (401)');
  });

  it('says it is not configured, with what would enable it, and offers no run', async () => {
    serve([ability('text-to-image', '文生图', 'Text to image', false)], async () => ({ taskId: 3, jobId: 'j3' }));
    renderApp('/ai/ability/create-text-to-image', SIGNED_IN);
    expect(await screen.findByText('未配置')).toBeInTheDocument();
    expect(screen.getByText(/api_key_env/)).toBeInTheDocument();
    expect(screen.getByTestId('picture-run')).toBeDisabled();
  });
});

describe('/ai/ability/create-similar-image-generation', () => {
  it('makes similar pictures of a picked picture, in English too', async () => {
    await applyLanguage('en-US');
    const post = serve([SIMILAR], async () => ({ taskId: 3, jobId: 'j3' }));
    renderApp('/ai/ability/create-similar-image-generation', SIGNED_IN);
    expect(await screen.findByText('Reference picture')).toBeInTheDocument();
    expect(screen.getByTestId('picture-run')).toHaveTextContent('Generate similar pictures');
    fireEvent.click(await screen.findByTestId('material-8'));
    fireEvent.click(screen.getByTestId('picture-run'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/ai/similarImage', { materialId: '8', size: '512x512', count: 1 }, { silent: true }));
    expect(await screen.findByTestId('tool-outputs')).toBeInTheDocument();
    expect(i18n.language).toBe('en-US');
  });
});
