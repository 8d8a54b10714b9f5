import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Ability } from '@/api/ai';
import { formatHitTime } from '@/api/audit';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { NO_QUOTA } from '@/test/toolboxFixtures';

jest.setTimeout(120_000);

const AUDIT: Ability = { key: 'video-auditing', group: 'analyze', nameZh: '视频审核', nameEn: 'Video auditing', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' };
const CLIP = material('5', { type: 'video', materialName: 'clip.mp4', duration: 4, hasAudio: true, fileSize: 64_000, width: 640, height: 360 });
const FLAGGED = {
  verdict: 'flagged',
  source: 'material',
  framesRead: 5,
  layersRead: 0,
  frameWidth: 640,
  frameHeight: 360,
  hits: [{ word: '样例词', source: 'frame', timeMs: 2040, bbox: { x: 200, y: 150, w: 240, h: 60 }, text: '这是 样例 词', frameOutput: 1 }],
};

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

function serve(run: (body: Record<string, unknown>) => Promise<unknown>, events: [string, object][], report: object = FLAGGED) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/ai/abilities') return [AUDIT];
    if (url === '/material/quota') return NO_QUOTA;
    if (url === '/toolbox/file/3/0') return new Blob([JSON.stringify(report)], { type: 'application/json' });
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return page([CLIP]);
    if (/^\/material\/info\/(.+)$/.exec(url)) return CLIP;
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/ai/audit') return run(body);
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(async () => sse(events));
  return post;
}

afterEach(() => jest.restoreAllMocks());

describe('/ai/ability/analyze-video-auditing', () => {
  it('audits a picked video on the farm and lists each word with its frame, time and box', async () => {
    const post = serve(async () => ({ taskId: 3, jobId: 'j3' }), [
      ['progress', state(1, 40, 'rendering')],
      ['done', state(10, 100, 'done')],
    ]);
    renderApp('/ai/ability/analyze-video-auditing', SIGNED_IN);
    expect(await screen.findByTestId('audit-run')).toBeDisabled();
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('audit-run'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/ai/audit', { materialId: '5' }, { silent: true }));
    expect(await screen.findByTestId('audit-verdict')).toHaveAttribute('data-verdict', 'flagged');
    const hit = screen.getByTestId('audit-hit');
    expect(within(hit).getByTestId('audit-word')).toHaveTextContent('样例词');
    expect(within(hit).getByTestId('audit-time')).toHaveTextContent('0:02.0');
    const frame = await within(hit).findByTestId('audit-frame');
    expect(frame.getAttribute('src')).toContain('/toolbox/file/3/1?ticket=tk-3');
    // The box scaled from the 640-pixel frame to the 240-pixel thumbnail (3/8), 2 px of border around it.
    const box = within(hit).getByTestId('audit-box');
    expect(box.style.left).toBe('73px');
    expect(box.style.width).toBe('94px');
  });

  it('shows a pass without hits', async () => {
    const clean = { ...FLAGGED, verdict: 'pass', hits: [] };
    serve(async () => ({ taskId: 3, jobId: 'j3' }), [['done', state(10, 100, 'done')]], clean);
    renderApp('/ai/ability/analyze-video-auditing', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('audit-run'));
    expect(await screen.findByTestId('audit-verdict')).toHaveAttribute('data-verdict', 'pass');
    expect(screen.queryByTestId('audit-hit')).toBeNull();
  });

  it('says why a run failed', async () => {
    serve(async () => ({ taskId: 3, jobId: 'j3' }), [['failed', state(9, 0, 'error', 'video auditing: the AI provider failed: tesseract failed')]]);
    renderApp('/ai/ability/analyze-video-auditing', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('audit-run'));
    expect(await screen.findByTestId('audit-error')).toHaveTextContent('tesseract failed');
  });

  it('words a refusal under the picker with the server’s words', async () => {
    const desc = 'materialId: the material is a audio: choose a video';
    serve(async () => {
      throw new ApiError({ kind: 'business', url: '/ai/audit', message: desc, code: 3000, desc, data: { field: 'materialId' } });
    }, []);
    renderApp('/ai/ability/analyze-video-auditing', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('material-5'));
    fireEvent.click(screen.getByTestId('audit-run'));
    expect(await screen.findByText(desc)).toBeInTheDocument();
    expect(screen.queryByTestId('audit-report')).toBeNull();
  });

  it('shows an unavailable ability’s reason and keeps the run off', async () => {
    serve(async () => ({ taskId: 3, jobId: 'j3' }), []);
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
      if (url === '/ai/abilities') return [{ ...AUDIT, available: false, reasonCode: 'not-configured', reason: 'no sensitive words are listed' }];
      if (url === '/material/quota') return NO_QUOTA;
      throw new Error(`unexpected GET ${url}`);
    });
    renderApp('/ai/ability/analyze-video-auditing', SIGNED_IN);
    expect(await screen.findByText('no sensitive words are listed')).toBeInTheDocument();
    expect(screen.getByTestId('audit-run')).toBeDisabled();
  });
});

describe('formatHitTime', () => {
  it('reads minutes, seconds and tenths', () => {
    expect(formatHitTime(0)).toBe('0:00.0');
    expect(formatHitTime(2040)).toBe('0:02.0');
    expect(formatHitTime(75_960)).toBe('1:16.0');
  });
});
