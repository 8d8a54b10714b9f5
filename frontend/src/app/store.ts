import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { loadUser, saveUser } from '@/auth/persist';
import { userReducer } from '@/auth/userSlice';
import { editorReducer } from '@/editor/state/editorSlice';

const rootReducer = combineReducers({ user: userReducer, editor: editorReducer });

export type RootState = ReturnType<typeof rootReducer>;

/** Returns a new store; tests pass their own preloaded state. */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    // The editor slice holds whole documents and their undo history, kept immutable by immer;
    // walking them on every dispatch in development would make each drag step slow.
    middleware: (getDefault) => getDefault({ serializableCheck: { ignoredPaths: ['editor'] }, immutableCheck: { ignoredPaths: ['editor'] } }),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

/** Saves the user slice to localStorage whenever it changes. */
export function persistUser(target: AppStore): () => void {
  let last = target.getState().user;
  return target.subscribe(() => {
    const user = target.getState().user;
    if (user !== last) {
      last = user;
      saveUser(user);
    }
  });
}

/** The app's store, started from the user saved in localStorage. */
export const store = makeStore({ user: loadUser() });
persistUser(store);
