/** The time source. Tests move it to cross expiry windows without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void; set(date: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => void (current += ms),
    set: (date) => void (current = date.getTime()),
  };
}
