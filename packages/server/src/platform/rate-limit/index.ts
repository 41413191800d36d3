import { AppError } from '../errors';
import { createMemoryRateLimiter } from './memory';
import { createRedisRateLimiter } from './redis';
import type { Decision, RateLimiter, RateLimitLogger } from './types';

export type { Decision, DelayRule, RateLimiter, RateLimitLogger, Rule } from './types';
export { CAPTCHA_AFTER_FAILURES, failureDelay, limits, rateKey, type NamedRule } from './rules';

export interface RateLimiterOptions {
  /** Shared counters in Redis; without it, counters live in this process. */
  redisUrl?: string;
  /** Namespace of every key (lets tests and several deployments share one Redis). */
  keyPrefix?: string;
  /** Told when Redis becomes unreachable (commands then fail rather than wait). */
  logger?: RateLimitLogger;
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  return options.redisUrl
    ? createRedisRateLimiter({ redisUrl: options.redisUrl, keyPrefix: options.keyPrefix, logger: options.logger })
    : createMemoryRateLimiter({ keyPrefix: options.keyPrefix });
}

/** Throws the 429 of the error catalogue when a decision refuses; the body names the wait. */
export function rateLimited(decision: Decision): void {
  if (decision.allowed) return;
  const seconds = decision.retryAfterSeconds;
  throw new AppError('rate_limited', { second: seconds }, { retry_after_seconds: seconds });
}
