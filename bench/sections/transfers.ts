import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../../packages/server/src/db/client';
import type { BenchContext } from '../lib/context';
import type { BenchSection, Row } from '../lib/types';

/**
 * Wallet transfers on PostgreSQL: BENCH_TRANSFERS transfers (4,000 by default) between
 * random accounts of BENCH_TRANSFER_ACCOUNTS (1,000) by 32 concurrent clients, each one the
 * wallet's whole transfer (the recipient looked up, one transaction with the entry and its
 * idempotency key, the daily allowance upsert, the two balances and postings, then the answer
 * read back), against the same number of plain single-row `UPDATE ... SET balance = balance + 1`
 * on random accounts by 32 clients, in the same run, over one pool of 32 connections.
 */
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 4_000);
const ACCOUNTS = Number(process.env.BENCH_TRANSFER_ACCOUNTS ?? 1_000);
const CLIENTS = 32;

/** Runs `count` operations with `CLIENTS` at once; the rate and the 99th percentile of their latencies. */
async function drive(count: number, operation: (index: number) => Promise<unknown>): Promise<{ perSecond: number; p99: number; failed: number }> {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let index = next++; index < count; index = next++) {
        const t0 = performance.now();
        try {
          await operation(index);
        } catch {
          failed += 1;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: count / seconds, p99: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0, failed };
}

export const transfers: BenchSection = {
  name: 'transfers',
  title: 'Wallet transfers on PostgreSQL',
  async run(context: BenchContext): Promise<Row[]> {
    const url = await context.postgresDatabase();
    if (!url) return [{ metric: 'transfers per second', value: 'n/a', status: 'INFO', note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)' }];
    const { openDatabase } = await import('../../packages/server/src/db/client');
    const { migrate } = await import('../../packages/server/src/db/migrate');
    const schema = await import('../../packages/server/src/db/schema');
    const { createWalletService } = await import('../../packages/server/src/modules/wallet');
    const migrating = await openDatabase({ url });
    await migrate(migrating);
    await migrating.close();

    const pool = new pg.Pool({ connectionString: url, max: CLIENTS });
    pool.on('error', () => undefined);
    try {
      const db = drizzle(pool, { schema }) as unknown as Database;
      // The people, each with $1,000,000.00 put in by one adjustment entry (as `npm run wallet -- adjust` does).
      await db.execute(sql`insert into users (id, email, full_name, activated_at)
        select gen_random_uuid(), 'transfer-' || n || '@bench.test', 'Bench ' || n, now() from generate_series(1, ${ACCOUNTS}) n`);
      const people = (await db.execute(sql`select id, email from users where email like 'transfer-%@bench.test' order by email`)) as unknown as { rows: { id: string; email: string }[] };
      const huge = { USD: 1_000_000_000, VND: 1, WHC: 1 };
      const wallet = createWalletService({ db, clock: { now: () => new Date() }, config: { WALLET_LIMIT_PER_TRANSFER: huge, WALLET_LIMIT_PER_DAY: huge }, requireSecondFactor: async () => {} });
      for (const person of people.rows) await wallet.adjust(person.id, 'USD', 100_000_000, 'bench opening balance');
      await db.execute(sql`analyze`);
      const accounts = (await db.execute(sql`select id from wallet_accounts where user_id is not null`)) as unknown as { rows: { id: string }[] };
      const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

      const plain = await drive(TRANSFERS, () => db.execute(sql`update wallet_accounts set balance = balance + 1 where id = ${pick(accounts.rows).id}`));
      const moved = await drive(TRANSFERS, async () => {
        const from = pick(people.rows);
        let to = pick(people.rows);
        while (to === from) to = pick(people.rows);
        await wallet.transfer(from.id, 'USD', { to: to.email, amount: `${1 + Math.floor(Math.random() * 100)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`, idempotency_key: randomUUID() });
      });
      const entries = (await db.execute(sql`select count(*)::int as n from wallet_entries where kind = 'transfer'`)) as unknown as { rows: { n: number }[] };
      const unbalanced = (await db.execute(sql`select count(*)::int as n from (select entry_id from wallet_postings group by entry_id having sum(amount) <> 0) x`)) as unknown as { rows: { n: number }[] };
      const ok = moved.failed === 0 && entries.rows[0]!.n === TRANSFERS && unbalanced.rows[0]!.n === 0;
      return [
        { metric: `accounts, transfers (${CLIENTS} clients, pool of ${CLIENTS})`, value: `${ACCOUNTS}, ${TRANSFERS}`, status: 'INFO' },
        { metric: 'plain single-row UPDATEs per second', value: plain.perSecond.toFixed(0), status: 'INFO', note: `p99 ${plain.p99.toFixed(1)} ms` },
        {
          metric: 'transfers per second',
          value: moved.perSecond.toFixed(0),
          status: ok ? 'INFO' : 'FAIL',
          note: `p99 ${moved.p99.toFixed(1)} ms; ${entries.rows[0]!.n} entries, ${moved.failed} failed, ${unbalanced.rows[0]!.n} unbalanced`,
        },
        { metric: 'transfers / plain updates', value: `${((moved.perSecond / plain.perSecond) * 100).toFixed(1)} %`, status: 'INFO', note: 'a transfer is about a dozen statements in one transaction' },
      ];
    } finally {
      await pool.end();
    }
  },
};
