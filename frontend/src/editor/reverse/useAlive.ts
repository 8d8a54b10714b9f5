import { useEffect, useRef, type MutableRefObject } from 'react';

/**
 * True while the calling panel is mounted: a run it follows (`followRun`) stops updating a panel
 * that went away.
 */
export function useAlive(): MutableRefObject<boolean> {
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  return alive;
}
