import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { isRole, roleFromOperatorLevel, type Role } from './roles';
import type { AuthSnapshot } from '@/api/encoding';

/** Corp platform credentials handed over by an embedding host. */
export interface CorpAuth {
  token: string;
  userID: string;
}

/** Signed-in user and auth material (spec editor-core §3 'Editor and user state'). */
export interface UserState {
  /** The user id is the phone number. */
  id: string | null;
  role: Role | null;
  providerId: string | null;
  operateId: string | null;
  /** Operator level of the account (spec platform §6). */
  roleId: number | null;
  taskType: string | null;
  token: string | null;
  jwt: string | null;
  ccToken: string | null;
  mobile: string | null;
  corpAuth: CorpAuth | null;
  /** Recent searches keyed by user id, newest first, at most SEARCH_HISTORY_LIMIT each. */
  searchHistory: Record<string, string[]>;
}

export const SEARCH_HISTORY_LIMIT = 10;

export const initialUserState: UserState = {
  id: null,
  role: null,
  providerId: null,
  operateId: null,
  roleId: null,
  taskType: null,
  token: null,
  jwt: null,
  ccToken: null,
  mobile: null,
  corpAuth: null,
  searchHistory: {},
};

/** What a successful login (or an embedding host) hands to the store. */
export interface LoginPayload {
  id: string;
  token: string;
  /** Operator level; the role is derived from it unless `role` is given. */
  roleId?: number | null;
  role?: Role;
  mobile?: string | null;
  providerId?: string | null;
  operateId?: string | null;
  jwt?: string | null;
  ccToken?: string | null;
  corpAuth?: CorpAuth | null;
  taskType?: string | null;
}

const userSlice = createSlice({
  name: 'user',
  initialState: initialUserState,
  reducers: {
    loggedIn(state, action: PayloadAction<LoginPayload>) {
      const p = action.payload;
      state.id = p.id;
      state.token = p.token;
      state.roleId = p.roleId ?? null;
      state.role = p.role && isRole(p.role) ? p.role : roleFromOperatorLevel(p.roleId);
      state.mobile = p.mobile ?? p.id;
      state.providerId = p.providerId ?? null;
      state.operateId = p.operateId ?? null;
      state.jwt = p.jwt ?? null;
      state.ccToken = p.ccToken ?? null;
      state.corpAuth = p.corpAuth ?? null;
      state.taskType = p.taskType ?? null;
    },
    /** Clears auth, role, id and provider (spec editor-core §4); search history stays. */
    loggedOut(state) {
      return { ...initialUserState, searchHistory: state.searchHistory };
    },
    searchAdded(state, action: PayloadAction<string>) {
      const term = action.payload.trim();
      if (!term || !state.id) return;
      const list = (state.searchHistory[state.id] ?? []).filter((t) => t !== term);
      state.searchHistory[state.id] = [term, ...list].slice(0, SEARCH_HISTORY_LIMIT);
    },
  },
});

export const { loggedIn, loggedOut, searchAdded } = userSlice.actions;
export const userReducer = userSlice.reducer;

/** Returns true when the user holds a token and an id. */
export function isLoggedIn(user: UserState): boolean {
  return Boolean(user.token && user.id);
}

/** Returns the credentials the API client sends for this user. */
export function toAuthSnapshot(user: UserState): AuthSnapshot {
  return { token: user.token, userId: user.id, mobile: user.mobile, jwt: user.jwt };
}
