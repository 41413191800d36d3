import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase, testDatabaseKind } from '../../../test/db-target';
import { sessions, users } from '../../db/schema';
import { followIdentityChanges, type IdentityChangeFeed } from './change-feed';
import { IdentityCache } from './identity-cache';
import type { SessionRow } from './queries';

/**
 * The triggers of migration 0002 and the feed that follows them, on the run's database
 * (PGlite, or PostgreSQL when TEST_DB=postgres): changes reach the cache whoever makes them.
 */
const database = fileDatabase();
let cache: IdentityCache;
let feed: IdentityChangeFeed;

beforeAll(async () => {
  cache = new IdentityCache();
  feed = await followIdentityChanges(database, cache);
});
afterAll(async () => {
  await feed.close();
});

async function signedInUser(): Promise<{ userId: string; session: SessionRow }> {
  const userId = randomUUID();
  const now = new Date();
  await database.db.insert(users).values({ id: userId, email: `${userId}@example.com`, fullName: 'Feed Test', createdAt: now, updatedAt: now });
  const session: SessionRow = {
    id: randomUUID(), userId, tokenHash: randomUUID(), deviceId: 'device', browser: null, device: null, ip: null, location: null,
    createdAt: now, lastActiveAt: now, expiresAt: new Date(now.getTime() + 86_400_000), revokedAt: null, amr: null,
  };
  await database.db.insert(sessions).values(session);
  const [user] = await database.db.select().from(users).where(eq(users.id, userId));
  cache.store(session.tokenHash, { user: user!, session }, cache.generation);
  return { userId, session };
}

describe('identity change feed', () => {
  it('is live once listening', () => {
    expect(feed.live).toBe(true);
  });

  it.each([
    ['a user whose row changes, once the change has reached this node', (userId: string) => database.db.update(users).set({ fullName: 'Renamed' }).where(eq(users.id, userId))],
    ['the user of a revoked session', (_userId: string, sessionId: string) => database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId))],
    ['the user of a deleted session', (_userId: string, sessionId: string) => database.db.delete(sessions).where(eq(sessions.id, sessionId))],
  ] as const)('evicts %s', async (_what, change) => {
    const { userId, session } = await signedInUser();
    await change(userId, session.id);
    await feed.barrier();
    expect(cache.get(session.tokenHash)).toBeUndefined();
  });

  it('keeps users when only last-active moves (written once a minute per session)', async () => {
    const { session } = await signedInUser();
    await database.db.update(sessions).set({ lastActiveAt: new Date() }).where(eq(sessions.id, session.id));
    await feed.barrier();
    expect(cache.get(session.tokenHash)).toBeDefined();
  });

  it('announces nothing for a change that is rolled back', async () => {
    const { userId, session } = await signedInUser();
    await database.db
      .transaction(async (tx) => {
        await tx.update(users).set({ fullName: 'Never' }).where(eq(users.id, userId));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await feed.barrier();
    expect(cache.get(session.tokenHash)).toBeDefined();
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'empties the cache and stops vouching for it while the listening connection is down, then comes back',
    async () => {
      const { session } = await signedInUser();
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      );
      await expect.poll(() => feed.live, { timeout: 5000 }).toBe(false);
      expect(cache.get(session.tokenHash)).toBeUndefined();
      await expect.poll(() => feed.live, { timeout: 10_000 }).toBe(true);
      const again = await signedInUser();
      await database.db.update(users).set({ fullName: 'After reconnect' }).where(eq(users.id, again.userId));
      await feed.barrier();
      expect(cache.get(again.session.tokenHash)).toBeUndefined();
    },
  );
});
