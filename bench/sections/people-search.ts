import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { PeopleSearchField } from '../../packages/contracts/src';
import type { DatabaseHandle } from '../../packages/server/src/db/client';
import { systemClock } from '../../packages/server/src/platform/clock';
import { createPeopleService } from '../../packages/server/src/modules/users';
import type { BenchContext } from '../lib/context';
import type { BenchSection, Row } from '../lib/types';

/**
 * The operators' people search over BENCH_PEOPLE accounts (100,000 by default), on PGlite and
 * on PostgreSQL: p95 of one page (20 people) for short and long prefixes of the email, the
 * name and the username, an exact id, and a second page by its cursor. The budget is 50 ms.
 * Accounts are seeded by one INSERT ... SELECT generate_series; names share a few family
 * names (as Vietnamese names do), so a short name prefix matches tens of thousands.
 */
const COUNT = Number(process.env.BENCH_PEOPLE ?? 100_000);
const SAMPLES = Number(process.env.BENCH_PEOPLE_SAMPLES ?? 200);
const BUDGET_MS = 50;

async function seed(database: DatabaseHandle): Promise<string> {
  await database.db.execute(sql`
    insert into users (id, email, username, full_name, activated_at)
    select gen_random_uuid(), 'person-' || n || '@bench' || (n % 50) || '.test', 'user' || n,
      (array['Nguyễn','Trần','Lê','Phạm','Hoàng','Huỳnh','Phan','Vũ','Võ','Đặng'])[1 + n % 10] || ' Văn ' || n, now()
    from generate_series(1, ${COUNT}) n`);
  await database.db.execute(sql`analyze users`);
  const rows = (await database.db.execute(sql`select id from users where username = 'user4242'`)) as unknown as { rows: Array<{ id: string }> };
  return rows.rows[0]!.id;
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

async function measure(database: DatabaseHandle, label: string): Promise<Row[]> {
  const people = createPeopleService({ db: database.db, clock: systemClock } as Parameters<typeof createPeopleService>[0]);
  const id = await seed(database);
  const secondPage = (await people.search({ q: 'person-1', by: 'email', limit: 20 })).next_cursor ?? undefined;
  const cases: Array<[string, { q: string; by?: PeopleSearchField; cursor?: string }]> = [
    ['email, 1 letter', { q: 'p' }],
    ['email, "person-12"', { q: 'person-12' }],
    ['email, whole address', { q: 'person-54321@bench21.test' }],
    ['email, second page', { q: 'person-1', cursor: secondPage }],
    ['name, "nguy" (1 in 10 match)', { q: 'nguy', by: 'name' }],
    ['name, "trần văn 4"', { q: 'trần văn 4', by: 'name' }],
    ['username, "user9"', { q: 'user9', by: 'username' }],
    ['nothing matches', { q: 'zzzz', by: 'name' }],
    ['id', { q: id }],
  ];
  const rows: Row[] = [];
  for (const [name, input] of cases) {
    for (let warm = 0; warm < 10; warm++) await people.search({ ...input, limit: 20 });
    const samples: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) {
      const started = performance.now();
      const page = await people.search({ ...input, limit: 20 });
      samples.push(performance.now() - started);
      if (page.people.length === 0 && name !== 'nothing matches') throw new Error(`people-search: nothing found for ${name}`);
    }
    const value = p95(samples);
    rows.push({ metric: `${label}: ${name}, p95`, value: `${value.toFixed(2)} ms`, target: `< ${BUDGET_MS} ms`, status: value < BUDGET_MS ? 'PASS' : 'FAIL' });
  }
  return rows;
}

export const peopleSearch: BenchSection = {
  name: 'people-search',
  title: `Operators' people search over ${COUNT.toLocaleString('en')} accounts`,
  async run(context: BenchContext): Promise<Row[]> {
    const rows: Row[] = [{ metric: 'accounts', value: String(COUNT), status: 'INFO', note: 'prefix range scans on the 0029 indexes ("C" order), one page of 20' }];
    const embedded = await context.realApp();
    rows.push(...(await measure(embedded.database!, 'PGlite')));
    const postgres = await context.realAppOnPostgres();
    if (postgres?.database) rows.push(...(await measure(postgres.database, 'PostgreSQL')));
    else rows.push({ metric: 'PostgreSQL', value: 'n/a', status: 'INFO', note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)' });
    return rows;
  },
};
