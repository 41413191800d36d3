import { Redis } from 'ioredis';
import { decide, statusOf, type RateLimiter, type RateLimitLogger, type Rule } from './types';

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

type WithConsume = Redis & { rateLimitConsume(key: string, windowMs: number): Promise<[number, number]> };

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
      await redis.del(key);
    },
    async close() {
      // QUIT lets pending replies arrive; a client that is not connected just stops retrying.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
