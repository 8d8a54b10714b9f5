import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { TaskVideoCategory } from '@/api/category';
import { cat } from '@/test/templateFixtures';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialSelection, NO_SELECTION, type CategorySelection } from '../categorySelection';
import { CategoryPicker } from './CategoryPicker';

jest.setTimeout(60_000);


const TWO_LEVEL = [cat(1, '行业', [cat(11, '餐饮'), cat(12, '教育')]), cat(2, '用途', [cat(21, '节日')])];
const IVVR = [cat(30, '彩铃场景'), cat(31, '企业宣传')];

/** The picker holding its own selection, as a page does; `seen` records every change. */
function Holder({ categories, ivvr, seen }: { categories: TaskVideoCategory[]; ivvr: boolean; seen: CategorySelection[] }) {
  const [value, setValue] = useState(initialSelection(categories, ivvr));
  const onChange = (next: CategorySelection) => {
    seen.push(next);
    setValue(next);
  };
  return <CategoryPicker categories={categories} value={value} onChange={onChange} ivvr={ivvr} />;
}

function renderPicker(categories: TaskVideoCategory[], ivvr = false) {
  const seen: CategorySelection[] = [];
  render(
    <Providers store={makeStore()} queryClient={makeQueryClient()}>
      <Holder categories={categories} ivvr={ivvr} seen={seen} />
    </Providers>,
  );
  return seen;
}

const first = (name: string) => screen.getAllByTestId('category-first').find((n) => n.textContent === name) as HTMLElement;
const checkedSecond = () => document.querySelector('[data-testid="category-second"].ant-tag-checkable-checked')?.textContent;

describe('the category picker', () => {
  it("two-level: choosing a first-level category selects its 'all' second-level entry", () => {
    const seen = renderPicker(TWO_LEVEL);
    expect(checkedSecond()).toBe('全部');
    fireEvent.click(screen.getByText('教育'));
    expect(checkedSecond()).toBe('教育');
    fireEvent.click(first('用途'));
    expect(seen.at(-1)).toEqual({ first: 2, second: 'all' });
    expect(screen.getAllByTestId('category-second').map((n) => n.textContent)).toEqual(['全部', '节日']);
    expect(checkedSecond()).toBe('全部');
  });

  it('IVVR: one level, and clicking the selected first level again deselects it', () => {
    const seen = renderPicker(IVVR, true);
    expect(screen.queryAllByTestId('category-second')).toHaveLength(0);
    fireEvent.click(first('彩铃场景'));
    expect(seen.at(-1)).toEqual({ first: 30, second: null });
    fireEvent.click(first('彩铃场景'));
    expect(seen.at(-1)).toEqual(NO_SELECTION);
    expect(screen.queryAllByTestId('category-second')).toHaveLength(0);
  });
});
