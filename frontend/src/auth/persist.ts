import { isRole } from './roles';
import { initialUserState, type UserState } from './userSlice';

export const USER_STORAGE_KEY = 'reelforge.user';

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Returns the user state saved in storage, or the initial state when absent or unreadable. */
export function loadUser(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): UserState {
  try {
    const raw = storage?.getItem(USER_STORAGE_KEY);
    if (!raw) return initialUserState;
    const v = JSON.parse(raw) as Record<string, unknown>;
    const corp = v.corpAuth as Record<string, unknown> | null | undefined;
    const history = v.searchHistory;
    return {
      id: str(v.id),
      role: isRole(v.role) ? v.role : null,
      providerId: str(v.providerId),
      operateId: str(v.operateId),
      roleId: typeof v.roleId === 'number' ? v.roleId : null,
      taskType: str(v.taskType),
      token: str(v.token),
      jwt: str(v.jwt),
      ccToken: str(v.ccToken),
      mobile: str(v.mobile),
      corpAuth: corp && str(corp.token) && str(corp.userID) ? { token: String(corp.token), userID: String(corp.userID) } : null,
      searchHistory:
        history && typeof history === 'object' && !Array.isArray(history) ? (history as Record<string, string[]>) : {},
    };
  } catch {
    return initialUserState;
  }
}

/** Writes the user state to storage; storage failures (quota, private mode) are ignored. */
export function saveUser(user: UserState, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  } catch {
    /* storage unavailable: state lives in memory only */
  }
}
