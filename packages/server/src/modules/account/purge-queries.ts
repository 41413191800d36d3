import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { purgedEmail, purgeGrants, purgeRelatedRows } from './purge-related';

export const PURGED_NAME = 'Deleted user';

/**
 * Queries of the deletion purge. It spans every table that holds personal data (as
 * db/personal-columns/ lists them); the account module owns deletion, so the purge lives here.
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
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(and(isNull(users.purgedAt), isNotNull(users.deletionDueAt), lte(users.deletionDueAt, now)))
          .orderBy(asc(users.deletionDueAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!due) return null;
        const id = due.id;
        await purgeRelatedRows(tx, due, now);
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
        await purgeGrants(tx, id);
        return id;
      });
    },
  };
}
