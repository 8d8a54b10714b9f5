import { loggedIn } from '@/auth/userSlice';
import { appApiHooks } from './apiHooks';
import { makeStore } from './store';

describe('appApiHooks', () => {
  it('reads credentials from the store', () => {
    const store = makeStore();
    const hooks = appApiHooks(store, jest.fn(), jest.fn());
    expect(hooks.getAuth().token).toBeNull();
    store.dispatch(loggedIn({ id: '13800000000', token: 'tok', jwt: 'j' }));
    expect(hooks.getAuth()).toEqual({ token: 'tok', userId: '13800000000', mobile: '13800000000', jwt: 'j' });
  });

  it('logs out and goes home when the session expires', () => {
    const store = makeStore();
    store.dispatch(loggedIn({ id: 'u', token: 'tok', roleId: 3, providerId: 'p' }));
    const goHome = jest.fn();
    appApiHooks(store, jest.fn(), goHome).onSessionExpired();
    const user = store.getState().user;
    expect([user.token, user.id, user.role, user.providerId]).toEqual([null, null, null, null]);
    expect(goHome).toHaveBeenCalledTimes(1);
  });

  it('defaults to the root with the login modal, coming back to the page', () => {
    window.location.hash = '#/my-works?tab=2';
    appApiHooks(makeStore(), jest.fn()).onSessionExpired();
    expect(window.location.hash).toBe(`#/?login=1&redirect=${encodeURIComponent('/my-works?tab=2')}`);
    window.location.hash = '#/';
    appApiHooks(makeStore(), jest.fn()).onSessionExpired();
    expect(window.location.hash).toBe('#/?login=1');
  });
});
