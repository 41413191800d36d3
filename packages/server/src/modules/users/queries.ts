import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/client';
import { organizationMembers, passkeys, users } from '../../db/schema';
import { isUniqueViolation } from '../../db/errors';

/** A row of the users table: the one declaration every module uses. */
export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** What the profile page may change. */
export type ProfileChanges = Partial<
  Pick<NewUserRow, 'fullName' | 'username' | 'language' | 'customerLanguage' | 'phone' | 'company' | 'organization' | 'address' | 'country'>
>;

/** What an identifier typed at sign-in names: an email when it has an '@', else a username (case-insensitive). */
export function identifierLookup(identifier: string): { by: 'email' | 'username'; value: string } {
  const value = identifier.trim().toLowerCase();
  return { by: value.includes('@') ? 'email' : 'username', value };
}

/** The indexed expression an identifier's value is compared with. */
export const identifierColumn = (by: 'email' | 'username') => (by === 'email' ? sql`${users.email}` : sql`lower(${users.username})`);

export function userQueries(db: DatabaseExecutor) {
  // Prepared on first use: every sign-in looks its account up by one of these.
  let byEmail: ReturnType<typeof prepareLookup> | undefined;
  let byUsername: ReturnType<typeof prepareLookup> | undefined;
  function prepareLookup(column: 'email' | 'username') {
    return db.select().from(users).where(eq(identifierColumn(column), sql.placeholder('value'))).limit(1).prepare(`user_by_${column}`);
  }

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await (byEmail ??= prepareLookup('email')).execute({ value: email.toLowerCase() });
    return row;
  }

  return {
    findByEmail,

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** By email, or by username (case-insensitive) when the identifier has no '@'. */
    async findByIdentifier(identifier: string): Promise<UserRow | undefined> {
      const { by, value } = identifierLookup(identifier);
      if (by === 'email') return findByEmail(value);
      const [row] = await (byUsername ??= prepareLookup('username')).execute({ value });
      return row;
    },

    async usernameTaken(username: string, exceptUserId: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.username})`, username.toLowerCase()), ne(users.id, exceptUserId)))
        .limit(1);
      return rows.length > 0;
    },

    /** Inserts unless the email is taken (a concurrent sign-up); returns whether it inserted. */
    async insert(row: NewUserRow): Promise<boolean> {
      const inserted = await db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
      return inserted.length > 0;
    },

    async activate(id: string, now: Date): Promise<void> {
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

    /** A new hash; `changed` records a password change (a rehash at sign-in is not one). */
    async setPasswordHash(id: string, passwordHash: string, now: Date, changed: boolean): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: now, ...(changed ? { passwordChangedAt: now } : {}) })
        .where(eq(users.id, id));
    },

    async updateProfile(id: string, changes: ProfileChanges, now: Date): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set({ ...changes, updatedAt: now }).where(eq(users.id, id)).returning();
      return row;
    },

    async update(id: string, changes: Partial<NewUserRow>, now: Date): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set({ ...changes, updatedAt: now }).where(eq(users.id, id)).returning();
      return row;
    },

    /**
     * Sets the primary email; undefined when another account took the address meanwhile, or when
     * the address is another organization membership's. The account's membership row moves to
     * the new address in the same transaction: members are kept by email, so a row left under
     * the old address would give its role to whoever registers that address next.
     */
    async changeEmail(id: string, email: string, now: Date): Promise<UserRow | undefined> {
      return db
        .transaction(async (tx) => {
          const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, id)).for('update');
          const [row] = await tx
            .update(users)
            .set({ email, updatedAt: now })
            .where(and(eq(users.id, id), sql`not exists (select 1 from ${users} as other where other.email = ${email} and other.id <> ${id})`))
            .returning();
          if (row && before) {
            await tx
              .update(organizationMembers)
              .set({ email, userId: id })
              .where(or(eq(organizationMembers.userId, id), and(isNull(organizationMembers.userId), eq(organizationMembers.email, before.email))));
          }
          return row;
        })
        .catch((error: unknown) => {
          // The unique indexes decide: the address taken by another account meanwhile, or already a membership's.
          if (isUniqueViolation(error)) return undefined;
          throw error;
        });
    },
  };
}
