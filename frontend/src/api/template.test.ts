import { buildReplaces } from '@/platform/templates/FillTemplateDrawer';
import { withParents } from '@/platform/templates/components/CategoryTreeSelect';
import { cat, slot } from '@/test/templateFixtures';
import type { Material } from './material';
import { checkListParams, nextTemplatePage, ratioOf, templateListParams } from './template';

describe('template list parameters', () => {
  it('sends only the filters that are set, sizes comma-joined', () => {
    expect(templateListParams({}, 1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1 });
    expect(templateListParams({ kind: 'ai', sizeCategoryIds: [50, 41], categoryId: 11, name: '春' }, 2)).toEqual({
      pageNum: 2,
      pageSize: 12,
      orderType: 1,
      kind: 'ai',
      sizeCategoryId: '50,41',
      categoryId: 11,
      name: '春',
    });
    expect(templateListParams({ sizeCategoryIds: [] }, 1)).toEqual({ pageNum: 1, pageSize: 12, orderType: 1 });
    expect(checkListParams({ state: 'pending', pageNum: 1, pageSize: 12 })).toEqual({ state: 'pending', pageNum: 1, pageSize: 12 });
  });

  it('asks for the next page until everything is loaded', () => {
    const page = (n: number, total: number) => ({ total, list: Array.from({ length: n }, () => ({}) as never) });
    expect(nextTemplatePage([page(12, 14)])).toBe(2);
    expect(nextTemplatePage([page(12, 14), page(2, 14)])).toBeUndefined();
    expect(nextTemplatePage([page(0, 14)])).toBeUndefined();
    expect(nextTemplatePage([])).toBeUndefined();
  });

  it('names the size categories', () => {
    expect([50, 41, 51, 42, 7].map(ratioOf)).toEqual(['9:16', '16:9', '1:1', '4:3', '']);
  });
});

describe('buildReplaces', () => {
  it('sends changed texts and picked materials, never the template own media', () => {
    const slots = [slot('a', 'text'), slot('b', 'text'), slot('p', 'picture'), slot('v', 'video')];
    const picked = { v: { url: '/files/v.mp4' } as Material };
    expect(buildReplaces(slots, { a: '原文字', b: '新的' }, picked)).toEqual([
      { id: 'b', replaceContent: '新的' },
      { id: 'v', replaceContent: '/files/v.mp4' },
    ]);
  });
});

describe('withParents', () => {
  it('adds the first level of every chosen second level', () => {
    const tree = [cat(1, '行业', [cat(11, '餐饮')]), cat(2, '用途', [cat(21, '节日')])];
    expect(withParents(tree, [11]).sort()).toEqual([1, 11]);
    expect(withParents(tree, [2])).toEqual([2]);
    expect(withParents(tree, [])).toEqual([]);
  });
});
