import { and, asc, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client';

/** A table worked as a queue: each row is due at `next_attempt_at` and held by a lease (`claimed_until`, `claim_id`). */
type LeasedQueue = PgTable & { nextAttemptAt: PgColumn; claimedUntil: PgColumn; claimId: PgColumn };

export interface DueClaim {
  now: Date;
  /** When this claim lapses if its holder dies before it settles the rows. */
  until: Date;
  claimId: string;
  limit: number;
  /** Which rows are work at all (a status, say); due and unheld is added to it. */
  where?: SQL | undefined;
}

/**
 * Claims up to `limit` due rows nobody holds, oldest due first, marking each with the claim id
 * until `until`, in one statement: several nodes running at once take disjoint rows. The due rows
 * are picked and locked once, in a CTE (materialized, run once) with FOR UPDATE SKIP LOCKED: the
 * usual form for such queues, since a subquery inside the UPDATE's own WHERE may be evaluated
 * again when PostgreSQL re-checks a row that a concurrent claim changed. `key` is the table's
 * primary key column.
 */
export async function claimDueRows<Table extends LeasedQueue>(db: Database, table: Table, key: PgColumn, claim: DueClaim): Promise<Table['$inferSelect'][]> {
  const { now } = claim;
  const due = db.$with('due').as(
    db
      .select({ key })
      .from(table as PgTable)
      .where(and(claim.where, lte(table.nextAttemptAt, now), or(isNull(table.claimedUntil), lt(table.claimedUntil, now))))
      .orderBy(asc(table.nextAttemptAt))
      .limit(claim.limit)
      .for('update', { skipLocked: true }),
  );
  const claimed = await db
    .with(due)
    .update(table as PgTable)
    .set({ claimedUntil: claim.until, claimId: claim.claimId })
    .where(inArray(key, db.select({ key: due.key }).from(due)))
    .returning();
  return claimed as Table['$inferSelect'][];
}
