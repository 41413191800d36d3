import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { oneTimeTokens } from '../../db/schema';

export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;

/**
 * The store of single-use secrets every module mails or hands out (activation and reset
 * links, codes, pending sign-ins, restore tokens). Only hashes are kept; how a module hashes
 * (plain SHA-256 for random links, salted for short codes) is its own business. `Purpose`
 * narrows the purposes a module may touch.
 */
export function oneTimeTokenQueries<Purpose extends string>(db: Database) {
  /** Not used yet and not expired. */
  const unspent = (now: Date) => and(isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now));
  const live = (purpose: Purpose, now: Date) => and(eq(oneTimeTokens.purpose, purpose), unspent(now));
  /** Narrows a select of tokens to the newest live one of a purpose for a user (short codes are looked up per user). */
  const newestLive = <Query extends PgSelect>(query: Query, userId: string, purpose: Purpose, now: Date) =>
    query
      .where(and(eq(oneTimeTokens.userId, userId), live(purpose, now)))
      .orderBy(desc(oneTimeTokens.createdAt))
      .limit(1);

  return {
    async insertToken(row: typeof oneTimeTokens.$inferInsert & { purpose: Purpose }): Promise<void> {
      await db.insert(oneTimeTokens).values(row);
    },

    /** Marks every unused token of a purpose used, so only the newest one works. */
    async retireTokens(userId: string, purpose: Purpose, now: Date): Promise<void> {
      await db
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
    },

    /** Atomically claims a live token by hash: exactly one caller of a race gets the row. */
    async claimToken(purpose: Purpose, tokenHash: string, now: Date): Promise<OneTimeTokenRow | undefined> {
      const [row] = await db
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.tokenHash, tokenHash), live(purpose, now)))
        .returning();
      return row;
    },

    async findLiveToken(purpose: Purpose, tokenHash: string, now: Date): Promise<OneTimeTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.tokenHash, tokenHash), live(purpose, now)))
        .limit(1);
      return row;
    },

    /** The newest live token of a purpose for a user (short codes are looked up per user). */
    async latestLiveToken(userId: string, purpose: Purpose, now: Date): Promise<OneTimeTokenRow | undefined> {
      const [row] = await newestLive(db.select().from(oneTimeTokens).$dynamic(), userId, purpose, now);
      return row;
    },

    /**
     * Takes one guess at the newest live token of a purpose for a user, in one statement
     * (UPDATE ... WHERE attempts < max RETURNING): the row when a guess was left, so parallel
     * guesses can never check more than `max`; undefined when none is.
     */
    async takeLatestAttempt(userId: string, purpose: Purpose, now: Date, max: number): Promise<OneTimeTokenRow | undefined> {
      const newest = newestLive(db.select({ id: oneTimeTokens.id }).from(oneTimeTokens).$dynamic(), userId, purpose, now);
      const [row] = await db
        .update(oneTimeTokens)
        .set({ attempts: sql`${oneTimeTokens.attempts} + 1` })
        .where(and(inArray(oneTimeTokens.id, newest), lt(oneTimeTokens.attempts, max), unspent(now)))
        .returning();
      return row;
    },

    /** Takes one guess at a live token found earlier, in one statement; false when none is left. */
    async takeAttempt(tokenId: string, now: Date, max: number): Promise<boolean> {
      const rows = await db
        .update(oneTimeTokens)
        .set({ attempts: sql`${oneTimeTokens.attempts} + 1` })
        .where(and(eq(oneTimeTokens.id, tokenId), lt(oneTimeTokens.attempts, max), unspent(now)))
        .returning({ id: oneTimeTokens.id });
      return rows.length > 0;
    },

    /** Counts a wrong guess; returns the attempts made so far. */
    async countAttempt(tokenId: string): Promise<number> {
      const [row] = await db
        .update(oneTimeTokens)
        .set({ attempts: sql`${oneTimeTokens.attempts} + 1` })
        .where(eq(oneTimeTokens.id, tokenId))
        .returning({ attempts: oneTimeTokens.attempts });
      return row?.attempts ?? 0;
    },

    /** Atomically uses a live token found earlier: exactly one caller of a race gets true. */
    async markTokenUsed(tokenId: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.id, tokenId), unspent(now)))
        .returning({ id: oneTimeTokens.id });
      return rows.length > 0;
    },
  };
}
