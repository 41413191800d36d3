import { eq } from 'drizzle-orm';
import type { Database, DatabaseTransaction } from './client';
import { users } from './schema';

/**
 * Runs `work` in a transaction that first locks the account's row, so one account's `work`s take
 * turns on every node: a limit read and written inside (count what the account holds, then make
 * one more) holds under parallel requests, where a count and an insert as separate statements
 * let every request see room. FOR NO KEY UPDATE: statements that only refer to the row (a new
 * session's, an order's foreign key) go on meanwhile. Each statement of `work` reads what the
 * turns before committed (read committed takes a snapshot per statement, after the lock).
 */
export function inAccountsTurn<T>(db: Database, userId: string, work: (tx: DatabaseTransaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
    return work(tx);
  });
}
