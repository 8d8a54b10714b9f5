import { act, fireEvent, render, screen } from '@testing-library/react';
import { Button, Modal, Pagination, Popconfirm } from 'antd';
import { applyLanguage } from './i18n';
import { makeQueryClient, Providers } from './providers';
import { makeStore } from './store';

jest.setTimeout(60_000);

/** A confirm as the pages ask for theirs (delete in my works, my materials, my tools). */
function AskButton() {
  return (
    <Popconfirm title="删除这个作品？">
      <Button>ask</Button>
    </Popconfirm>
  );
}

function renderAntd() {
  render(
    <Providers store={makeStore()} queryClient={makeQueryClient()}>
      <AskButton />
      <Modal open title="open dialog" />
      <Pagination total={100} showSizeChanger />
    </Providers>,
  );
}

// antd puts a space between the two characters of a two-character Chinese button.
const buttons = (name: RegExp) => screen.getAllByRole('button', { name });

describe("antd's locale follows the page language", () => {
  afterEach(() => act(() => applyLanguage('zh-CN')));

  it('is zh_CN by default: dialogs say 确定 and 取消, pages 条/页', async () => {
    renderAntd();
    expect(buttons(/^确\s?定$/)).toHaveLength(1);
    expect(buttons(/^取\s?消$/)).toHaveLength(1);
    fireEvent.click(screen.getByText('ask'));
    expect(await screen.findByText('删除这个作品？')).toBeInTheDocument();
    expect(buttons(/^确\s?定$/)).toHaveLength(2);
    expect(buttons(/^取\s?消$/)).toHaveLength(2);
    expect(screen.getByText('10 条/页')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'OK' })).toBeNull();
  });

  it('is en_US in English: OK and Cancel, and back to 确定 after switching back', async () => {
    await act(() => applyLanguage('en-US'));
    renderAntd();
    expect(buttons(/^OK$/)).toHaveLength(1);
    expect(buttons(/^Cancel$/)).toHaveLength(1);
    expect(screen.getByText('10 / page')).toBeInTheDocument();
    await act(() => applyLanguage('zh-CN'));
    expect(buttons(/^确\s?定$/)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'OK' })).toBeNull();
  });
});
