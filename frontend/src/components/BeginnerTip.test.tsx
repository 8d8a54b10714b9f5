import { act, fireEvent, render, screen } from '@testing-library/react';
import { applyLanguage } from '@/app/i18n';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import { BeginnerTip, tipDue, tipKey, tipsOffKey, type TipId } from './BeginnerTip';

jest.setTimeout(60_000);

function renderTip(tip: TipId, id: string | null = '13800000000') {
  return render(
    <Providers store={makeStore({ user: { ...initialUserState, id } })} queryClient={makeQueryClient()}>
      <BeginnerTip tip={tip} />
    </Providers>,
  );
}

describe('the beginner tip', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => act(() => applyLanguage('zh-CN')));

  it('shows on a first visit with the page steps, and not again after got it', () => {
    const first = renderTip('editor');
    const card = screen.getByTestId('beginner-tip-editor');
    expect(card).toHaveTextContent('新手提示');
    expect(card.querySelectorAll('li')).toHaveLength(3);
    fireEvent.click(screen.getByTestId('tip-got-it'));
    expect(screen.queryByTestId('beginner-tip-editor')).toBeNull();
    expect(localStorage.getItem(tipKey('13800000000', 'editor'))).toBe('1');
    first.unmount();
    renderTip('editor');
    expect(screen.queryByTestId('beginner-tip-editor')).toBeNull();
  });

  it('is remembered per user and per page', () => {
    localStorage.setItem(tipKey('13800000000', 'editor'), '1');
    expect(tipDue('13800000000', 'editor')).toBe(false);
    expect(tipDue('13800000000', 'workbench')).toBe(true);
    expect(tipDue('13900000000', 'editor')).toBe(true);
    renderTip('workbench');
    expect(screen.getByTestId('beginner-tip-workbench')).toBeInTheDocument();
  });

  it("shows no tip on any page after don't show tips again", () => {
    const first = renderTip('workbench');
    fireEvent.click(screen.getByTestId('tip-never'));
    expect(screen.queryByTestId('beginner-tip-workbench')).toBeNull();
    expect(localStorage.getItem(tipsOffKey('13800000000'))).toBe('1');
    first.unmount();
    renderTip('editor');
    expect(screen.queryByTestId('beginner-tip-editor')).toBeNull();
  });

  it('stays away when storage cannot be read, rather than coming back on every visit', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => undefined };
    expect(tipDue('13800000000', 'editor', broken)).toBe(false);
  });

  it('does not block the page: only its buttons take clicks', () => {
    renderTip('editor');
    expect(screen.getByRole('complementary', { name: /新手提示/ })).toBe(screen.getByTestId('beginner-tip-editor'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('beginner-tip-editor')).toHaveStyle({ pointerEvents: 'none', position: 'fixed' });
    expect(screen.getByTestId('tip-got-it')).toHaveStyle({ pointerEvents: 'auto' });
  });

  it('reads in the page language', async () => {
    await act(() => applyLanguage('en-US'));
    renderTip('editor');
    expect(screen.getByTestId('beginner-tip-editor')).toHaveTextContent('Getting started');
    expect(screen.getByTestId('tip-never')).toHaveTextContent("Don't show tips again");
  });
});
