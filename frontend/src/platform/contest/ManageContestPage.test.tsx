import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { api } from '@/api/client';
import type { ContestDto, EntryDto } from '@/api/contest';
import { ApiError } from '@/api/errors';
import { contest, entry } from '@/test/contestFixtures';
import { MANAGER, renderApp } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';
import { saveBody } from './ContestFormModal';

/** A manager's server holding `stored` contests and their entries; `refuse` answers a POST's URL with a 3000 desc. */
function serve(stored: ContestDto[], entries: Record<number, EntryDto[]> = {}, refuse: Record<string, string> = {}) {
  let list = [...stored];
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/manage/overview') return { queues: [], musicTracks: 0 };
    if (url === '/contest/list') return list;
    const one = /^\/contest\/(\d+)$/.exec(url);
    const found = one ? list.find((c) => c.id === Number(one[1])) : undefined;
    if (found) return { contest: found, entries: entries[found.id] ?? [] };
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    const desc = refuse[url];
    if (desc) throw new ApiError({ kind: 'business', url, code: 3000, desc, message: desc });
    if (url === '/manage/contest/save') {
      const saved = contest(Number(body.id) || 40, { ...(body as Partial<ContestDto>), state: 'upcoming' });
      list = [saved, ...list.filter((c) => c.id !== saved.id)];
      return saved;
    }
    if (url === '/manage/contest/score') {
      const id = Number(body.entryId);
      for (const key of Object.keys(entries)) entries[Number(key)] = (entries[Number(key)] ?? []).map((e) => (e.id === id ? { ...e, score: Number(body.score) } : e));
      return entry(id, { score: Number(body.score) });
    }
    if (url === '/manage/contest/delete') {
      list = list.filter((c) => c.id !== body.id);
      return {};
    }
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

const bodies = (post: jest.SpyInstance, url: string) => post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);

/** Types a time into an antd DatePicker (showTime) and confirms it. */
async function pickTime(testId: string, text: string) {
  const input = screen.getByTestId(testId);
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
  await waitFor(() => expect(input).toHaveValue(text));
}

afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('saveBody', () => {
  it('trims the texts, gives the times in ms and 0 for no template', () => {
    const start = dayjs('2026-12-01 10:00:00');
    const end = dayjs('2026-12-31 18:00:00');
    expect(saveBody({ title: ' 冬日 ', theme: ' 雪 ', rules: undefined, start, end, ranking: 'scores', templateId: null }, null)).toEqual({
      title: '冬日',
      theme: '雪',
      rules: '',
      startMs: start.valueOf(),
      endMs: end.valueOf(),
      ranking: 'scores',
      templateId: 0,
    });
    expect(saveBody({ title: 'a', start, end, ranking: 'likes', templateId: 5 }, 7)).toMatchObject({ id: 7, templateId: 5 });
  });
});

describe('/manage/contest', () => {
  it('is linked from the manage index', async () => {
    serve([]);
    renderApp('/manage', MANAGER);
    expect(await screen.findByTestId('manage-contests')).toHaveAttribute('href', '/manage/contest');
  });

  it('lists the contests with state, times, ranking and entries', async () => {
    serve([contest(7, { title: '夏日短片大赛', entryCount: 3 }), contest(3, { title: '春季大赛', state: 'closed', ranking: 'scores' })]);
    renderApp('/manage/contest', MANAGER);
    const row = await screen.findByTestId('contest-row-7');
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent('比赛管理');
    expect(within(row).getByTestId('contest-name-7')).toHaveAttribute('href', '/qs/competition-content?id=7');
    expect(within(row).getByTestId('contest-state-7')).toHaveTextContent('进行中');
    expect(within(row).getByTestId('contest-entry-count-7')).toHaveTextContent('3');
    expect(row).toHaveTextContent('2026-11-20 10:00:00');
    expect(row).toHaveTextContent('按点赞排名');
    expect(screen.queryByTestId('contest-scores-7')).toBeNull();
    expect(screen.getByTestId('contest-scores-3')).toBeInTheDocument();
  });

  it("creates a contest: posts the contract's body with the times in ms", async () => {
    const { post } = serve([]);
    renderApp('/manage/contest', MANAGER);
    fireEvent.click(await screen.findByTestId('contest-new'));
    fireEvent.click(await screen.findByTestId('contest-form-ok'));
    expect(await screen.findByText('请填写比赛名称')).toBeInTheDocument();
    expect(bodies(post, '/manage/contest/save')).toEqual([]);

    fireEvent.change(screen.getByTestId('contest-title-input'), { target: { value: ' 冬日短片大赛 ' } });
    fireEvent.change(screen.getByTestId('contest-theme-input'), { target: { value: '下雪了' } });
    fireEvent.change(screen.getByTestId('contest-rules-input'), { target: { value: '60 秒以内' } });
    await pickTime('contest-start-input', '2026-12-01 10:00:00');
    await pickTime('contest-end-input', '2026-12-31 18:30:00');
    fireEvent.click(screen.getByTestId('contest-ranking-scores'));
    fireEvent.change(screen.getByTestId('contest-template-input'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('contest-form-ok'));
    await waitFor(() =>
      expect(bodies(post, '/manage/contest/save')).toEqual([
        {
          title: '冬日短片大赛',
          theme: '下雪了',
          rules: '60 秒以内',
          startMs: dayjs('2026-12-01 10:00:00').valueOf(),
          endMs: dayjs('2026-12-31 18:30:00').valueOf(),
          ranking: 'scores',
          templateId: 5,
        },
      ]),
    );
    expect(await screen.findByTestId('contest-row-40')).toHaveTextContent('冬日短片大赛');
  });

  it('words a refused save in the form', async () => {
    serve([contest(7, { entryCount: 2 })], {}, { '/manage/contest/save': 'ranking: contest 7 already has entries' });
    renderApp('/manage/contest', MANAGER);
    fireEvent.click(await screen.findByTestId('contest-edit-7'));
    expect(await screen.findByTestId('contest-title-input')).toHaveValue('比赛7');
    expect(screen.getByTestId('contest-ranking-scores')).toBeDisabled();
    fireEvent.click(screen.getByTestId('contest-form-ok'));
    expect(await screen.findByTestId('contest-form-error')).toHaveTextContent('比赛已有作品参赛，不能再改排名方式');
  });

  it('saves a score per entry of a scores contest', async () => {
    const { post } = serve([contest(8, { title: '评分赛', ranking: 'scores', entryCount: 2 })], { 8: [entry(31, { contestId: 8 }), entry(32, { contestId: 8, score: 70 })] });
    renderApp('/manage/contest', MANAGER);
    fireEvent.click(await screen.findByTestId('contest-scores-8'));
    const input = await screen.findByTestId('contest-score-input-31');
    expect(screen.getByTestId('contest-score-current-32')).toHaveTextContent('70 分');
    expect(screen.getByTestId('contest-score-save-31')).toBeDisabled();
    fireEvent.change(input, { target: { value: '88' } });
    fireEvent.click(screen.getByTestId('contest-score-save-31'));
    await waitFor(() => expect(bodies(post, '/manage/contest/score')).toEqual([{ entryId: 31, score: 88 }]));
    await waitFor(() => expect(screen.getByTestId('contest-score-current-31')).toHaveTextContent('88 分'));
  });

  it('deletes after asking; a contest with entries is refused in words', async () => {
    const { post } = serve([contest(7), contest(3, { entryCount: 2 })], {}, {});
    renderApp('/manage/contest', MANAGER);
    fireEvent.click(await screen.findByTestId('contest-delete-7'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(bodies(post, '/manage/contest/delete')).toEqual([{ id: 7 }]));
    await waitFor(() => expect(screen.queryByTestId('contest-row-7')).toBeNull());

    post.mockRejectedValueOnce(new ApiError({ kind: 'business', url: '/manage/contest/delete', code: 3000, desc: "id: contest 3 has 2 entries; it can't be deleted", message: 'x' }));
    fireEvent.click(screen.getByTestId('contest-delete-3'));
    const confirms = await screen.findAllByTestId('confirm-delete');
    fireEvent.click(confirms[confirms.length - 1]!);
    expect(await screen.findByText('比赛已有 2 个作品参赛，不能删除')).toBeInTheDocument();
  });
});
