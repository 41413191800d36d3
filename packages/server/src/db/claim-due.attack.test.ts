import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../test/db-target';
import { claimDueRows } from './claim-due';

/**
 * Several nodes claiming one leased queue at the same moment (on PostgreSQL, each claim on a
 * connection of its own): no row is ever taken by two claims, whatever the interleaving, and
 * a row held by a live lease is not taken again until it lapses.
 */
const queue = pgTable('claim_due_attack_queue', {
  id: integer('id').primaryKey(),
  status: text('status').notNull(),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  claimId: text('claim_id'),
});
const ROWS = 300;
const database = fileDatabase();

beforeAll(async () => {
  await database.db.execute(sql`
    create table claim_due_attack_queue (id integer primary key, status text not null, next_attempt_at timestamptz not null, claimed_until timestamptz, claim_id text)`);
});

async function fillQueue(due: Date) {
  await database.db.execute(sql`delete from claim_due_attack_queue`);
  // Not analyzed: each claim scans the whole table, the widest window for two claims to meet.
  await database.db.execute(sql`
    insert into claim_due_attack_queue (id, status, next_attempt_at)
    select n, case when n % 10 = 0 then 'done' else 'pending' end, ${due.toISOString()}::timestamptz - (n || ' milliseconds')::interval from generate_series(1, ${ROWS}) n`);
}

describe('claimDueRows by several nodes at once', () => {
  it('never hands one row to two claims: 12 claimers at once, repeatedly, take each pending row exactly once', { timeout: 120_000 }, async () => {
    const now = new Date();
    await fillQueue(now);
    const until = new Date(now.getTime() + 60_000);
    const takenBy = new Map<number, string>();
    for (let round = 0; round < 40 && takenBy.size < ROWS * 0.9; round++) {
      const claims = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const claimId = randomUUID();
          const rows = await claimDueRows(database.db, queue, queue.id, { now, until, claimId, limit: 7, where: sql`${queue.status} = 'pending'` });
          return { claimId, rows };
        }),
      );
      for (const { claimId, rows } of claims) {
        for (const row of rows) {
          expect(takenBy.get(row.id), `row ${row.id} taken twice`).toBeUndefined();
          expect(row).toMatchObject({ status: 'pending', claimId });
          takenBy.set(row.id, claimId);
        }
      }
    }
    expect(takenBy.size).toBe(ROWS * 0.9);
    const held = await database.db.execute(sql`select count(*)::int as n from claim_due_attack_queue where claim_id is not null`);
    expect((held.rows[0] as { n: number }).n).toBe(ROWS * 0.9);
  });

  it('a live lease holds; a lapsed one is claimed again, once', async () => {
    const now = new Date();
    await fillQueue(now);
    const until = new Date(now.getTime() + 60_000);
    const first = await claimDueRows(database.db, queue, queue.id, { now, until, claimId: 'first', limit: 5 });
    expect(first).toHaveLength(5);
    const before = await claimDueRows(database.db, queue, queue.id, { now: new Date(until.getTime() - 1), until: new Date(until.getTime() + 60_000), claimId: 'early', limit: 5 });
    expect(before.map((row) => row.id).filter((id) => first.some((row) => row.id === id))).toEqual([]);

    const later = new Date(until.getTime() + 1);
    const again = await Promise.all(['a', 'b', 'c'].map((claimId) => claimDueRows(database.db, queue, queue.id, { now: later, until: new Date(later.getTime() + 60_000), claimId, limit: ROWS })));
    const retaken = again.flat().map((row) => row.id);
    expect(new Set(retaken).size).toBe(retaken.length);
    for (const row of first) expect(retaken).toContain(row.id);
  });
});
