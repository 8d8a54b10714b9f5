import { USER_STORAGE_KEY } from '@/auth/persist';
import { loggedIn, loggedOut } from '@/auth/userSlice';
import { makeStore, persistUser } from './store';

describe('persistUser', () => {
  beforeEach(() => localStorage.clear());

  it('saves the user slice on change and stops when unsubscribed', () => {
    const store = makeStore();
    const stop = persistUser(store);
    store.dispatch(loggedIn({ id: 'u', token: 'tok', roleId: 4 }));
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? '{}')).toMatchObject({ id: 'u', token: 'tok', role: 'CREATE_TEMPLATE' });
    store.dispatch(loggedOut());
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? '{}')).toMatchObject({ id: null, token: null, role: null });
    stop();
    store.dispatch(loggedIn({ id: 'v', token: 't2' }));
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? '{}')).toMatchObject({ id: null });
  });
});
