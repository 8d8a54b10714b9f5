import type { ApiHooks } from '@/api/client';
import { loggedOut, toAuthSnapshot } from '@/auth/userSlice';
import type { AppStore } from './store';

/** Returns the API client hooks backed by the store, a toast function and a navigation to the root. */
export function appApiHooks(
  store: AppStore,
  notifyError: ApiHooks['notifyError'],
  goHome: () => void = () => {
    window.location.hash = '#/';
  },
): Omit<ApiHooks, 'getVariant'> {
  return {
    getAuth: () => toAuthSnapshot(store.getState().user),
    notifyError,
    onSessionExpired: () => {
      store.dispatch(loggedOut());
      goHome();
    },
  };
}
