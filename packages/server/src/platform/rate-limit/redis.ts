import { Redis } from 'ioredis';
import { decide, secondsLeft, statusOf, type RateLimiter, type RateLimitLogger, type Rule } from './types';

/**
 * Count one hit and start the window on the first one, atomically (a script runs alone on the
 * server, so two API nodes can never both see count 1). The TTL guard repairs a key that
 * somehow has no expiry, so no counter can live forever. Returns { count, ms left }.
 */
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

/**
 * One try against a failure budget with a growing delay (RateLimiter.attempt), in one script:
 * KEYS[1] counts tries, KEYS[2] holds when the next try may run once the budget is spent.
 * ARGV: now, window ms, limit, base delay ms, max delay ms. Returns { allowed, count, ms to wait }.
 */
const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local nextAt = tonumber(redis.call('GET', KEYS[2]) or '0')
if count >= limit and now < nextAt then
  return { 0, count, nextAt - now }
end
count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  ttl = tonumber(ARGV[2])
end
if count >= limit then
  local wait = math.min(tonumber(ARGV[5]), tonumber(ARGV[4]) * (2 ^ (count - limit)))
  if ttl < wait then ttl = wait end
  redis.call('SET', KEYS[2], tostring(now + wait), 'PX', ttl)
end
redis.call('PEXPIRE', KEYS[1], ttl)
return { 1, count, 0 }
`;

/** Takes back one hit, never below zero, keeping the window. */
const REFUND_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return count
`;

type WithConsume = Redis & {
  rateLimitConsume(key: string, windowMs: number): Promise<[number, number]>;
  rateLimitAttempt(key: string, nextKey: string, now: number, windowMs: number, limit: number, baseMs: number, maxMs: number): Promise<[number, number, number]>;
  rateLimitRefund(key: string): Promise<number>;
};

export interface RedisLimiterOptions {
  redisUrl: string;
  keyPrefix?: string;
  logger?: RateLimitLogger;
}

/**
 * Counters in Redis, shared by every API node. A Redis outage is not hidden: commands fail
 * after one reconnect attempt instead of queueing forever, so the request fails (and
 * /readyz-style checks can see it) rather than silently letting every attempt through.
 */
export function createRedisRateLimiter(options: RedisLimiterOptions): RateLimiter {
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, keyPrefix: options.keyPrefix ?? 'rl:' }) as WithConsume;
  redis.defineCommand('rateLimitConsume', { numberOfKeys: 1, lua: CONSUME_SCRIPT });
  redis.defineCommand('rateLimitAttempt', { numberOfKeys: 2, lua: ATTEMPT_SCRIPT });
  redis.defineCommand('rateLimitRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  // ioredis reports connection trouble as 'error' events (and prints them when nobody listens).
  // Only the message is logged: the URL may carry a password.
  let lastError = '';
  redis.on('error', (error: Error) => {
    if (error.message === lastError) return; // once per distinct failure, not once per retry
    lastError = error.message;
    options.logger?.warn({ reason: error.message }, 'rate-limit store (Redis) unavailable');
  });
  redis.on('ready', () => {
    lastError = '';
  });

  const read = async (key: string): Promise<{ count: number; msLeft: number }> => {
    const results = await redis.multi().get(key).pttl(key).exec();
    const [[getError, value], [ttlError, ttl]] = results ?? [[null, null], [null, -2]];
    if (getError || ttlError) throw getError ?? ttlError;
    return { count: Number(value ?? 0), msLeft: Math.max(0, Number(ttl)) };
  };

  return {
    kind: 'redis',
    async consume(key, rule: Rule) {
      const [count, msLeft] = await redis.rateLimitConsume(key, rule.windowSeconds * 1000);
      return decide(Number(count), rule, Number(msLeft));
    },
    async peek(key) {
      return (await read(key)).count;
    },
    async status(key, rule) {
      const { count, msLeft } = await read(key);
      return statusOf(count, rule, msLeft);
    },
    async reset(key) {
      await redis.del(key, `${key}:next`);
    },
    async refund(key) {
      await redis.rateLimitRefund(key);
    },
    async attempt(key, rule, delay) {
      const [allowed, count, msLeft] = await redis.rateLimitAttempt(key, `${key}:next`, Date.now(), rule.windowSeconds * 1000, rule.limit, delay.baseSeconds * 1000, delay.maxSeconds * 1000);
      return { allowed: allowed === 1, count: Number(count), retryAfterSeconds: allowed === 1 ? 0 : secondsLeft(Number(msLeft)) };
    },
    async close() {
      // QUIT lets pending replies arrive; a client that is not connected just stops retrying.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
