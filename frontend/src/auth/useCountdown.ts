import { useCallback, useEffect, useState } from 'react';

/** Returns the whole seconds left until `deadline` (ms since epoch), never negative. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/**
 * A countdown in whole seconds measured against the clock (a throttled background tab
 * still shows the right value). `start(n)` restarts it at n.
 */
export function useCountdown(): { remaining: number; start(seconds: number): void } {
  const [deadline, setDeadline] = useState(0);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (deadline === 0) return undefined;
    const tick = () => {
      const left = secondsLeft(deadline, Date.now());
      setRemaining(left);
      if (left === 0) setDeadline(0);
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => {
    setDeadline(Date.now() + Math.max(0, seconds) * 1000);
    setRemaining(Math.max(0, Math.ceil(seconds)));
  }, []);

  return { remaining, start };
}
