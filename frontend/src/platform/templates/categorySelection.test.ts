import { cat } from '@/test/templateFixtures';
import { ALL, childrenOf, chooseFirst, chooseSecond, effectiveCategoryId, initialSelection, NO_SELECTION } from './categorySelection';


const list = [cat(1, '行业', [cat(11, '餐饮'), cat(12, '教育')]), cat(2, '用途', [cat(21, '节日')]), cat(3, '尺寸')];

describe('category selection', () => {
  it('starts on the first category with its all entry', () => {
    expect(initialSelection(list)).toEqual({ first: 1, second: ALL });
    expect(initialSelection([])).toEqual(NO_SELECTION);
    expect(initialSelection(list, true)).toEqual(NO_SELECTION);
  });

  it('choosing a first-level category selects its all entry', () => {
    const s = chooseSecond(initialSelection(list), 12);
    expect(chooseFirst(s, 2)).toEqual({ first: 2, second: ALL });
    expect(chooseFirst(s, 1)).toEqual({ first: 1, second: ALL });
  });

  it('in IVVR mode clicking the selected first level again deselects it', () => {
    const s = chooseFirst(NO_SELECTION, 2, true);
    expect(s).toEqual({ first: 2, second: null });
    expect(chooseFirst(s, 2, true)).toEqual(NO_SELECTION);
    expect(chooseFirst(s, 3, true)).toEqual({ first: 3, second: null });
  });

  it('second level needs a first level', () => {
    expect(chooseSecond(NO_SELECTION, 11)).toEqual(NO_SELECTION);
  });

  it('lists children and the effective filter id', () => {
    expect(childrenOf(list, 1).map((c) => c.categoryId)).toEqual([11, 12]);
    expect(childrenOf(list, 3)).toEqual([]);
    expect(childrenOf(list, null)).toEqual([]);
    expect(effectiveCategoryId({ first: 1, second: ALL })).toBe(1);
    expect(effectiveCategoryId({ first: 1, second: 12 })).toBe(12);
    expect(effectiveCategoryId(NO_SELECTION)).toBeNull();
  });
});
