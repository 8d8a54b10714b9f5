import { App } from 'antd';
import { useLayoutEffect } from 'react';
import { configureApi } from '@/api/client';
import { loggedOut, toAuthSnapshot } from '@/auth/userSlice';
import { useAppStore } from './hooks';

/** Connects the non-React API client to antd's message API and the store. */
export function ApiBridge(): null {
  const { message } = App.useApp();
  const store = useAppStore();
  useLayoutEffect(() => {
    configureApi({
      getAuth: () => toAuthSnapshot(store.getState().user),
      notifyError: (text, key) => {
        void message.open({ type: 'error', content: text, key });
      },
      onSessionExpired: () => {
        store.dispatch(loggedOut());
        window.location.hash = '#/';
      },
    });
  }, [message, store]);
  return null;
}
