import { limits, rateKey, type NamedRule, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';

/**
 * The per-address budget of failures every way in that guesses a secret shares (password,
 * email code, passkey, second step): one budget, whatever the method. A try reserves one hit
 * before anything is checked (so parallel tries never exceed it) and a success gives it back,
 * so only failures count: people sharing one address do not lock each other out.
 */
export const signInIpKey = (origin: RequestOrigin) => rateKey(limits.signInPerIp, origin.limitAddress);

/** One mark per address and budget window: the lock the dashboard counts once, however many tries it refuses. */
const lockoutCounted: NamedRule = { name: 'signin:ip:locked', limit: 1, windowSeconds: limits.signInPerIp.windowSeconds };

/**
 * After a refused factor: when that failure left the address's budget spent, the address is
 * locked out of signing in, and the first failure to see it (one atomic mark) says so.
 */
export async function addressLockedByFailure(limiter: RateLimiter, origin: RequestOrigin): Promise<boolean> {
  if ((await limiter.status(signInIpKey(origin), limits.signInPerIp)).allowed) return false;
  return (await limiter.consume(rateKey(lockoutCounted, origin.limitAddress), lockoutCounted)).count === 1;
}
