import { applyLanguage } from '@/app/i18n';
import { ApiError } from '@/api/errors';
import { contestErrorText } from './contestErrors';

const refusal = (desc: string) => new ApiError({ kind: 'business', url: '/contest/submit', code: 3000, desc, message: desc });

describe('contestErrorText', () => {
  beforeAll(() => applyLanguage('zh-CN'));

  it.each([
    ['contest 7 does not exist', '这个比赛不存在或已被删除'],
    ['contestId: contest 7 is closed: entries ended at 2026-11-28 10:00:00', '比赛已于 2026-11-28 10:00:00 结束，不能再进行此操作'],
    ['entryId: contest 7 is closed: withdrawals ended at 2026-11-28 10:00:00', '比赛已于 2026-11-28 10:00:00 结束，不能再进行此操作'],
    ['contestId: contest 7 is not open yet: it opens at 2026-12-01 10:00:00', '比赛还没开始，将于 2026-12-01 10:00:00 开放'],
    ['contestId: you already entered contest 7 (entry 12); withdraw it to enter another work', '你已经提交过作品了，撤回后才能换一个作品参赛'],
    ['taskId: task 9 does not exist', '找不到这个作品，它可能已被删除'],
    ['taskId: task 9 has no video yet: make the video first', '这个作品还没有生成视频，请先生成视频再提交'],
    ['entryId: you already liked entry 12', '你已经给这个作品点过赞了'],
    ['entryId: entry 12 is your own', '不能给自己的作品点赞'],
    ['entryId: contest 7 is closed: likes ended at 2026-11-28 10:00:00', '比赛已于 2026-11-28 10:00:00 结束，不能再点赞'],
    ['title: required', '请填写比赛名称'],
    ['title: at most 40 characters', '比赛名称最多 40 个字'],
    ['theme: at most 500 characters', '比赛主题最多 500 个字'],
    ['rules: at most 2000 characters', '比赛规则最多 2000 个字'],
    ['endMs: the end must be after the start', '结束时间必须晚于开始时间'],
    ['ranking: `x` is not likes or scores', '排名方式只能是按点赞或按评分'],
    ['templateId: template 5 does not exist', '模板 5 不存在'],
    ['ranking: contest 7 already has entries', '比赛已有作品参赛，不能再改排名方式'],
    ['entryId: contest 7 is ranked by likes', '这个比赛按点赞排名，不需要评分'],
    ["id: contest 7 has 2 entries; it can't be deleted", '比赛已有 2 个作品参赛，不能删除'],
    ['entryId: entry 12 is not yours', '不能对这个参赛作品进行此操作，请刷新页面'],
  ])('words %s', (desc, text) => {
    expect(contestErrorText(refusal(desc))).toBe(text);
  });

  it('leaves other failures to the common wording', () => {
    expect(contestErrorText(new ApiError({ kind: 'network', url: '/contest/list', message: 'x' }))).toBe('网络连接中断，请检查网络后重试');
  });
});
