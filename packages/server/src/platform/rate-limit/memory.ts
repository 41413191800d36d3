import { evictOldest } from '../bounded-map';
import { decide, delayAfter, secondsLeft, statusOf, type RateLimiter, type Rule } from './types';

interface Counter {
  count: number;
  /** Epoch milliseconds when the window ends. */
  resetAt: number;
  /** Epoch milliseconds before which the next try of a spent budget is refused (attempt). */
  nextAt?: number;
}

export interface MemoryLimiterOptions {
  keyPrefix?: string;
  /** Most counters kept at once; bounds memory when many distinct keys are hit. */
  maxEntries?: number;
  /** How often expired counters are dropped. */
  sweepIntervalMs?: number;
}

/**
 * Counters in a Map, for one process (the embedded default). Expired counters are dropped by a
 * periodic sweep whose timer is unref'd, so it never keeps the process alive. When full, the
 * oldest tenth of the counters is evicted: that favours availability over exactness under a flood of
 * distinct keys, which is why production with several nodes uses Redis instead.
 */
export function createMemoryRateLimiter(options: MemoryLimiterOptions = {}): RateLimiter {
  const prefix = options.keyPrefix ?? '';
  const maxEntries = options.maxEntries ?? 100_000;
  const counters = new Map<string, Counter>();

  const sweep = (now = Date.now()) => {
    for (const [key, counter] of counters) if (counter.resetAt <= now) counters.delete(key);
  };
  const timer = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
  timer.unref();

  const live = (key: string, now: number): Counter | undefined => {
    const counter = counters.get(prefix + key);
    return counter && counter.resetAt > now ? counter : undefined;
  };

  /** A new window for `key`, within the bound (consume and attempt alike: either may be flooded with distinct keys). */
  const open = (key: string, rule: Rule, now: number): Counter => {
    if (counters.size >= maxEntries) {
      sweep(now);
      // Map iteration is insertion order: the first keys are the oldest windows. A tenth goes
      // at once, so a flood of distinct keys pays for a sweep once per tenth, not per key.
      if (counters.size >= maxEntries) evictOldest(counters, maxEntries);
    }
    const counter = { count: 0, resetAt: now + rule.windowSeconds * 1000 };
    counters.delete(prefix + key); // re-insert so insertion order tracks window start
    counters.set(prefix + key, counter);
    return counter;
  };

  return {
    kind: 'memory',
    async consume(key, rule: Rule) {
      const now = Date.now();
      const counter = live(key, now) ?? open(key, rule, now);
      counter.count += 1;
      return decide(counter.count, rule, counter.resetAt - now);
    },
    async peek(key) {
      return live(key, Date.now())?.count ?? 0;
    },
    async status(key, rule) {
      const now = Date.now();
      const counter = live(key, now);
      return statusOf(counter?.count ?? 0, rule, counter ? counter.resetAt - now : 0);
    },
    async reset(key) {
      counters.delete(prefix + key);
    },
    async refund(key) {
      const counter = live(key, Date.now());
      if (counter && counter.count > 0) counter.count -= 1;
    },
    async attempt(key, rule, delay) {
      const now = Date.now();
      let counter = live(key, now);
      if (counter && counter.count >= rule.limit && counter.nextAt !== undefined && now < counter.nextAt) {
        return { allowed: false, count: counter.count, retryAfterSeconds: secondsLeft(counter.nextAt - now) };
      }
      counter ??= open(key, rule, now);
      counter.count += 1;
      const wait = delayAfter(counter.count, rule.limit, delay);
      if (wait > 0) {
        counter.nextAt = now + wait;
        counter.resetAt = Math.max(counter.resetAt, counter.nextAt);
      }
      return { allowed: true, count: counter.count, retryAfterSeconds: 0 };
    },
    async close() {
      clearInterval(timer);
      counters.clear();
    },
  };
}
