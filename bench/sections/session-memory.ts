import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { BenchContext } from '../lib/context';
import { load, perSecond } from '../lib/load';
import { collectGarbage, startPortalProcess, type ServerProcess } from '../lib/server-process';
import type { BenchSection, Row } from '../lib/types';

/** RSS growth allowed for 100,000 live sessions. */
export const SESSION_MEMORY_TARGET_MB = 50;
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
/** The people those sessions belong to: two sessions each (a phone and a laptop) by default. */
const PEOPLE = Math.max(1, Math.min(SESSIONS, Number(process.env.BENCH_SESSION_PEOPLE ?? Math.ceil(SESSIONS / 2))));
const BATCH = 2000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server's memory after a full garbage collection: its RSS, and the heap V8 keeps (what
 * sessions hold, whatever V8 has or has not given back to the system yet: RSS after a GC still
 * fell by up to 75 MB between two readings, as pages went back late).
 */
async function memoryAfterGc(portal: ServerProcess): Promise<{ rss: number; heap: number }> {
  const { heapUsedBytes } = await collectGarbage(portal);
  await pause(500);
  return { rss: rssOf(portal.pid), heap: heapUsedBytes };
}

/** A process's resident memory, from /proc (Linux). */
function rssOf(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/**
 * 100,000 live sessions of 50,000 people (BENCH_SESSIONS, BENCH_SESSION_PEOPLE), held by the
 * server as deployed: `src/main.ts` in a process of its own (production mode, request logs at
 * info) on a PostgreSQL database of its own. The rows are written straight into that database
 * (the columns a sign-up and a sign-in write), then each token is used once on GET /v3/sso/me,
 * so the server holds it as it would an active user's. Prints the server process's RSS growth
 * and heap growth, each read after a full GC (`memoryAfterGc`), and the /v3/sso/me rate before
 * and after. Needs PostgreSQL (the seeding writes from this process).
 */
export const sessionMemory: BenchSection = {
  name: 'memory',
  title: `memory for ${SESSIONS.toLocaleString('en-US')} live sessions`,
  async run(context: BenchContext): Promise<Row[]> {
    const databaseUrl = await context.postgresDatabase();
    if (!databaseUrl) return [{ metric: 'RSS growth', value: 'no PostgreSQL answered', target: `≤ ${SESSION_MEMORY_TARGET_MB} MB`, status: 'FAIL' }];
    // An inspector on 127.0.0.1, used only for a full GC before each reading.
    const portal = await startPortalProcess({ databaseUrl, nodeArgs: ['--inspect=127.0.0.1:0'] });
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    try {
      const client = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0 Safari/537.36', 'device-id': 'bench-memory' };
      const signIn = await fetch(`${portal.url}/v3/sso/auth`, {
        method: 'POST',
        headers: { ...client, 'content-type': 'application/json' },
        body: JSON.stringify({ email: portal.demo.email, password: portal.demo.password }),
      });
      const { token } = (await signIn.json()) as { token?: string };
      if (!token) throw new Error(`sign-in answered ${signIn.status}`);
      const meRate = async () => (await load({ connections: 10, seconds: 3, warmupSeconds: 1, url: `${portal.url}/v3/sso/me`, headers: { ...client, authorization: `Bearer ${token}` } })).rps;

      const rateBefore = await meRate();
      const before = await memoryAfterGc(portal);

      // The people: copies of the demo account's row (its password hash included), inserted by the database.
      const run = randomBytes(4).toString('hex');
      const userIds = (
        await database.query<{ id: string }>(
          `insert into users (id, email, full_name, password_hash, activated_at, created_at, updated_at)
           select gen_random_uuid(), 'mem-' || $1 || '-' || n || '@example.com', 'Memory Bench ' || n, password_hash, now(), now(), now()
           from users, generate_series(1, $2::int) as n where users.email = $3
           returning id`,
          [run, PEOPLE, portal.demo.email],
        )
      ).rows.map((row) => row.id);
      const tokens: string[] = [];
      const now = new Date().toISOString();
      const expires = new Date(Date.now() + 30 * 86400_000).toISOString();
      for (let start = 0; start < SESSIONS; start += BATCH) {
        const values: unknown[] = [];
        const rows: string[] = [];
        for (let i = start; i < Math.min(SESSIONS, start + BATCH); i++) {
          const value = randomBytes(32).toString('base64url');
          tokens.push(value);
          const at = values.length;
          values.push(randomUUID(), userIds[i % userIds.length], createHash('sha256').update(value).digest('hex'));
          rows.push(`($${at + 1}, $${at + 2}, $${at + 3}, 'bench', 'Chrome', 'Linux', '127.0.0.1', '${now}', '${now}', '${expires}')`);
        }
        await database.query(`insert into sessions (id, user_id, token_hash, browser, device, ip, location, created_at, last_active_at, expires_at) values ${rows.join(', ')}`, values);
      }
      // Each session used once, 50 at a time, so the server holds it as live.
      let next = 0;
      let refused = 0;
      const refusals = new Map<string, number>();
      const worker = async () => {
        for (let index = next++; index < tokens.length; index = next++) {
          const response = await fetch(`${portal.url}/v3/sso/me`, { headers: { ...client, authorization: `Bearer ${tokens[index]}` } });
          const body = await response.text();
          if (response.status !== 200) {
            refused += 1;
            // What a refusal said (status and error code), so a FAIL here tells its cause.
            const said = `${response.status} ${/"code":"([^"]+)"/.exec(body)?.[1] ?? ''}`.trim();
            refusals.set(said, (refusals.get(said) ?? 0) + 1);
          }
        }
      };
      await Promise.all(Array.from({ length: 50 }, worker));
      const after = await memoryAfterGc(portal);
      const rateAfter = await meRate();
      const growth = after.rss - before.rss;
      const heapGrowth = after.heap - before.heap;
      return [
        { metric: 'sessions used', value: `${(tokens.length - refused).toLocaleString('en-US')} of ${tokens.length.toLocaleString('en-US')}`, status: refused ? 'FAIL' : 'INFO', note: `PostgreSQL; ${userIds.length.toLocaleString('en-US')} people${refused ? `; refused: ${[...refusals].map(([said, count]) => `${said} ×${count}`).join(', ')}` : ''}` },
        { metric: 'server RSS growth', value: mb(growth), target: `≤ ${SESSION_MEMORY_TARGET_MB} MB`, status: growth <= SESSION_MEMORY_TARGET_MB * 1024 * 1024 ? 'PASS' : 'FAIL', note: `${mb(before.rss)} -> ${mb(after.rss)} (the server's own process, production mode; each read after a full GC)` },
        { metric: 'server heap growth, after a full GC', value: mb(heapGrowth), target: `≤ ${SESSION_MEMORY_TARGET_MB} MB`, status: heapGrowth <= SESSION_MEMORY_TARGET_MB * 1024 * 1024 ? 'PASS' : 'FAIL', note: `${mb(before.heap)} -> ${mb(after.heap)}: what the sessions keep, whenever V8 gives pages back` },
        { metric: 'GET /v3/sso/me before / after', value: `${perSecond(rateBefore)} / ${perSecond(rateAfter)}`, status: 'INFO' },
      ];
    } finally {
      await database.end();
      await portal.stop();
    }
  },
};
