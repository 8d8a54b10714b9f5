import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button } from 'antd';
import { applyLanguage } from '@/app/i18n';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { useWarmTip, type WarmTipProps } from './WarmTip';

jest.setTimeout(60_000);

function Asker(props: WarmTipProps) {
  const warmTip = useWarmTip();
  return <Button onClick={() => warmTip(props)}>ask</Button>;
}

function renderAsker(props: WarmTipProps) {
  render(
    <Providers store={makeStore()} queryClient={makeQueryClient()}>
      <Asker {...props} />
    </Providers>,
  );
}

const dialog = () => document.querySelector<HTMLElement>('.rf-warm-tip .ant-modal');
const title = () => document.querySelector('.rf-warm-tip .ant-modal-confirm-title');

describe('the warm-tip confirm', () => {
  afterEach(() => act(() => applyLanguage('zh-CN')));

  it('is titled 温馨提示 and 416 wide, with the caller saying what is asked', async () => {
    renderAsker({ content: '确定删除这个作品吗？', onOk: jest.fn() });
    fireEvent.click(screen.getByText('ask'));
    await waitFor(() => expect(title()).toHaveTextContent('温馨提示'));
    expect(screen.getByText('确定删除这个作品吗？')).toBeInTheDocument();
    expect(dialog()?.style.width).toBe('416px');
  });

  it('runs onOk on OK and nothing on cancel', async () => {
    const onOk = jest.fn();
    renderAsker({ content: 'x', onOk, okButtonProps: { 'data-testid': 'ok' } as never });
    fireEvent.click(screen.getByText('ask'));
    fireEvent.click(await screen.findByText(/^取\s?消$/));
    await waitFor(() => expect(title()).toBeNull());
    expect(onOk).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('ask'));
    fireEvent.click(await screen.findByTestId('ok'));
    await waitFor(() => expect(onOk).toHaveBeenCalledTimes(1));
  });

  it('reads in the page language', async () => {
    await act(() => applyLanguage('en-US'));
    renderAsker({ content: 'x' });
    fireEvent.click(screen.getByText('ask'));
    await waitFor(() => expect(title()).toHaveTextContent('Please note'));
  });
});
