import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users';
import { IDENTITY_CACHE_ENTRIES, IdentityCache, type CachedIdentity } from './identity-cache';
import type { SessionRow } from './queries';

const identity = (userId: string, sessionId = `${userId}-session`): CachedIdentity => ({
  user: { id: userId } as UserRow,
  session: { id: sessionId, userId } as SessionRow,
});

describe('IdentityCache', () => {
  it('keeps what a read found, by token hash', () => {
    const cache = new IdentityCache();
    cache.store('hash-a', identity('ann'), cache.generation);
    expect(cache.get('hash-a')?.user.id).toBe('ann');
    expect(cache.get('hash-b')).toBeUndefined();
  });

  it('drops every session of a user that changed, and only theirs', () => {
    const cache = new IdentityCache();
    cache.store('ann-phone', identity('ann', 'phone'), cache.generation);
    cache.store('ann-laptop', identity('ann', 'laptop'), cache.generation);
    cache.store('bob-phone', identity('bob'), cache.generation);
    cache.evictUser('ann');
    expect(cache.get('ann-phone')).toBeUndefined();
    expect(cache.get('ann-laptop')).toBeUndefined();
    expect(cache.get('bob-phone')?.user.id).toBe('bob');
  });

  it('refuses what a read found when an eviction came while it ran', () => {
    const cache = new IdentityCache();
    const before = cache.generation;
    // The read started, then the user changed, then the (stale) read finished.
    cache.evictUser('ann');
    cache.store('ann-phone', identity('ann'), before);
    expect(cache.get('ann-phone')).toBeUndefined();
    cache.store('ann-phone', identity('ann'), cache.generation);
    expect(cache.get('ann-phone')).toBeDefined();
  });

  /** A cache holding two sessions, 'one' then 'two', stored at time 0; `read` reads 'one' at `ms`. */
  function fullCache() {
    let now = 0;
    const cache = new IdentityCache({ maxEntries: 2, now: () => now });
    cache.store('one', identity('u1'), cache.generation);
    cache.store('two', identity('u2'), cache.generation);
    return { cache, read: (ms: number) => ((now = ms), cache.get('one')) };
  }

  it('forgets the least recently used session when full (used: read a second or more after it last moved)', () => {
    const { cache, read } = fullCache();
    read(1000);
    cache.store('three', identity('u3'), cache.generation);
    expect(cache.get('two')).toBeUndefined();
    expect(cache.get('one')).toBeDefined();
    expect(cache.get('three')).toBeDefined();
    expect(cache.size).toBe(2);
  });

  it('does not reorder on reads within a second of the last move', () => {
    const { cache, read } = fullCache();
    expect(read(999)).toBeDefined();
    cache.store('three', identity('u3'), cache.generation);
    expect(cache.get('one')).toBeUndefined();
    expect(cache.get('two')).toBeDefined();
  });

  it("keeps one copy of a user's row for all their sessions, and takes the newest after an eviction", () => {
    const cache = new IdentityCache();
    cache.store('ann-phone', identity('ann', 'phone'), cache.generation);
    cache.store('ann-laptop', identity('ann', 'laptop'), cache.generation);
    expect(cache.get('ann-laptop')!.user).toBe(cache.get('ann-phone')!.user);
    expect(cache.get('ann-laptop')!.session.id).toBe('laptop');
    cache.evictUser('ann');
    const renamed = { ...identity('ann', 'phone'), user: { id: 'ann', fullName: 'Ann B' } as UserRow };
    cache.store('ann-phone', renamed, cache.generation);
    expect(cache.get('ann-phone')!.user.fullName).toBe('Ann B');
  });

  it('holds 10,000 sessions by default', () => {
    const cache = new IdentityCache();
    for (let i = 0; i <= IDENTITY_CACHE_ENTRIES; i++) cache.store(`hash-${i}`, identity(`u${i}`), cache.generation);
    expect(IDENTITY_CACHE_ENTRIES).toBe(10_000);
    // Full, it made room by its oldest tenth (platform/bounded-map.ts) for the last one.
    expect(cache.size).toBe(IDENTITY_CACHE_ENTRIES * 0.9 + 1);
    expect(cache.get('hash-0')).toBeUndefined();
    expect(cache.get('hash-999')).toBeUndefined();
    expect(cache.get('hash-1000')).toBeDefined();
  });

  it('keeps nothing when its size is 0', () => {
    const cache = new IdentityCache({ maxEntries: 0 });
    cache.store('one', identity('u1'), cache.generation);
    expect(cache.size).toBe(0);
  });

  it('lets entries expire as a backstop', () => {
    let now = 1_000;
    const cache = new IdentityCache({ ttlMs: 100, now: () => now });
    cache.store('one', identity('u1'), cache.generation);
    now += 100;
    expect(cache.get('one')).toBeDefined();
    now += 1;
    expect(cache.get('one')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('empties on clear, and refuses reads that started before it', () => {
    const cache = new IdentityCache();
    const before = cache.generation;
    cache.store('one', identity('u1'), before);
    cache.clear();
    expect(cache.get('one')).toBeUndefined();
    cache.store('two', identity('u2'), before);
    expect(cache.size).toBe(0);
  });
});
