/**
 * Attacks on "a full in-memory cache makes room by its oldest tenth" (bounded-map.ts evictOldest),
 * as an attacker would use it: to reset a spent rate-limit budget on the default
 * single-node limiter, or to have a revoked session served. These pin the safe behaviour.
 */
import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../modules/sessions/queries';
import { IdentityCache, type CachedIdentity } from '../modules/sessions/identity-cache';
import type { UserRow } from '../modules/users';
import { failureDelay } from './rate-limit';
import { createMemoryRateLimiter } from './rate-limit/memory';

const MAX = 1000;
/** The code-guess and sign-in budgets: 10 failures per 15 minutes. */
const rule = { limit: 10, windowSeconds: 900 };

/**
 * New distinct keys an attacker has to send, after spending `spent`'s budget, until it is
 * forgotten (its next try counts from 0). `flood(i)` sends the i-th. Bounded at 3 × MAX.
 */
async function keysToForget(limiter: ReturnType<typeof createMemoryRateLimiter>, spent: string, flood: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3 * MAX; i++) {
    if ((await limiter.peek(spent, rule)) === 0) return i;
    await flood(i);
  }
  return Infinity;
}

describe('in-memory limiter: evicting a tenth does not make a spent budget cheap to reset', () => {
  it('a code-guess budget spent just now outlives nine tenths of the bound in new keys (consume or attempt)', async () => {
    for (const how of ['consume', 'attempt', 'attempt first, then consume'] as const) {
      const limiter = createMemoryRateLimiter({ maxEntries: MAX });
      // Others' counters fill the limiter (a busy node).
      for (let i = 0; i < MAX; i++) await limiter.consume(`someone-${i}`, rule);
      // The attacker spends the victim's code budget (second-factor.ts: attempt per user).
      for (let i = 0; i < rule.limit; i++) await limiter.attempt('factor:victim', rule, failureDelay());
      expect(await limiter.peek('factor:victim', rule)).toBe(rule.limit);
      // Either kind of try opens a window within the bound, evicting a tenth when full: a flood
      // still pays one new key per counter in front of the victim's.
      const cost = await keysToForget(limiter, 'factor:victim', (i) =>
        how === 'consume' || (how === 'attempt first, then consume' && i >= MAX) ? limiter.consume(`flood-${i}`, rule) : limiter.attempt(`flood-${i}`, rule, failureDelay()),
      );
      // Evicted one at a time it would take MAX new keys; by tenths it takes at least 0.9 × MAX.
      expect(cost, how).toBeGreaterThanOrEqual(0.9 * MAX);
      await limiter.close();
    }
  });

  it('the account lock (consume) spent just now outlives nine tenths of the bound in new keys', async () => {
    const limiter = createMemoryRateLimiter({ maxEntries: MAX });
    for (let i = 0; i < MAX; i++) await limiter.consume(`someone-${i}`, rule);
    for (let i = 0; i <= rule.limit; i++) await limiter.consume('lock:victim@example.com', rule);
    expect((await limiter.consume('lock:victim@example.com', rule)).allowed).toBe(false);
    const cost = await keysToForget(limiter, 'lock:victim@example.com', (i) => limiter.consume(`flood-${i}`, rule));
    expect(cost).toBeGreaterThanOrEqual(0.9 * MAX);
    await limiter.close();
  });
});

const identity = (userId: string, sessionId: string): CachedIdentity => ({
  user: { id: userId } as UserRow,
  session: { id: sessionId, userId } as SessionRow,
});

describe('identity cache: eviction by tenths keeps byUser in step with entries', () => {
  it('after many evictions every kept session is its user’s, and evicting a user leaves none of theirs served', () => {
    const cache = new IdentityCache({ maxEntries: 50 });
    const users = Array.from({ length: 7 }, (_, i) => `user-${i}`);
    // Sessions of a few users interleaved, some read again (moved to the recent end), some stored twice.
    for (let i = 0; i < 400; i++) {
      const user = users[(i * 3) % users.length]!;
      cache.store(`hash-${i}`, identity(user, `s-${i}`), cache.generation);
      if (i % 5 === 0) cache.get(`hash-${i - 3}`);
      if (i % 7 === 0) cache.store(`hash-${i - 1}`, identity(users[((i - 1) * 3) % users.length]!, `s-${i - 1}`), cache.generation);
    }
    const inside = cache as unknown as { entries: Map<string, { user: UserRow }>; byUser: Map<string, { user: UserRow; tokens: Set<string> }> };
    for (const [hash, entry] of inside.entries) expect(inside.byUser.get(entry.user.id)?.tokens.has(hash), hash).toBe(true);
    for (const [userId, sessions] of inside.byUser) {
      expect(sessions.tokens.size, userId).toBeGreaterThan(0);
      for (const hash of sessions.tokens) expect(inside.entries.get(hash)?.user.id, hash).toBe(userId);
    }
    // A user's account changes (locked, signed out everywhere): none of their sessions is served.
    for (const user of users) cache.evictUser(user);
    for (let i = 0; i < 400; i++) expect(cache.get(`hash-${i}`)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
