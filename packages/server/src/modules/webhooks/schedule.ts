/**
 * When a failed delivery is tried again, after its nth attempt: the schedule Standard Webhooks
 * recommends (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), each delay spread by up to a tenth so
 * that endpoints that were down together are not all retried in the same second. About a day
 * in all; after the last one the delivery is marked failed (an operator may redeliver it).
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;

/** Attempts in all: the first one and every retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The time of the next attempt after `attempts` failed ones, or null when there is none. */
export function nextAttemptAfter(attempts: number, now: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + delay + Math.floor(delay * 0.1 * random()));
}
