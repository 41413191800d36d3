/** How many hits a key may take in one window. */
export interface Rule {
  limit: number;
  windowSeconds: number;
}

/** The wait between tries once a failure budget is spent (see RateLimiter.attempt). */
export interface DelayRule {
  baseSeconds: number;
  maxSeconds: number;
}

/** The delay after `count` tries of a budget of `limit` (0 while within it), in milliseconds. */
export function delayAfter(count: number, limit: number, delay: DelayRule): number {
  if (count < limit) return 0;
  return Math.min(delay.maxSeconds, delay.baseSeconds * 2 ** (count - limit)) * 1000;
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
  /**
   * Takes back one hit counted by `consume` (never below 0): a reservation made before
   * checking a secret is returned when the check succeeds, so a limit on failures counts
   * failures only and still never lets more checks run at once than it allows.
   */
  refund(key: string): Promise<void>;
  /**
   * One try against a failure budget with a growing delay, atomically: up to `rule.limit`
   * tries run freely; from the try that spends the budget on, the next one is refused until
   * `delay.baseSeconds * 2^(tries - limit)` (at most `delay.maxSeconds`) has passed since the
   * last one. Parallel callers can never run more tries than that allows. `count` includes
   * this try; a refused try is not counted.
   */
  attempt(key: string, rule: Rule, delay: DelayRule): Promise<Decision>;
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
