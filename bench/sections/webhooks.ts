import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { clientHeaders, seedAccounts, type BenchAccount } from '../lib/accounts';
import { load, perSecond, type LoadResult } from '../lib/load';
import { startPortalProcess } from '../lib/server-process';
import type { BenchSection, Row } from '../lib/types';

/**
 * Events to products, with the server as deployed: `src/main.ts` in a process of its own
 * (bench/lib/server-process.ts), request logs at info to a file, on PostgreSQL (this process
 * queues events into the same database while the server runs, which PGlite's one process
 * cannot share), loaded by autocannon from this process. Its own delivery job (every 100 ms)
 * sends the queued events (user.created of new accounts, each with a grant to the app, queued
 * by the trigger) to a receiver in a third process, while sign-ins run against the same server.
 * Budgets: at least 200 deliveries a second, and sign-ins at 90 % or more of their rate without
 * deliveries. One setting differs from production: NODE_ENV=development, because the receiver
 * is on loopback, which production's egress rule refuses (config refuses EGRESS_ALLOW_LOOPBACK
 * there); that mode also picks the demo seed (off here), the dev outbox (no mail here), the
 * development list of first-party clients and how the web app's files are served, nothing on the
 * sign-in or delivery path.
 */
const EVENTS = Number(process.env.BENCH_WEBHOOKS ?? 3000);
const DELIVERY_TARGET = 200;
const SIGN_IN_SHARE = 0.9;
/** Events queued a second while sign-ins are measured. */
const RATE = 200;
const SECONDS = 4;
const CONNECTIONS = 2 * availableParallelism();

/** The receiver, in a process of its own (in this one it would take the app's event loop): counts distinct webhook-ids. */
const RECEIVER = `
const seen = new Set();
const server = require('node:http').createServer((request, response) => {
  if (request.method === 'GET') return response.end(String(seen.size));
  request.resume();
  request.on('end', () => { seen.add(String(request.headers['webhook-id'])); response.writeHead(200).end(); });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startReceiver() {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', () => reject(new Error('the receiver exited')));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hooks`,
    count: async () => Number(await (await fetch(base)).text()),
    close: () => void child.kill(),
  };
}

/** Waits until the receiver has `count` distinct events (or two minutes); returns when the last one arrived. */
async function drained(receiver: Awaited<ReturnType<typeof startReceiver>>, count: number): Promise<number> {
  const deadline = performance.now() + 120_000;
  while ((await receiver.count()) < count && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return performance.now();
}

export const webhooksSection: BenchSection = {
  name: 'webhooks',
  title: `Webhook delivery: ${EVENTS.toLocaleString('en')} events to a local receiver beside sign-ins`,
  async run(context): Promise<Row[]> {
    const { openDatabase } = await import('../../packages/server/src/db/client');
    const { createDataProtection } = await import('../../packages/server/src/platform/data-protection');
    const databaseUrl = await context.postgresDatabase();
    if (!databaseUrl) return [{ metric: 'deliveries', value: 'n/a', status: 'INFO', note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)' }];
    const receiver = await startReceiver();
    const key = randomBytes(32).toString('hex');
    let accounts: BenchAccount[] = [];
    try {
      const server = await startPortalProcess({
        databaseUrl,
        env: { NODE_ENV: 'development', SEED_DEMO: 'false', DATA_ENCRYPTION_KEY: key, EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_DELIVERY_INTERVAL_MS: '100' },
        seed: async (database) => {
          const secret = createDataProtection(Buffer.from(key, 'hex')).seal(`whsec_${randomBytes(32).toString('base64')}`);
          await database.db.execute(sql`insert into oauth_clients (client_id, metadata) values ('bench-app', '{"client_name":"Bench App"}'::jsonb)`);
          await database.db.execute(sql`insert into webhook_endpoints (client_id, url, events, secret) values ('bench-app', ${receiver.url}, array['user.created'], ${secret})`);
          accounts = await seedAccounts({ database }, 'webhooks', 8);
        },
      });
      // This process's own connection: it queues events while the server delivers them.
      const database = await openDatabase({ url: databaseUrl }).catch(async (error: unknown) => {
        await server.stop();
        throw error;
      });
      try {
        const requests = accounts.map((account) => ({ method: 'POST' as const, path: '/v3/sso/auth', headers: clientHeaders(account), body: JSON.stringify({ email: account.email, password: account.password }) }));
        const signIns = (): Promise<LoadResult> => load({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1, requests, inWorker: false });
        const busy = loadavg()[0]!;
        // An app hears only of people with a grant to it (migration 0034): the seeded accounts have none, so nothing is queued yet.
        let queued = 0;
        const alone = await signIns();

        // Sign-ins while events are queued at RATE a second (a batch every 100 ms), as a busy portal would.
        // Each new person has allowed the bench app first (a grant, as its consent stores one), so their user.created reaches it.
        let batches = 0;
        const insert = (count: number) => {
          const batch = `bench-${++batches}-`;
          return database.db.transaction(async (tx) => {
            await tx.execute(sql`
              insert into oidc_models (model, id, payload, account_id, client_id)
              select 'Grant', ${batch} || n, '{}'::jsonb, gen_random_uuid()::text, 'bench-app' from generate_series(1, ${count}) n`);
            await tx.execute(sql`
              insert into users (id, email, full_name, activated_at)
              select account_id::uuid, 'hook-' || account_id || '@bench.test', 'Hook ' || id, now() from oidc_models
              where model = 'Grant' and id like ${`${batch}%`}`);
          });
        };
        let feeding = true;
        const feeder = (async () => {
          while (feeding) {
            const started = performance.now();
            await insert(RATE / 10);
            queued += RATE / 10;
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - started))));
          }
        })();
        const before = await receiver.count();
        const windowStart = performance.now();
        const beside = await signIns();
        const paced = ((await receiver.count()) - before) / ((performance.now() - windowStart) / 1000);
        feeding = false;
        await feeder;
        await drained(receiver, queued);

        // What one node can send: a backlog of EVENTS queued in one statement, drained flat out.
        const backlogStart = performance.now();
        await insert(EVENTS);
        queued += EVENTS;
        const end = await drained(receiver, queued);
        const delivered = (await receiver.count()) - (queued - EVENTS);
        const rate = delivered / ((end - backlogStart) / 1000);
        const share = beside.rps / alone.rps;
        return [
          {
            metric: 'deliveries',
            value: perSecond(rate, 'delivery/s'),
            target: `≥ ${DELIVERY_TARGET}/s`,
            status: delivered === EVENTS && rate >= DELIVERY_TARGET ? 'PASS' : 'FAIL',
            note: `backlog: ${delivered} of ${EVENTS} events delivered (each once by webhook-id), from the commit that queued them to the last answer; batches of 25 claimed at once, 4 in flight, the job every 100 ms`,
          },
          { metric: 'deliveries beside sign-ins', value: perSecond(paced, 'delivery/s'), status: 'INFO', note: `queued at ${RATE}/s during the sign-in window` },
          { metric: 'sign-ins alone', value: perSecond(alone.rps, 'sign-in/s'), status: 'INFO', note: `${CONNECTIONS} connections, ${SECONDS} s; the machine's load average was ${busy.toFixed(1)} on ${availableParallelism()} cores at the start` },
          { metric: `sign-ins beside ${RATE} deliveries/s`, value: perSecond(beside.rps, 'sign-in/s'), status: 'INFO', note: `non-2xx ${beside.non2xx}, errors ${beside.errors}` },
          {
            metric: '  share kept',
            value: share.toFixed(2),
            target: `≥ ${SIGN_IN_SHARE}`,
            status: share >= SIGN_IN_SHARE && beside.non2xx === 0 && beside.errors === 0 ? 'PASS' : 'FAIL',
            note: 'sign-ins per second while the queue drains, over sign-ins per second without it (same app, same accounts)',
          },
        ];
      } finally {
        await database.close();
        await server.stop();
      }
    } finally {
      receiver.close();
    }
  },
};
