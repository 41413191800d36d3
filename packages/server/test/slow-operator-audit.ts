import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';

/**
 * An operator's action commits with its audit row, written last (operators' `recorded`). These
 * make that row take a second to write, so a test can act while the action's change is made
 * but not committed: what a node does at that moment is what a busy database shows for longer.
 */
export async function slowOperatorAudit(database: DatabaseHandle): Promise<void> {
  await database.db.execute(sql.raw(`create function slow_operator_audit() returns trigger language plpgsql as $$ begin perform pg_sleep(1); return new; end $$`));
  await database.db.execute(sql.raw(`create trigger slow_operator_audit before insert on operator_audit_events for each row execute function slow_operator_audit()`));
}

/** Until an action is writing its audit row (on PGlite, which shows no activity, a moment). */
export async function untilOperatorAuditWriting(database: DatabaseHandle): Promise<void> {
  if (database.kind === 'pglite') return new Promise((resolve) => setTimeout(resolve, 300));
  for (;;) {
    const { rows } = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'`);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
