import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys, avatars, notifications, oneTimeTokens, passkeys, recoveryCodes, sessions, users, webauthnChallenges } from '../../db/schema';

/** The address a purged account keeps: unique, and undeliverable by definition (RFC 6761 `.invalid`). */
export const purgedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;
export const PURGED_NAME = 'Deleted user';

/**
 * Queries of the deletion purge. It spans every table that holds personal data; the account
 * module owns deletion, so the purge lives here.
 */
export function purgeQueries(db: Database) {
  return {
    /**
     * Purges one account that is past its deletion date, in one transaction: the row is claimed
     * with `for update skip locked`, so concurrent runs (several nodes) each take a different
     * account and never the same one twice; a crash rolls the account back whole, to be taken
     * again by the next run. Returns the purged id, or null when none is due.
     */
    async purgeOne(now: Date): Promise<string | null> {
      return db.transaction(async (tx) => {
        const [due] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(isNull(users.purgedAt), isNotNull(users.deletionDueAt), lte(users.deletionDueAt, now)))
          .orderBy(asc(users.deletionDueAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!due) return null;
        const id = due.id;
        await tx.delete(sessions).where(eq(sessions.userId, id));
        await tx.delete(passkeys).where(eq(passkeys.userId, id));
        await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, id));
        await tx.delete(apiKeys).where(eq(apiKeys.userId, id));
        await tx.delete(notifications).where(eq(notifications.userId, id));
        await tx.delete(avatars).where(eq(avatars.userId, id));
        await tx.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, id));
        await tx
          .update(users)
          .set({
            email: purgedEmail(id),
            username: null,
            fullName: PURGED_NAME,
            passwordHash: null,
            passwordChangedAt: null,
            phone: null,
            company: null,
            organization: null,
            address: null,
            country: null,
            avatarVersion: 0,
            recoveryEmail: null,
            recoveryEmailVerifiedAt: null,
            educationEmail: null,
            educationEmailVerifiedAt: null,
            marketingEmails: false,
            usageData: false,
            twoFactorMethod: null,
            totpSecret: null,
            totpLastStep: null,
            purgedAt: now,
            updatedAt: now,
          })
          .where(and(eq(users.id, id), isNull(users.purgedAt)));
        return id;
      });
    },
  };
}
