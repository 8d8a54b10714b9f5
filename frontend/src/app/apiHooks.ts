import type { ApiHooks } from '@/api/client';
import { pathOfHash, rootWithLogin } from '@/auth/redirect';
import { loggedOut, toAuthSnapshot } from '@/auth/userSlice';
import type { AppStore } from './store';

/** Sends the browser to the root with the login modal open, coming back to where it was. */
function goToRootLogin(): void {
  window.location.hash = `#${rootWithLogin(pathOfHash(window.location.hash))}`;
}

/**
 * Returns the API client hooks backed by the store, a toast function and the navigation that
 * follows an expired session (the root, where the login modal opens).
 */
export function appApiHooks(
  store: AppStore,
  notifyError: ApiHooks['notifyError'],
  goHome: () => void = goToRootLogin,
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
