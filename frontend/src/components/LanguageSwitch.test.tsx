import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { useEffect } from 'react';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { applyLanguage } from '@/app/i18n';
import { LanguageSwitch } from './LanguageSwitch';

/** Raises a toast in the language of the moment, as the pages do; it stays until closed. */
function Toast() {
  const { message } = App.useApp();
  useEffect(() => void message.success({ content: '已保存', duration: 0 }), [message]);
  return null;
}

afterEach(() => void applyLanguage('zh-CN'));

describe('LanguageSwitch', () => {
  it('closes the toasts worded in the old language', async () => {
    render(
      <Providers store={makeStore()} queryClient={makeQueryClient()}>
        <LanguageSwitch />
        <Toast />
      </Providers>,
    );
    expect(await screen.findByText('已保存')).toBeInTheDocument();
    fireEvent.click(screen.getByText('EN'));
    await waitFor(() => expect(screen.queryByText('已保存')).not.toBeInTheDocument());
    expect(screen.getByText('中文')).toBeInTheDocument();
  });
});
