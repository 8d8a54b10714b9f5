import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Material } from '@/api/material';
import { material } from '@/test/materials';
import { MANAGER, renderApp } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';

function serve(byState: Record<string, Material[]>) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/manage/overview')
      return { queues: [{ queue: 'template', pending: 3 }, { queue: 'chartlet', pending: (byState.pending ?? []).length }, { queue: 'artfont', pending: 0 }, { queue: 'dynamicword', pending: 0 }, { queue: 'service', pending: 1 }], musicTracks: 4 };
    throw new Error(`unexpected GET ${url}`);
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/manage/review/list') {
      const list = byState[String(body.state)] ?? [];
      return { total: list.length, pageNum: 1, pageSize: 20, dataList: list };
    }
    if (url === '/manage/review/decide') return { changed: (body.materialIds as string[]).length };
    throw new Error(`unexpected POST ${url}`);
  });
}

function decisions(post: jest.SpyInstance) {
  return post.mock.calls.filter(([url]) => url === '/manage/review/decide').map(([, body]) => body as Record<string, unknown>);
}

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('manage area', () => {
  it('counts what waits and links each count to its queue', async () => {
    serve({ pending: [material('a'), material('b')] });
    renderApp('/manage', MANAGER);
    const chartlet = await screen.findByTestId('queue-chartlet');
    await waitFor(() => expect(chartlet).toHaveTextContent('2'));
    expect(chartlet).toHaveAttribute('href', '/manage/check-chartlet/pending');
    expect(screen.getByTestId('queue-template')).toHaveTextContent('3');
    expect(screen.getByTestId('queue-service')).toHaveAttribute('href', '/manage/check-service');
    expect(screen.getByTestId('queue-service')).toHaveTextContent('服务商申请待审核');
    expect(screen.getByTestId('queue-music')).toHaveAttribute('href', '/manage/music-content');
  });

  it('rejects only with a reason, approves one or many', async () => {
    const post = serve({ pending: [material('a', { materialName: '贴纸A' }), material('b')], rejected: [material('r', { openState: 3, reasonsForFailureOfAudit: '太模糊' })] });
    renderApp('/manage/check-chartlet/pending', MANAGER);
    expect(await screen.findByTestId('review-name-a')).toHaveTextContent('贴纸A');

    fireEvent.click(screen.getByTestId('reject-a'));
    fireEvent.click(await screen.findByTestId('reject-ok'));
    expect(await screen.findByText('请填写驳回原因')).toBeInTheDocument();
    expect(decisions(post)).toEqual([]);
    fireEvent.change(screen.getByTestId('reject-reason'), { target: { value: ' 边缘有白边 ' } });
    fireEvent.click(screen.getByTestId('reject-ok'));
    await waitFor(() => expect(decisions(post)).toEqual([{ materialIds: ['a'], approve: false, reason: '边缘有白边' }]));

    fireEvent.click(screen.getByTestId('approve-b'));
    await waitFor(() => expect(decisions(post).at(-1)).toEqual({ materialIds: ['b'], approve: true, reason: undefined }));

    const rows = screen.getAllByRole('checkbox');
    rows.slice(1).forEach((box) => fireEvent.click(box));
    fireEvent.click(screen.getByTestId('approve-selected'));
    await waitFor(() => expect(decisions(post).at(-1)).toEqual({ materialIds: ['a', 'b'], approve: true, reason: undefined }));

    fireEvent.click(screen.getByTestId('state-rejected'));
    const row = (await screen.findByTestId('review-name-r')).closest('tr');
    expect(within(row as HTMLElement).getByText('太模糊')).toBeInTheDocument();
  });
});
