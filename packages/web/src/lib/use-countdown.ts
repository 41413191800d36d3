import { useEffect, useState } from 'react';

/**
 * Seconds left of a wait (a resend cooldown, a 429's retry-after), ticking down to 0.
 * `start(n)` begins a new wait of n seconds; `initialSeconds` starts one at mount.
 */
export function useCountdown(initialSeconds = 0): [seconds: number, start: (seconds: number) => void] {
  const [now, setNow] = useState(() => Date.now());
  const [endsAt, setEndsAt] = useState(() => (initialSeconds > 0 ? Date.now() + initialSeconds * 1000 : 0));

  useEffect(() => {
    if (endsAt <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [endsAt]);

  const start = (seconds: number) => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + Math.max(0, seconds) * 1000);
  };

  return [Math.max(0, Math.ceil((endsAt - now) / 1000)), start];
}
