import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from './tables';
import type { UserRow } from './queries';

/** The fields the console searches by a prefix, each with the expression its index (0029) is on. */
export type PrefixField = 'email' | 'username' | 'name';
const searchKeys: Record<PrefixField, SQL> = {
  email: sql`(${users.email} collate "C")`,
  username: sql`(lower(${users.username}) collate "C")`,
  name: sql`(lower(${users.fullName}) collate "C")`,
};

/**
 * The largest code point: every string that starts with a prefix sorts, in "C" order, at or
 * after the prefix and before the prefix followed by it. A range, not LIKE: nothing typed is a
 * wildcard, and a prepared (generic) plan still scans the index.
 */
const AFTER_PREFIX = '\u{10FFFF}';

export interface SearchPosition {
  key: string;
  id: string;
}

export type PersonSearchRow = Pick<UserRow, 'id' | 'email' | 'username' | 'fullName' | 'createdAt' | 'activatedAt' | 'lockedAt' | 'deletionRequestedAt' | 'purgedAt'> & { key: string };

const summaryColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  fullName: users.fullName,
  createdAt: users.createdAt,
  activatedAt: users.activatedAt,
  lockedAt: users.lockedAt,
  deletionRequestedAt: users.deletionRequestedAt,
  purgedAt: users.purgedAt,
};

export function peopleQueries(db: Database) {
  /** Sets or clears the lock of an account that is not so already; whether it changed. */
  async function setLocked(id: string, now: Date, locked: boolean): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ lockedAt: locked ? now : null, updatedAt: now })
      .where(and(eq(users.id, id), locked ? isNull(users.lockedAt) : isNotNull(users.lockedAt)))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  return {
    /**
     * One page of the accounts whose field starts with `prefix` (already lower case), after
     * `after` in the index's order: a range scan of one index that stops after `limit` rows.
     */
    async byPrefix(field: PrefixField, prefix: string, limit: number, after?: SearchPosition): Promise<PersonSearchRow[]> {
      const key = searchKeys[field];
      const conditions: SQL[] = [sql`${key} >= (${prefix} collate "C")`, sql`${key} < (${prefix + AFTER_PREFIX} collate "C")`];
      if (field === 'username') conditions.push(isNotNull(users.username));
      if (after) conditions.push(sql`(${key}, ${users.id}) > ((${after.key} collate "C"), ${after.id}::uuid)`);
      return db
        .select({ ...summaryColumns, key: sql<string>`${key}` })
        .from(users)
        .where(and(...conditions))
        .orderBy(key, users.id)
        .limit(limit);
    },

    async byId(id: string): Promise<PersonSearchRow[]> {
      return db
        .select({ ...summaryColumns, key: sql<string>`${users.id}::text` })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
    },

    /** Locks an unlocked account; whether it did (a second lock changes nothing). */
    lock: (id: string, now: Date) => setLocked(id, now, true),
    /** Unlocks a locked account; whether it did. */
    unlock: (id: string, now: Date) => setLocked(id, now, false),
  };
}
