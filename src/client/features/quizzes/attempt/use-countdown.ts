import { useEffect, useEffectEvent, useState } from 'react';

/**
 * Seconds left until a deadline given as "seconds from now" by the server.
 * Counted on the monotonic clock, so changing the computer's clock changes
 * nothing; a reload asks the server again. Calls onExpire once at zero.
 */
export function useCountdown(remainingSeconds: number, onExpire: () => void): number {
  const [secondsLeft, setSecondsLeft] = useState(remainingSeconds);
  const handleExpire = useEffectEvent(onExpire);

  useEffect(() => {
    const deadline = performance.now() + remainingSeconds * 1000;
    let hasExpired = false;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0 && !hasExpired) {
        hasExpired = true;
        handleExpire();
      }
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [remainingSeconds]);

  return secondsLeft;
}
