import { fireEvent, screen, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { TaskVideoCategory } from '@/api/category';
import { renderApp } from '@/test/renderApp';

const cat = (categoryId: number, categoryName: string, children: TaskVideoCategory[] = []): TaskVideoCategory => ({
  categoryId,
  categoryName,
  dimension: 'industry',
  higherUpId: -1,
  push: false,
  children,
});

function serve(dataList: TaskVideoCategory[] | undefined) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/category/taskvideo') return { dataList };
    return { name: 'reelforge', version: '0.1.0', mode: 'all' };
  });
}

afterEach(() => jest.restoreAllMocks());

describe('TemplateSelectPage', () => {
  it('fills the two-level picker from the server and selects "all" on a first-level change', async () => {
    serve([cat(1, '行业', [cat(11, '餐饮')]), cat(2, '用途', [cat(21, '节日'), cat(22, '婚礼')])]);
    renderApp('/template-select');
    const firsts = await screen.findAllByTestId('category-first');
    expect(firsts.map((n) => n.textContent)).toEqual(['行业', '用途']);
    expect(screen.getAllByTestId('category-second').map((n) => n.textContent)).toEqual(['全部', '餐饮']);
    expect(screen.getByTestId('category-selected')).toHaveTextContent('行业 / 全部');

    fireEvent.click(screen.getByText('餐饮'));
    expect(screen.getByTestId('category-selected')).toHaveTextContent('行业 / 餐饮');

    fireEvent.click(screen.getByText('用途'));
    expect(screen.getAllByTestId('category-second').map((n) => n.textContent)).toEqual(['全部', '节日', '婚礼']);
    expect(screen.getByTestId('category-selected')).toHaveTextContent('用途 / 全部');
    expect(within(screen.getByTestId('template-select')).getByTestId('template-grid-soon')).toBeInTheDocument();
  });

  it('shows Empty for an empty or missing list', async () => {
    serve(undefined);
    renderApp('/template-select');
    expect(await screen.findByTestId('category-empty')).toBeInTheDocument();
  });

  it('offers a retry when loading fails', async () => {
    jest.spyOn(api, 'get').mockRejectedValue(new Error('down'));
    renderApp('/template-select');
    expect(await screen.findByTestId('category-error')).toBeInTheDocument();
  });
});
