import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { CAPTCHA_AFTER_FAILURES, createRateLimiter, failureDelay, limits, rateKey, rateLimited, type RateLimiter } from './index';
import { createMemoryRateLimiter } from './memory';

const REDIS_URL = process.env.REDIS_URL;
/** One namespace per run, so runs sharing a Redis never see each other's counters. */
const runPrefix = `test:${randomBytes(4).toString('hex')}:`;

const backends = [
  { name: 'memory', redisUrl: undefined },
  ...(REDIS_URL ? [{ name: 'redis', redisUrl: REDIS_URL }] : []),
];

describe.each(backends)('rate limiter ($name)', ({ redisUrl }) => {
  const opened: RateLimiter[] = [];
  const open = (prefix = runPrefix) => {
    const limiter = createRateLimiter({ redisUrl, keyPrefix: prefix });
    opened.push(limiter);
    return limiter;
  };
  let n = 0;
  /** A limiter and a key no other test counts on, with the rule the test applies. */
  const fresh = (limit: number, windowSeconds: number) => ({ limiter: open(), key: `k${++n}`, rule: { limit, windowSeconds } });
  afterAll(async () => {
    await Promise.all(opened.map((limiter) => limiter.close()));
  });

  it('allows up to the limit, then refuses with a wait within the window', async () => {
    const { limiter, key, rule } = fresh(3, 60);
    for (let i = 1; i <= 3; i++) {
      expect(await limiter.consume(key, rule)).toEqual({ allowed: true, count: i, retryAfterSeconds: 0 });
    }
    const refused = await limiter.consume(key, rule);
    expect(refused.allowed).toBe(false);
    expect(refused.count).toBe(4);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('peeks and reports status without counting', async () => {
    const { limiter, key, rule } = fresh(2, 60);
    expect(await limiter.peek(key, rule)).toBe(0);
    expect(await limiter.status(key, rule)).toEqual({ allowed: true, count: 0, retryAfterSeconds: 0 });
    await limiter.consume(key, rule);
    await limiter.consume(key, rule);
    expect(await limiter.peek(key, rule)).toBe(2);
    expect(await limiter.peek(key, rule)).toBe(2);
    const status = await limiter.status(key, rule);
    expect(status.allowed).toBe(false);
    expect(status.retryAfterSeconds).toBeGreaterThan(0);
    expect(status.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('starts a new window once the old one expires', async () => {
    const { limiter, key, rule } = fresh(1, 1);
    expect((await limiter.consume(key, rule)).allowed).toBe(true);
    const refused = await limiter.consume(key, rule);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    await sleep(1100);
    expect(await limiter.peek(key, rule)).toBe(0);
    expect(await limiter.consume(key, rule)).toEqual({ allowed: true, count: 1, retryAfterSeconds: 0 });
  });

  it('does not extend the window with refused hits', async () => {
    const { limiter, key, rule } = fresh(1, 1);
    await limiter.consume(key, rule);
    await sleep(600);
    expect((await limiter.consume(key, rule)).allowed).toBe(false);
    await sleep(500);
    expect((await limiter.consume(key, rule)).allowed).toBe(true);
  });

  it('forgets a key on reset', async () => {
    const { limiter, key, rule } = fresh(1, 60);
    await limiter.consume(key, rule);
    expect((await limiter.consume(key, rule)).allowed).toBe(false);
    await limiter.reset(key);
    expect(await limiter.peek(key, rule)).toBe(0);
    expect((await limiter.consume(key, rule)).allowed).toBe(true);
  });

  it('keeps keys of different prefixes apart', async () => {
    const a = open(`${runPrefix}a:`);
    const b = open(`${runPrefix}b:`);
    const rule = { limit: 1, windowSeconds: 60 };
    await a.consume('same', rule);
    expect(await b.peek('same', rule)).toBe(0);
  });

  it('refunds a reserved hit, never below zero', async () => {
    const { limiter, key, rule } = fresh(2, 60);
    await limiter.consume(key, rule);
    await limiter.consume(key, rule);
    await limiter.refund(key);
    expect(await limiter.peek(key, rule)).toBe(1);
    await limiter.refund(key);
    await limiter.refund(key);
    expect(await limiter.peek(key, rule)).toBe(0);
  });

  it('runs no more parallel tries than the budget, then one per growing delay', async () => {
    const { limiter, key, rule } = fresh(10, 60);
    const delay = { baseSeconds: 30, maxSeconds: 600 };
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.attempt(key, rule, delay)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.retryAfterSeconds).toBeGreaterThan(25);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(30);
    expect(await limiter.peek(key, rule)).toBe(10);
  });

  it('lets a try through once the delay has passed, and doubles the next delay', async () => {
    const { limiter, key, rule } = fresh(2, 60);
    const delay = { baseSeconds: 0.2, maxSeconds: 10 };
    expect((await limiter.attempt(key, rule, delay)).allowed).toBe(true);
    expect((await limiter.attempt(key, rule, delay)).allowed).toBe(true);
    expect((await limiter.attempt(key, rule, delay)).allowed).toBe(false);
    await sleep(250);
    expect(await limiter.attempt(key, rule, delay)).toMatchObject({ allowed: true, count: 3 });
    await sleep(250);
    expect((await limiter.attempt(key, rule, delay)).allowed).toBe(false); // 0.4 s now
    await sleep(200);
    expect((await limiter.attempt(key, rule, delay)).allowed).toBe(true);
    await limiter.reset(key);
    expect(await limiter.attempt(key, rule, delay)).toMatchObject({ allowed: true, count: 1 });
  });

  it('counts concurrent hits exactly', async () => {
    const { limiter, key, rule } = fresh(10, 60);
    const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.consume(key, rule)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect(decisions.map((decision) => decision.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});

describe.runIf(REDIS_URL)('rate limiter on one Redis shared by two nodes', () => {
  it('counts hits from both limiters against one limit', async () => {
    const nodeA = createRateLimiter({ redisUrl: REDIS_URL, keyPrefix: runPrefix });
    const nodeB = createRateLimiter({ redisUrl: REDIS_URL, keyPrefix: runPrefix });
    try {
      const rule = { limit: 3, windowSeconds: 60 };
      const key = rateKey(limits.signInPerIp, '203.0.113.9');
      await nodeA.consume(key, rule);
      await nodeB.consume(key, rule);
      expect(await nodeA.peek(key, rule)).toBe(2);
      expect((await nodeA.consume(key, rule)).allowed).toBe(true);
      expect((await nodeB.consume(key, rule)).allowed).toBe(false);
      await nodeB.reset(key);
      expect(await nodeA.peek(key, rule)).toBe(0);
    } finally {
      await Promise.all([nodeA.close(), nodeB.close()]);
    }
  });
});

describe('Redis limiter when Redis is down', () => {
  it('fails the call quickly instead of hanging or allowing, and says so once in the log', async () => {
    const warnings: object[] = [];
    const limiter = createRateLimiter({
      redisUrl: 'redis://:hunter2@127.0.0.1:1',
      logger: { warn: (object) => warnings.push(object) },
    });
    const started = Date.now();
    await expect(limiter.consume('k', { limit: 1, windowSeconds: 60 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(warnings)).not.toContain('hunter2');
    await limiter.close();
  });
});

describe('in-process limiter memory bound', () => {
  it('evicts the oldest counter when full', async () => {
    const limiter = createMemoryRateLimiter({ maxEntries: 3 });
    const rule = { limit: 5, windowSeconds: 60 };
    for (const key of ['a', 'b', 'c', 'd']) await limiter.consume(key, rule);
    expect(await limiter.peek('a', rule)).toBe(0);
    expect(await limiter.peek('d', rule)).toBe(1);
    await limiter.close();
  });

  it('keeps its bound under a flood of attempts too (distinct keys, as guesses at many addresses)', async () => {
    const limiter = createMemoryRateLimiter({ maxEntries: 100 });
    const rule = { limit: 5, windowSeconds: 60 };
    for (let i = 0; i < 1_000; i++) await limiter.attempt(`guess-${i}`, rule, failureDelay());
    const counters = (key: string) => limiter.peek(key, rule);
    // The newest are counted, the oldest went: at most the bound is held.
    expect(await counters('guess-999')).toBe(1);
    expect(await counters('guess-0')).toBe(0);
    let held = 0;
    for (let i = 0; i < 1_000; i++) if ((await counters(`guess-${i}`)) > 0) held++;
    expect(held).toBeLessThanOrEqual(100);
    await limiter.close();
  });

  it('drops expired counters before evicting live ones', async () => {
    const limiter = createMemoryRateLimiter({ maxEntries: 2 });
    await limiter.consume('short', { limit: 5, windowSeconds: 1 });
    await limiter.consume('long', { limit: 5, windowSeconds: 60 });
    await sleep(1050);
    await limiter.consume('new', { limit: 5, windowSeconds: 60 });
    expect(await limiter.peek('long', { limit: 5, windowSeconds: 60 })).toBe(1);
    await limiter.close();
  });
});

describe('rateLimited', () => {
  it('passes allowed decisions', () => {
    expect(() => rateLimited({ allowed: true, count: 1, retryAfterSeconds: 0 })).not.toThrow();
  });

  it('throws the catalogue 429 naming the wait', () => {
    let thrown: unknown;
    try {
      rateLimited({ allowed: false, count: 4, retryAfterSeconds: 42 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const error = thrown as AppError;
    expect(error.status).toBe(429);
    expect(error.toBody()).toEqual({
      code: 'rate_limited',
      message: 'Too many requests. Try again in 42 seconds',
      details: { retry_after_seconds: 42 },
    });
  });
});

describe('rule catalogue', () => {
  it('has the agreed values', () => {
    expect(CAPTCHA_AFTER_FAILURES).toBe(3);
    expect(limits.signInFailuresPerAccount).toMatchObject({ limit: 10, windowSeconds: 900 });
    expect(limits.signInPerIp).toMatchObject({ limit: 50, windowSeconds: 600 });
    expect(limits.signUpPerIp).toMatchObject({ limit: 10, windowSeconds: 3600 });
    expect(limits.codeSendPerAccount).toMatchObject({ limit: 5, windowSeconds: 900 });
    expect(limits.codeSendInterval).toMatchObject({ limit: 1, windowSeconds: 30 });
    expect(limits.recoveryPerIp).toMatchObject({ limit: 20, windowSeconds: 900 });
    const names = Object.values(limits).map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('builds short keys that hold no address and ignore case', () => {
    const key = rateKey(limits.signInFailuresPerAccount, ' Alice@Example.com ');
    expect(key).toBe(rateKey(limits.signInFailuresPerAccount, 'alice@example.com'));
    expect(key).not.toContain('example');
    expect(key.startsWith('signin:fail:')).toBe(true);
    expect(rateKey(limits.signUpPerIp, 'alice@example.com')).not.toBe(key);
  });

  it('keeps its keys from one release to the next: counters in Redis outlive a rolling deploy, and a new key would forget a lockout', () => {
    const digest = createHash('sha256').update('alice@example.com').digest('base64url').slice(0, 22);
    expect(rateKey(limits.signInFailuresPerAccount, ' Alice@Example.com ')).toBe(`signin:fail:${digest}`);
  });
});
