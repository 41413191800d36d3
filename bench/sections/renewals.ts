import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createBillingService } from '../../packages/server/src/modules/billing';
import { createOrganizationService } from '../../packages/server/src/modules/organizations';
import { systemClock } from '../../packages/server/src/platform/clock';
import { createSandboxProcessor } from '../../packages/server/src/platform/payments';
import type { DatabaseHandle } from '../../packages/server/src/db/client';
import type { BenchContext } from '../lib/context';
import type { BenchSection, Row } from '../lib/types';

/**
 * The renewal job's throughput on PostgreSQL: subscriptions renewed per second with
 * BENCH_RENEWALS due (100,000 by default), each one claimed, charged through the sandbox
 * processor with its idempotency key, recorded as an order and moved to its next period
 * (receipt mails off: their PDFs are mail work, measured apart), against a
 * plain batched UPDATE that moves the same rows the same way, in the same run. The job runs
 * for BENCH_RENEWAL_SECONDS (30 by default) or until nothing is due, whichever comes first:
 * at about a hundred renewals a second on these machines, all 100,000 would take a quarter
 * of an hour, and the rate with 100,000 due is what is asked.
 */
const COUNT = Number(process.env.BENCH_RENEWALS ?? 100_000);
const JOB_SECONDS = Number(process.env.BENCH_RENEWAL_SECONDS ?? 30);
let errorsSeen = 0;

type RenewalCounts = Awaited<ReturnType<ReturnType<typeof createBillingService>['runRenewals']>>;

/** One node's job, batch after batch, until the deadline or nothing is due. */
async function renewUntil(run: () => Promise<RenewalCounts>, deadline: number): Promise<RenewalCounts> {
  const total: RenewalCounts = { renewed: 0, canceled: 0, past_due: 0, pending: 0, lost: 0, failed: 0 };
  while (performance.now() < deadline) {
    const counts = await run();
    for (const key of Object.keys(total) as (keyof RenewalCounts)[]) total[key] += counts[key];
    if (Object.values(counts).every((n) => n === 0)) break;
  }
  return total;
}
const BATCH = 100;

async function seed(database: DatabaseHandle, count: number): Promise<void> {
  const { db } = database;
  await db.execute(sql`
    insert into users (id, email, full_name, activated_at)
    select gen_random_uuid(), 'renew-' || n || '@bench.test', 'Bench ' || n, now() from generate_series(1, ${count}) n`);
  await db.execute(sql`
    insert into sandbox_cards (token, brand, last4, exp_month, exp_year, behavior)
    select 'tok_bench_' || u.id, 'visa', '4242', 12, 2040, 'success' from users u where u.email like 'renew-%@bench.test'`);
  await db.execute(sql`
    insert into payment_methods (id, user_id, processor, processor_ref, brand, last4, exp_month, exp_year, cardholder, city, state, zip, is_default)
    select gen_random_uuid(), u.id, 'sandbox', 'tok_bench_' || u.id, 'visa', '4242', 12, 2040, 'Bench', 'Hanoi', 'HN', '100000', true
    from users u where u.email like 'renew-%@bench.test'`);
  await db.execute(sql`
    insert into subscriptions (id, user_id, product, plan, months, seats, currency, price, status, payment_method_id, current_period_start, current_period_end, next_attempt_at)
    select gen_random_uuid(), p.user_id, 'pwdmanager', 'pwdmanager.premium', 1, 1, 'USD', 199, 'active', p.id, now() - interval '1 month', now() - interval '1 minute', now() - interval '1 minute'
    from payment_methods p where p.processor_ref like 'tok_bench_%'`);
  // Fresh statistics, as autovacuum would have by now: without them every batch scans the table.
  await db.execute(sql`analyze subscriptions`);
}

/** The baseline: the same rows moved to their next period by plain batched UPDATEs. */
async function plainUpdate(database: DatabaseHandle): Promise<number> {
  let moved = 0;
  for (;;) {
    const result = await database.db.execute(sql`
      with due as (select id from subscriptions where status = 'active' and next_attempt_at <= now() order by next_attempt_at limit ${BATCH} for update skip locked)
      update subscriptions set current_period_start = current_period_end, current_period_end = current_period_end + interval '1 month',
        next_attempt_at = current_period_end + interval '1 month', updated_at = now()
      where id in (select id from due)`);
    const count = (result as unknown as { rowCount?: number }).rowCount ?? 0;
    moved += count;
    if (count === 0) return moved;
  }
}

export const renewals: BenchSection = {
  name: 'renewals',
  title: 'Renewal job on PostgreSQL',
  async run(context: BenchContext): Promise<Row[]> {
    const running = await context.realAppOnPostgres();
    if (!running?.database) return [{ metric: 'renewals per second', value: 'n/a', status: 'INFO', note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)' }];
    const database = running.database;
    const { loadConfig } = await import('../../packages/server/src/config');
    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' });
    const billing = createBillingService({
      config,
      db: database.db,
      clock: systemClock,
      mailer: { mode: 'outbox', send: async () => {}, settled: async () => {}, close: async () => {} },
      log: { info: () => {}, error: (fields: unknown, message: string) => void (errorsSeen++ < 3 && console.error(message, fields)) },
      processor: createSandboxProcessor(database.db, systemClock),
      organizations: createOrganizationService({ db: database.db, clock: systemClock }),
      licenseSecret: 'bench-license-secret-0123456789',
      // The job alone: a receipt's PDF (about 0.35 s of CPU each on these machines) is mail work, not renewal work.
      receipts: false,
    });

    await seed(database, COUNT);
    let started = performance.now();
    const baseline = await plainUpdate(database);
    const baselineSeconds = (performance.now() - started) / 1000;
    // Due again, for the job.
    await database.db.execute(sql`update subscriptions set current_period_end = now() - interval '1 minute', next_attempt_at = now() - interval '1 minute'`);

    started = performance.now();
    // Two runs at once, as two nodes would.
    const deadline = started + JOB_SECONDS * 1000;
    const oneBatch = () => billing.runRenewals({ batchSize: BATCH, maxBatches: 1, concurrency: 8 });
    const [a, b] = await Promise.all([renewUntil(oneBatch, deadline), renewUntil(oneBatch, deadline)]);
    const jobSeconds = (performance.now() - started) / 1000;
    const renewed = a.renewed + b.renewed;
    const others = (['canceled', 'past_due', 'pending', 'lost', 'failed'] as const).map((key) => `${key} ${a[key] + b[key]}`).join(', ');
    const tally = await database.db.execute(sql`
      select count(*)::int as charges, count(distinct token)::int as cards, (select count(*)::int from subscriptions where current_period_end > now()) as moved
      from sandbox_charges`);
    const { charges, cards, moved } = (tally as unknown as { rows: { charges: number; cards: number; moved: number }[] }).rows[0]!;
    const jobRate = renewed / jobSeconds;
    const baseRate = baseline / baselineSeconds;
    return [
      { metric: 'subscriptions due', value: String(COUNT), status: 'INFO' },
      {
        metric: `renewed by the job (2 runs at once, ${JOB_SECONDS} s at most)`,
        value: `${renewed} in ${jobSeconds.toFixed(1)} s`,
        target: 'one charge per renewal, none twice',
        status: renewed > 0 && charges === renewed && cards === renewed && moved === renewed ? 'PASS' : 'FAIL',
        note: `charges made: ${charges}, cards charged: ${cards}, subscriptions moved on: ${moved}; ${others}`,
      },
      { metric: 'job renewals per second', value: jobRate.toFixed(0), status: 'INFO' },
      { metric: 'plain batched UPDATE rows per second', value: baseRate.toFixed(0), status: 'INFO' },
      { metric: 'job / plain UPDATE', value: `${((jobRate / baseRate) * 100).toFixed(2)} %`, status: 'INFO', note: 'per renewal the job claims, charges (idempotency key), records an order and moves the period: 8 statements, against one UPDATE per 100 rows' },
    ];
  },
};
