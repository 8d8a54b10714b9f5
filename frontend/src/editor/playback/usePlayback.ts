/** The editor's playhead clock, shared by the timeline and the stage through a context. */
import { createContext, useContext, useSyncExternalStore } from 'react';
import { PlaybackClock, type ClockState } from './clock';

/** The clock of the open editor (a default one for views shown alone, as in tests). */
export const ClockContext = createContext<PlaybackClock>(new PlaybackClock());

/** Returns the editor's clock (to play, pause and seek). */
export function useClock(): PlaybackClock {
  return useContext(ClockContext);
}

/** Returns the clock's state; the calling view re-renders on every change (every frame while playing). */
export function usePlayback(): ClockState {
  const clock = useClock();
  return useSyncExternalStore(clock.subscribe, clock.get, clock.get);
}

/** Returns a part of the clock's state; the view re-renders only when that part changes. */
export function usePlaybackPart<T extends string | number | boolean>(pick: (s: ClockState) => T): T {
  const clock = useClock();
  return useSyncExternalStore(
    clock.subscribe,
    () => pick(clock.get()),
    () => pick(clock.get()),
  );
}
