import { App } from 'antd';
import { useLayoutEffect } from 'react';
import { configureApi } from '@/api/client';
import { appApiHooks } from './apiHooks';
import { useAppStore } from './hooks';

/** Connects the non-React API client to antd's message API and the store. */
export function ApiBridge(): null {
  const { message } = App.useApp();
  const store = useAppStore();
  useLayoutEffect(() => {
    configureApi(
      appApiHooks(store, (text, key) => {
        void message.open({ type: 'error', content: text, key });
      }),
    );
  }, [message, store]);
  return null;
}
