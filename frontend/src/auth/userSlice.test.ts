import { loadUser, saveUser, USER_STORAGE_KEY } from './persist';
import { initialUserState, isLoggedIn, loggedIn, loggedOut, searchAdded, userReducer } from './userSlice';

describe('userSlice', () => {
  it('derives the role from the operator level on login', () => {
    const s = userReducer(initialUserState, loggedIn({ id: '13800000000', token: 't', roleId: 3 }));
    expect(s.role).toBe('TEMPLATE_MANAGER');
    expect(s.mobile).toBe('13800000000');
    expect(isLoggedIn(s)).toBe(true);
    expect(userReducer(initialUserState, loggedIn({ id: 'u', token: 't', roleId: 4 })).role).toBe('CREATE_TEMPLATE');
    expect(userReducer(initialUserState, loggedIn({ id: 'u', token: 't' })).role).toBe('CREATE_VIDEO');
  });

  it('keeps an explicit role', () => {
    const s = userReducer(initialUserState, loggedIn({ id: 'u', token: 't', roleId: 4, role: 'SERVICE_PROVIDER' }));
    expect(s.role).toBe('SERVICE_PROVIDER');
  });

  it('logout clears auth, role, id and provider but keeps search history', () => {
    let s = userReducer(initialUserState, loggedIn({ id: 'u', token: 't', roleId: 3, providerId: 'p', jwt: 'j' }));
    s = userReducer(s, searchAdded('cat'));
    s = userReducer(s, loggedOut());
    expect(s.id).toBeNull();
    expect(s.token).toBeNull();
    expect(s.role).toBeNull();
    expect(s.providerId).toBeNull();
    expect(s.jwt).toBeNull();
    expect(isLoggedIn(s)).toBe(false);
    expect(s.searchHistory).toEqual({ u: ['cat'] });
  });

  it('caps search history at 10 per user, newest first, without duplicates', () => {
    let s = userReducer(initialUserState, loggedIn({ id: 'u', token: 't' }));
    for (let i = 0; i < 12; i += 1) s = userReducer(s, searchAdded(`q${i}`));
    s = userReducer(s, searchAdded('q5'));
    expect(s.searchHistory.u).toHaveLength(10);
    expect(s.searchHistory.u?.[0]).toBe('q5');
    expect(s.searchHistory.u?.filter((q) => q === 'q5')).toHaveLength(1);
  });
});

describe('persist', () => {
  beforeEach(() => localStorage.clear());

  it('round-trips the user through localStorage', () => {
    const s = userReducer(initialUserState, loggedIn({ id: 'u', token: 't', roleId: 3, corpAuth: { token: 'c', userID: 'x' } }));
    saveUser(s);
    expect(loadUser()).toEqual(s);
  });

  it('returns the initial state for missing or corrupt data', () => {
    expect(loadUser()).toEqual(initialUserState);
    localStorage.setItem(USER_STORAGE_KEY, '{not json');
    expect(loadUser()).toEqual(initialUserState);
    localStorage.setItem(USER_STORAGE_KEY, JSON.stringify({ id: 5, role: 'ADMIN', token: '' }));
    expect(loadUser()).toEqual(initialUserState);
  });
});
