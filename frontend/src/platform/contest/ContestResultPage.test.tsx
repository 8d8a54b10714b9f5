import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { ContestDto, EntryDto } from '@/api/contest';
import { contest, entry } from '@/test/contestFixtures';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';
import { byRank } from './ContestResultPage';

function serve(list: ContestDto[], details: Record<number, EntryDto[]> = {}) {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/contest/list') return list;
    const one = /^\/contest\/(\d+)$/.exec(url);
    const found = one ? list.find((c) => c.id === Number(one[1])) : undefined;
    if (found) return { contest: found, entries: details[found.id] ?? [] };
    throw new Error(`unexpected GET ${url}`);
  });
}

const rowIds = () => screen.getAllByTestId(/^contest-rank-row-/).map((row) => row.getAttribute('data-testid'));

afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('byRank', () => {
  it('orders by rank, ties in the given order, unranked last', () => {
    const ranked = byRank([entry(1, { rank: null }), entry(2, { rank: 2 }), entry(3, { rank: 1 }), entry(4, { rank: 2 })]);
    expect(ranked.map((e) => e.id)).toEqual([3, 2, 4, 1]);
  });
});

describe('/qs/contest-result', () => {
  it('ranks a closed likes contest by rank, with cover, name and likes', async () => {
    serve([contest(7, { title: '夏日短片大赛', state: 'closed', entryCount: 3 })], {
      7: [entry(21, { rank: 2, likes: 5, taskName: '海边' }), entry(22, { rank: 1, likes: 9, taskName: '西瓜' }), entry(23, { rank: 3, likes: 1, mine: true })],
    });
    renderApp('/qs/contest-result?id=7', SIGNED_IN);
    await screen.findByTestId('contest-rank-row-22');
    expect(screen.getByTestId('contest-title')).toHaveTextContent('夏日短片大赛 · 比赛结果');
    expect(rowIds()).toEqual(['contest-rank-row-22', 'contest-rank-row-21', 'contest-rank-row-23']);
    const first = screen.getByTestId('contest-rank-row-22');
    expect(within(first).getByTestId('contest-rank-22')).toHaveTextContent('1');
    expect(within(first).getByTestId('contest-rank-name-22')).toHaveTextContent('西瓜');
    expect(within(first).getByTestId('contest-rank-value-22')).toHaveTextContent('9');
    expect(within(first).getByTestId('contest-cover-22')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '点赞数' })).toBeInTheDocument();
    fireEvent.click(within(first).getByTestId('contest-play-22'));
    expect(await screen.findByTestId('contest-video')).toHaveAttribute('src', '/diyvrbt/contest/video?entryId=22&sig=x');
  });

  it('shows the score of a closed scores contest; ties share a rank', async () => {
    serve([contest(8, { state: 'closed', ranking: 'scores' })], {
      8: [entry(31, { rank: 1, score: 95 }), entry(32, { rank: 1, score: 95 }), entry(33, { rank: 3, score: 60 })],
    });
    renderApp('/qs/contest-result?id=8', SIGNED_IN);
    await screen.findByTestId('contest-rank-row-33');
    expect(screen.getByRole('columnheader', { name: '得分' })).toBeInTheDocument();
    expect(screen.getByTestId('contest-rank-32')).toHaveTextContent('1');
    expect(screen.getByTestId('contest-rank-33')).toHaveTextContent('3');
    expect(screen.getByTestId('contest-rank-value-33')).toHaveTextContent('60');
  });

  it('says when the result of an open contest will be published, with its entries count', async () => {
    serve([contest(7, { state: 'open', entryCount: 4, endTime: '2026-12-31 10:00:00' })], { 7: [entry(21)] });
    renderApp('/qs/contest-result?id=7', SIGNED_IN);
    const notice = await screen.findByTestId('contest-result-pending');
    expect(notice).toHaveTextContent('结果将在 2026-12-31 10:00:00 后公布');
    expect(notice).toHaveTextContent('4 个作品参赛');
    expect(screen.queryByTestId('contest-rank-row-21')).toBeNull();
  });

  it('without an id lists the closed contests to pick one', async () => {
    serve([contest(9, { title: '进行中的比赛' }), contest(3, { title: '春季大赛', state: 'closed' })], { 3: [] });
    const { router } = renderApp('/qs/contest-result', SIGNED_IN);
    const pick = await screen.findByTestId('contest-result-pick-3');
    expect(pick).toHaveTextContent('春季大赛');
    expect(screen.queryByTestId('contest-result-pick-9')).toBeNull();
    fireEvent.click(pick);
    await waitFor(() => expect(router.state.location.search).toBe('?id=3'));
    expect(await screen.findByTestId('contest-result')).toHaveTextContent('这场比赛没有作品参赛');
  });
});
