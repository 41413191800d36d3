import { and, count, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { passkeys, socialIdentities, socialSignups, users } from '../../db/schema';
import { isUniqueViolation } from '../../db/errors';

export type SocialIdentityRow = typeof socialIdentities.$inferSelect;
export type SocialSignupRow = typeof socialSignups.$inferSelect;


export function federationQueries(db: Database) {
  return {
    async findIdentity(provider: string, subject: string): Promise<SocialIdentityRow | undefined> {
      const [row] = await db.select().from(socialIdentities).where(and(eq(socialIdentities.provider, provider), eq(socialIdentities.subject, subject))).limit(1);
      return row;
    },

    async identitiesOf(userId: string): Promise<SocialIdentityRow[]> {
      return db.select().from(socialIdentities).where(eq(socialIdentities.userId, userId)).orderBy(socialIdentities.linkedAt);
    },

    /** Links an identity; false when it is linked already (to anyone) or the account has this provider linked. */
    async link(row: typeof socialIdentities.$inferInsert): Promise<boolean> {
      try {
        const inserted = await db.insert(socialIdentities).values(row).onConflictDoNothing().returning({ subject: socialIdentities.subject });
        return inserted.length > 0;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async touch(provider: string, subject: string, now: Date): Promise<void> {
      await db.update(socialIdentities).set({ lastUsedAt: now }).where(and(eq(socialIdentities.provider, provider), eq(socialIdentities.subject, subject)));
    },

    /**
     * Unlinks a provider only while the account keeps another way in: a password, a passkey or
     * another linked identity, checked in the same statement as the delete, so two unlinks at
     * once cannot both pass a check that each alone would.
     */
    async unlinkKeepingAWayIn(userId: string, provider: string): Promise<'unlinked' | 'not_linked' | 'last_method'> {
      return db.transaction(async (tx) => {
        // Locks the account row: this account's unlinks (and a password set meanwhile) wait in turn.
        // The ways in are read here, in the one transaction, rather than asked of their modules.
        const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).for('update');
        const [keys] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
        const [others] = await tx.select({ n: count() }).from(socialIdentities).where(and(eq(socialIdentities.userId, userId), ne(socialIdentities.provider, provider)));
        const mine = await tx.select({ subject: socialIdentities.subject }).from(socialIdentities).where(and(eq(socialIdentities.userId, userId), eq(socialIdentities.provider, provider)));
        if (mine.length === 0) return 'not_linked';
        if (!user?.passwordHash && !keys?.n && !others?.n) return 'last_method';
        await tx.delete(socialIdentities).where(and(eq(socialIdentities.userId, userId), eq(socialIdentities.provider, provider)));
        return 'unlinked';
      });
    },

    async insertSignup(row: typeof socialSignups.$inferInsert): Promise<void> {
      await db.insert(socialSignups).values(row);
    },

    async liveSignup(tokenHash: string, now: Date): Promise<SocialSignupRow | undefined> {
      const [row] = await db
        .select()
        .from(socialSignups)
        .where(and(eq(socialSignups.tokenHash, tokenHash), isNull(socialSignups.usedAt), gt(socialSignups.expiresAt, now)))
        .limit(1);
      return row;
    },

    /** The email and name given on /create-user, with a new code (its guesses start again). */
    async awaitCode(id: string, values: { email: string; chosenName: string; language: string; codeHash: string }): Promise<void> {
      await db.update(socialSignups).set({ ...values, attempts: 0 }).where(eq(socialSignups.id, id));
    },

    /** Takes one guess at the code in one statement; undefined when none is left (or the sign-up is over). */
    async takeGuess(tokenHash: string, now: Date, maxAttempts: number): Promise<SocialSignupRow | undefined> {
      const [row] = await db
        .update(socialSignups)
        .set({ attempts: sql`${socialSignups.attempts} + 1` })
        .where(and(eq(socialSignups.tokenHash, tokenHash), isNull(socialSignups.usedAt), gt(socialSignups.expiresAt, now), lt(socialSignups.attempts, maxAttempts)))
        .returning();
      return row;
    },

    /** Uses the sign-up up: exactly one caller of a race gets true. */
    async finishSignup(id: string, now: Date): Promise<boolean> {
      const rows = await db.update(socialSignups).set({ usedAt: now }).where(and(eq(socialSignups.id, id), isNull(socialSignups.usedAt))).returning({ id: socialSignups.id });
      return rows.length > 0;
    },

    async sweepSignups(now: Date): Promise<void> {
      await db.delete(socialSignups).where(lt(socialSignups.expiresAt, now));
    },
  };
}

export type FederationQueries = ReturnType<typeof federationQueries>;
