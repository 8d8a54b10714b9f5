import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { ContestDto, EntryDto } from '@/api/contest';
import { ApiError } from '@/api/errors';
import type { TaskSummary } from '@/api/videoTask';
import { contest, entry } from '@/test/contestFixtures';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO, tpl } from '@/test/templateFixtures';

const work = (id: number, change: Partial<TaskSummary> = {}): TaskSummary => ({
  id,
  taskName: `我的作品${id}`,
  status: 10,
  reason: '',
  videoUrl: `/diyvrbt/videotask/download?taskId=${id}`,
  coverUrl: `/diyvrbt/videotask/cover?taskId=${id}`,
  ...change,
});

interface Served {
  list?: ContestDto[];
  detail?: { contest: ContestDto; entries: EntryDto[] };
  works?: TaskSummary[];
  refuse?: Record<string, string>;
}

/** A tenant's server: the contests, one contest's detail, my works; `refuse` answers a POST's URL with a 3000 desc. */
function serve({ list = [], detail, works = [], refuse = {} }: Served) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/contest/list') return list;
    if (detail && url === `/contest/${detail.contest.id}`) return detail;
    if (url.startsWith('/contest/')) throw new ApiError({ kind: 'business', url, code: 3000, desc: `contest ${url.slice(9)} does not exist`, message: 'x' });
    if (url === '/videotask/mine') return { total: works.length, list: works };
    if (url === '/template/5') return tpl(5, { taskName: '夏日模板' });
    if (url === '/template/slots/5') return [];
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    const desc = refuse[url];
    if (desc) throw new ApiError({ kind: 'business', url, code: 3000, desc, message: desc });
    if (url === '/videotask/mediaTicket') return { ticket: `tk-${String(body.taskId)}`, expiresInSeconds: 600 };
    if (url === '/contest/submit') return entry(30, { taskId: Number(body.taskId), mine: true });
    if (url === '/contest/like') return entry(Number(body.entryId), { likes: 1, liked: true });
    if (url === '/contest/withdraw') return {};
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

const bodies = (post: jest.SpyInstance, url: string) => post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);

const SUMMER = contest(7, {
  title: '夏日短片大赛',
  theme: '拍下你的夏天',
  rules: '时长不超过 60 秒',
  entryCount: 3,
  templateId: 5,
});

beforeEach(() => {
  jest.spyOn(api, 'stream').mockRejectedValue(new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' }));
});
afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('/qs/competition-content', () => {
  it("lists the tenant's contests as cards: title, theme, dates, state, entries and ranking", async () => {
    serve({
      list: [
        contest(9, { title: '新年大赛', state: 'upcoming', ranking: 'scores', startTime: '2027-01-01 00:00:00', endTime: '2027-01-31 00:00:00' }),
        SUMMER,
        contest(3, { title: '春季大赛', state: 'closed', entryCount: 12 }),
      ],
    });
    renderApp('/qs/competition-content', SIGNED_IN);
    const card = await screen.findByTestId('contest-card-7');
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent('比赛内容');
    expect(within(card).getByTestId('contest-open-7')).toHaveTextContent('夏日短片大赛');
    expect(screen.getByTestId('contest-open-7')).toHaveAttribute('href', '/qs/competition-content?id=7');
    expect(screen.getByTestId('contest-theme-7')).toHaveTextContent('拍下你的夏天');
    expect(screen.getByTestId('contest-dates-7')).toHaveTextContent('2026-11-20 10:00:00 至 2026-12-31 10:00:00');
    expect(screen.getByTestId('contest-entries-7')).toHaveTextContent('3 个作品参赛');
    expect(screen.getByTestId('contest-ranking-7')).toHaveTextContent('按点赞排名');
    expect(screen.getByTestId('contest-ranking-9')).toHaveTextContent('按评委评分排名');
    expect(screen.getByTestId('contest-state-9')).toHaveTextContent('未开始');
    expect(screen.getByTestId('contest-state-7')).toHaveTextContent('进行中');
    expect(screen.getByTestId('contest-state-3')).toHaveTextContent('已结束');
    expect(screen.getByTestId('contest-card-result-3')).toHaveAttribute('href', '/qs/contest-result?id=3');
    expect(screen.queryByTestId('contest-manage')).toBeNull();
  });

  it('gives a manager the way to the manage page', async () => {
    serve({ list: [] });
    renderApp('/qs/competition-content', MANAGER);
    expect(await screen.findByTestId('contest-empty')).toHaveTextContent('还没有比赛');
    expect(screen.getByTestId('contest-manage')).toHaveAttribute('href', '/manage/contest');
  });

  it('shows one contest: theme, rules, dates, the template to start from and the result link', async () => {
    serve({ detail: { contest: SUMMER, entries: [] } });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    expect(await screen.findByTestId('contest-title')).toHaveTextContent('夏日短片大赛');
    expect(screen.getByTestId('contest-state')).toHaveTextContent('进行中');
    expect(screen.getByTestId('contest-theme')).toHaveTextContent('拍下你的夏天');
    expect(screen.getByTestId('contest-rules')).toHaveTextContent('时长不超过 60 秒');
    expect(screen.getByTestId('contest-dates')).toHaveTextContent('2026-11-20 10:00:00 至 2026-12-31 10:00:00');
    expect(screen.getByTestId('contest-result-link')).toHaveAttribute('href', '/qs/contest-result?id=7');
    expect(screen.getByTestId('contest-no-entries')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('contest-use-template'));
    expect(await screen.findByTestId('fill-drawer')).toHaveTextContent('夏日模板');
  });

  it('submits a rendered work: only works with a video are offered, and it posts {contestId, taskId}', async () => {
    const { post } = serve({
      detail: { contest: SUMMER, entries: [] },
      works: [work(1), work(2, { status: 1, videoUrl: '', coverUrl: '' }), work(3, { status: 9, videoUrl: '', coverUrl: '' }), work(4)],
    });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('contest-submit'));
    const pick = await screen.findByTestId('contest-pick-4');
    expect(screen.getByTestId('contest-pick-1')).toBeInTheDocument();
    expect(screen.queryByTestId('contest-pick-2')).toBeNull();
    expect(screen.queryByTestId('contest-pick-3')).toBeNull();
    expect(screen.getByTestId('contest-submit-ok')).toBeDisabled();
    fireEvent.click(pick);
    fireEvent.click(screen.getByTestId('contest-submit-ok'));
    await waitFor(() => expect(bodies(post, '/contest/submit')).toEqual([{ contestId: 7, taskId: 4 }]));
    expect(await screen.findByText('已提交，祝你好运！')).toBeInTheDocument();
  });

  it('words a refused submission in Chinese', async () => {
    serve({
      detail: { contest: SUMMER, entries: [] },
      works: [work(1)],
      refuse: { '/contest/submit': 'contestId: contest 7 is closed: entries ended at 2026-11-28 10:00:00' },
    });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('contest-submit'));
    fireEvent.click(await screen.findByTestId('contest-pick-1'));
    fireEvent.click(screen.getByTestId('contest-submit-ok'));
    expect(await screen.findByTestId('contest-submit-error')).toHaveTextContent('比赛已于 2026-11-28 10:00:00 结束，不能再进行此操作');
  });

  it('likes an entry with {entryId}; liked, own entries cannot be liked; a refusal is worded', async () => {
    const { post } = serve({
      detail: {
        contest: SUMMER,
        entries: [entry(12, { likes: 4 }), entry(13, { liked: true, likes: 2 }), entry(14, { mine: true }), entry(15)],
      },
      refuse: {},
    });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    const like = await screen.findByTestId('contest-like-12');
    expect(screen.getByTestId('contest-likes-12')).toHaveTextContent('4');
    expect(screen.getByTestId('contest-like-13')).toBeDisabled();
    expect(screen.getByTestId('contest-like-14')).toBeDisabled();
    fireEvent.click(like);
    await waitFor(() => expect(bodies(post, '/contest/like')).toEqual([{ entryId: 12 }]));

    post.mockRejectedValueOnce(new ApiError({ kind: 'business', url: '/contest/like', code: 3000, desc: 'entryId: you already liked entry 15', message: 'x' }));
    fireEvent.click(screen.getByTestId('contest-like-15'));
    expect(await screen.findByText('你已经给这个作品点过赞了')).toBeInTheDocument();
  });

  it("shows the caller's own entry with a withdraw button, and no submit button", async () => {
    const { post } = serve({ detail: { contest: SUMMER, entries: [entry(12), entry(14, { mine: true, taskName: '我的夏天' })] } });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    const mine = await screen.findByTestId('contest-my-entry');
    expect(mine).toHaveTextContent('我的夏天');
    expect(screen.queryByTestId('contest-submit')).toBeNull();
    fireEvent.click(within(mine).getByTestId('contest-withdraw'));
    fireEvent.click(await screen.findByTestId('confirm-withdraw'));
    await waitFor(() => expect(bodies(post, '/contest/withdraw')).toEqual([{ entryId: 14 }]));
  });

  it('plays an entry in a dialog', async () => {
    serve({ detail: { contest: SUMMER, entries: [entry(12)] } });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    expect(await screen.findByTestId('contest-cover-12')).toHaveAttribute('src', '/diyvrbt/contest/cover?entryId=12&sig=x');
    fireEvent.click(screen.getByTestId('contest-play-12'));
    expect(await screen.findByTestId('contest-video')).toHaveAttribute('src', '/diyvrbt/contest/video?entryId=12&sig=x');
  });

  it('closed: no submit, no withdraw, likes off, scores shown for a scores contest', async () => {
    serve({
      detail: {
        contest: { ...SUMMER, state: 'closed', ranking: 'scores' },
        entries: [entry(12, { rank: 1, score: 90 }), entry(14, { rank: 2, mine: true, score: null })],
      },
    });
    renderApp('/qs/competition-content?id=7', SIGNED_IN);
    expect(await screen.findByTestId('contest-closed')).toHaveTextContent('比赛已于 2026-12-31 10:00:00 结束');
    expect(screen.queryByTestId('contest-submit')).toBeNull();
    expect(screen.queryByTestId('contest-withdraw')).toBeNull();
    expect(screen.getByTestId('contest-like-12')).toBeDisabled();
    expect(screen.getByTestId('contest-score-12')).toHaveTextContent('90 分');
    expect(screen.getByTestId('contest-score-14')).toHaveTextContent('未评分');
  });

  it('says in place that an unknown contest does not exist', async () => {
    serve({});
    renderApp('/qs/competition-content?id=99', SIGNED_IN);
    expect(await screen.findByTestId('contest-error')).toHaveTextContent('这个比赛不存在或已被删除');
  });
});
