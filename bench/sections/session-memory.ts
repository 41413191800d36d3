import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { clientHeaders, seedAccounts, signIn } from '../lib/accounts';
import type { BenchContext } from '../lib/context';
import { load, perSecond } from '../lib/load';
import type { BenchSection, Row } from '../lib/types';

/** RSS growth allowed for 100,000 live sessions. */
export const SESSION_MEMORY_TARGET_MB = 50;
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
/** The people those sessions belong to: two sessions each (a phone and a laptop) by default. */
const PEOPLE = Math.max(1, Math.min(SESSIONS, Number(process.env.BENCH_SESSION_PEOPLE ?? Math.ceil(SESSIONS / 2))));
const BATCH = 2000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

function settled(): { rss: number; heap: number } {
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

/**
 * 100,000 live sessions of 50,000 people (BENCH_SESSIONS, BENCH_SESSION_PEOPLE): rows written
 * straight into the real app's database (the same columns a sign-up and a sign-in write), then each token used once on GET /v3/sso/me so the server
 * holds it as it would an active user's. Prints the process's RSS and heap growth and the
 * /v3/sso/me rate before and after. On PostgreSQL when one answers (the rows then live in
 * PostgreSQL, as deployed), else on embedded PGlite (whose storage is in this process's RSS).
 */
export const sessionMemory: BenchSection = {
  name: 'memory',
  title: `memory for ${SESSIONS.toLocaleString('en-US')} live sessions`,
  async run(context: BenchContext): Promise<Row[]> {
    const real = (await context.realAppOnPostgres()) ?? (await context.realApp());
    const database = real.database!;
    const [account] = await seedAccounts(real, 'mem', 1);
    const token = await signIn(real, account!);
    const { 'content-type': _json, ...client } = clientHeaders(account!);
    const meRate = async () => (await load({ connections: 10, seconds: 3, warmupSeconds: 1, url: `${real.url}/v3/sso/me`, headers: { ...client, authorization: `Bearer ${token}` } })).rps;

    const rateBefore = await meRate();
    const before = settled();
    // The people: copies of the seeded account's row (its password hash included), inserted by the database.
    const seeded = ((await database.db.execute(sql`select user_id from sessions limit 1`)).rows[0] as { user_id: string }).user_id;
    const run = randomBytes(4).toString('hex');
    const userIds = (
      await database.db.execute(sql`
        insert into users (id, email, full_name, password_hash, activated_at, created_at, updated_at)
        select gen_random_uuid(), 'mem-' || ${run} || '-' || n || '@example.com', 'Memory Bench ' || n, password_hash, now(), now(), now()
        from users, generate_series(1, ${PEOPLE}) as n where users.id = ${seeded}
        returning id`)
    ).rows.map((row) => (row as { id: string }).id);
    const tokens: string[] = [];
    const now = new Date();
    const expires = new Date(now.getTime() + 30 * 86400_000);
    for (let start = 0; start < SESSIONS; start += BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(SESSIONS, start + BATCH); i++) {
        const value = randomBytes(32).toString('base64url');
        tokens.push(value);
        rows.push(sql`(${randomUUID()}, ${userIds[i % userIds.length]}, ${createHash('sha256').update(value).digest('hex')}, 'bench', 'Chrome', 'Linux', '127.0.0.1', ${now.toISOString()}, ${now.toISOString()}, ${expires.toISOString()})`);
      }
      await database.db.execute(sql`insert into sessions (id, user_id, token_hash, browser, device, ip, location, created_at, last_active_at, expires_at) values ${sql.join(rows, sql`, `)}`);
    }
    // Each session used once, 50 at a time, so the server holds it as live.
    let next = 0;
    let refused = 0;
    const worker = async () => {
      for (let index = next++; index < tokens.length; index = next++) {
        const response = await fetch(`${real.url}/v3/sso/me`, { headers: { ...client, authorization: `Bearer ${tokens[index]}` } });
        if (response.status !== 200) refused += 1;
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const after = settled();
    const rateAfter = await meRate();
    const growth = after.rss - before.rss;
    return [
      { metric: 'sessions used', value: `${(tokens.length - refused).toLocaleString('en-US')} of ${tokens.length.toLocaleString('en-US')}`, status: refused ? 'FAIL' : 'INFO', note: `${real.database?.kind ?? ''}; ${userIds.length.toLocaleString('en-US')} people` },
      { metric: 'RSS growth', value: mb(growth), target: `≤ ${SESSION_MEMORY_TARGET_MB} MB`, status: growth <= SESSION_MEMORY_TARGET_MB * 1024 * 1024 ? 'PASS' : 'FAIL', note: `${mb(before.rss)} -> ${mb(after.rss)}; heap ${mb(before.heap)} -> ${mb(after.heap)}` },
      { metric: 'GET /v3/sso/me before / after', value: `${perSecond(rateBefore)} / ${perSecond(rateAfter)}`, status: 'INFO' },
    ];
  },
};
