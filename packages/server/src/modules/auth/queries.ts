import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oneTimeTokens, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;
export type TokenPurpose = 'activation' | 'reset_code' | 'reset_link';

export function authQueries(db: Database) {
  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row;
    },

    /** By email, or by username (case-insensitive) when the identifier has no '@'. */
    async findUserByIdentifier(identifier: string): Promise<UserRow | undefined> {
      const value = identifier.trim().toLowerCase();
      const condition = value.includes('@') ? eq(users.email, value) : eq(sql`lower(${users.username})`, value);
      const [row] = await db.select().from(users).where(condition).limit(1);
      return row;
    },

    async findUserById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Inserts unless the email is taken (a concurrent sign-up); returns whether it inserted. */
    async insertUser(row: typeof users.$inferInsert): Promise<boolean> {
      const inserted = await db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
      return inserted.length > 0;
    },

    async activateUser(id: string, now: Date): Promise<void> {
      await db.update(users).set({ activatedAt: now, updatedAt: now }).where(and(eq(users.id, id), isNull(users.activatedAt)));
    },

    async setPasswordHash(id: string, passwordHash: string, now: Date, changed: boolean): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: now, ...(changed ? { passwordChangedAt: now } : {}) })
        .where(eq(users.id, id));
    },

    async insertToken(row: typeof oneTimeTokens.$inferInsert): Promise<void> {
      await db.insert(oneTimeTokens).values(row);
    },

    /** Marks every unused token of a purpose used, so only the newest one works. */
    async retireTokens(userId: string, purpose: TokenPurpose, now: Date): Promise<void> {
      await db
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
    },

    /**
     * Atomically claims an unused, unexpired token by hash: exactly one caller wins a race.
     * Returns the claimed row, or undefined.
     */
    async claimToken(purpose: TokenPurpose, tokenHash: string, now: Date): Promise<OneTimeTokenRow | undefined> {
      const [row] = await db
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(oneTimeTokens.purpose, purpose),
            eq(oneTimeTokens.tokenHash, tokenHash),
            isNull(oneTimeTokens.usedAt),
            gt(oneTimeTokens.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },

    async findLiveToken(purpose: TokenPurpose, tokenHash: string, now: Date): Promise<OneTimeTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.purpose, purpose),
            eq(oneTimeTokens.tokenHash, tokenHash),
            isNull(oneTimeTokens.usedAt),
            gt(oneTimeTokens.expiresAt, now),
          ),
        )
        .limit(1);
      return row;
    },

    /** The newest live code of a purpose for a user (codes are short, so looked up per user). */
    async latestLiveToken(userId: string, purpose: TokenPurpose, now: Date): Promise<OneTimeTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.userId, userId),
            eq(oneTimeTokens.purpose, purpose),
            isNull(oneTimeTokens.usedAt),
            gt(oneTimeTokens.expiresAt, now),
          ),
        )
        .orderBy(desc(oneTimeTokens.createdAt))
        .limit(1);
      return row;
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

    async markTokenUsed(tokenId: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.id, tokenId), isNull(oneTimeTokens.usedAt)))
        .returning({ id: oneTimeTokens.id });
      return rows.length > 0;
    },
  };
}

export type AuthQueries = ReturnType<typeof authQueries>;
