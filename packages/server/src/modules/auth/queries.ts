import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oneTimeTokenQueries } from '../../platform/one-time-tokens/queries';
import { passkeys, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type { OneTimeTokenRow } from '../../platform/one-time-tokens/queries';
export type TokenPurpose = 'activation' | 'reset_code' | 'reset_link';

export function authQueries(db: Database) {
  // Prepared once: every sign-in looks its account up by one of these.
  const byEmail = db.select().from(users).where(eq(users.email, sql.placeholder('value'))).limit(1).prepare('user_by_email');
  const byUsername = db.select().from(users).where(eq(sql`lower(${users.username})`, sql.placeholder('value'))).limit(1).prepare('user_by_username');
  return {
    ...oneTimeTokenQueries<TokenPurpose>(db),
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row;
    },

    /** By email, or by username (case-insensitive) when the identifier has no '@'. */
    async findUserByIdentifier(identifier: string): Promise<UserRow | undefined> {
      const value = identifier.trim().toLowerCase();
      const [row] = await (value.includes('@') ? byEmail : byUsername).execute({ value });
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

    /**
     * Sets the credentials of a never-activated account, no effect once it is active: a
     * password (or none), a name when given, and its passkeys dropped unless kept. Nobody has
     * proved the mailbox of such an account yet, so whoever does decides what it holds.
     */
    async setPendingCredentials(id: string, credentials: { passwordHash: string | null; fullName?: string; keepPasskeys: boolean }, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        const { passwordHash, fullName } = credentials;
        const [pending] = await tx
          .update(users)
          .set({ passwordHash, ...(fullName === undefined ? {} : { fullName }), updatedAt: now })
          .where(and(eq(users.id, id), isNull(users.activatedAt)))
          .returning({ id: users.id });
        if (pending && !credentials.keepPasskeys) await tx.delete(passkeys).where(eq(passkeys.userId, id));
      });
    },

    async hasPasskeys(userId: string): Promise<boolean> {
      return (await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1)).length > 0;
    },

    async setPasswordHash(id: string, passwordHash: string, now: Date, changed: boolean): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: now, ...(changed ? { passwordChangedAt: now } : {}) })
        .where(eq(users.id, id));
    },
  };
}

export type AuthQueries = ReturnType<typeof authQueries>;
