/** How many hits a key may take in one window. */
export interface Rule {
  limit: number;
  windowSeconds: number;
}

/** The answer to one hit. `count` includes this hit; `retryAfterSeconds` is 0 when allowed. */
export interface Decision {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counters that expire on their own. Keys are the caller's (see `rateKey`); the same key
 * must always be used with the same rule.
 *
 * Window: fixed, starting at a key's first hit (not aligned to the clock). Why not sliding:
 * - the count is an exact integer, so "captcha after 3 failures" compares a real number;
 * - one counter per key, one atomic round trip to Redis, and the retry-after is simply the
 *   counter's remaining time to live;
 * - a sliding log would store one entry per hit, which an attacker could use to grow memory.
 * The cost is that a client can spend a full allowance at the end of one window and another
 * at the start of the next (at most 2x the limit in a burst, never more than the limit per
 * window on average) — acceptable for brute-force and abuse limits of this size.
 */
export interface RateLimiter {
  readonly kind: 'memory' | 'redis';
  /** Counts one hit and says whether it is within the rule. */
  consume(key: string, rule: Rule): Promise<Decision>;
  /** The current count, without counting a hit (0 when the window has passed). */
  peek(key: string, rule: Rule): Promise<number>;
  /**
   * What the next `consume` would face, without counting: `allowed` while the count is below
   * the limit, otherwise how long until the window ends. For "blocked already?" checks that
   * must answer 429 before doing the work (e.g. before checking a password).
   */
  status(key: string, rule: Rule): Promise<Decision>;
  /** Forgets a key (e.g. the failure counter after a successful sign-in). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The slice of a pino / Fastify logger the limiter uses. */
export interface RateLimitLogger {
  warn(object: object, message: string): void;
}

/** Seconds to wait, from milliseconds left in the window: never 0 for a refused hit. */
export function secondsLeft(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export function decide(count: number, rule: Rule, msLeft: number): Decision {
  const allowed = count <= rule.limit;
  return { allowed, count, retryAfterSeconds: allowed ? 0 : secondsLeft(msLeft) };
}

export function statusOf(count: number, rule: Rule, msLeft: number): Decision {
  const allowed = count < rule.limit;
  return { allowed, count, retryAfterSeconds: allowed ? 0 : secondsLeft(msLeft) };
}
