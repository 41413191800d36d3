import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { clientHeaders, seedAccounts } from '../lib/accounts';
import { freePort } from '../../e2e/support/server';
import { load, perSecond, type LoadResult } from '../lib/load';
import type { BenchSection, Row } from '../lib/types';

/**
 * Events to products: the real app (its own delivery job, every 100 ms) sends BENCH_WEBHOOKS
 * queued events (user.created of that many new accounts, each with a grant to the app, queued
 * by the trigger) to a receiver on this machine, while sign-ins run against the same app. Budgets:
 * at least 200 deliveries a second, and sign-ins at 90 % or more of their rate without
 * deliveries. The app runs in development mode here: the receiver is on loopback, which the
 * production egress rule refuses.
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
  async run(): Promise<Row[]> {
    const { buildApp } = await import('../../packages/server/src/app');
    const { loadConfig } = await import('../../packages/server/src/config');
    const { openDatabase } = await import('../../packages/server/src/db/client');
    const { migrate } = await import('../../packages/server/src/db/migrate');
    const { createDataProtection } = await import('../../packages/server/src/platform/data-protection');
    const receiver = await startReceiver();
    const database = await openDatabase({ pglite: await PGlite.create() });
    const webDist = await mkdtemp(path.join(tmpdir(), 'portal-bench-webhooks-'));
    const port = await freePort();
    const key = randomBytes(32).toString('hex');
    try {
      await migrate(database);
      const config = loadConfig({
        NODE_ENV: 'development',
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        PORT: String(port),
        PLATFORM_ORIGIN: `http://localhost:${port}`,
        ALTCHA_HMAC_KEY: randomBytes(24).toString('hex'),
        DATA_ENCRYPTION_KEY: key,
        EGRESS_ALLOW_LOOPBACK: 'true',
        WEBHOOK_DELIVERY_INTERVAL_MS: '100',
        BILLING_JOB_INTERVAL_SECONDS: '0',
      });
      const app = await buildApp({ config, database, webDist, logger: false });
      await app.listen({ port, host: '127.0.0.1' });
      try {
        const secret = createDataProtection(Buffer.from(key, 'hex')).seal(`whsec_${randomBytes(32).toString('base64')}`);
        await database.db.execute(sql`insert into oauth_clients (client_id, metadata) values ('bench-app', '{"client_name":"Bench App"}'::jsonb)`);
        await database.db.execute(sql`insert into webhook_endpoints (client_id, url, events, secret) values ('bench-app', ${receiver.url}, array['user.created'], ${secret})`);
        const accounts = await seedAccounts({ database }, 'webhooks', 8);
        const requests = accounts.map((account) => ({ method: 'POST' as const, path: '/v3/sso/auth', headers: clientHeaders(account), body: JSON.stringify({ email: account.email, password: account.password }) }));
        const signIns = (): Promise<LoadResult> => load({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1, requests });
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
          { metric: 'sign-ins alone', value: perSecond(alone.rps, 'sign-in/s'), status: 'INFO', note: `${CONNECTIONS} connections, ${SECONDS} s` },
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
        await app.close();
      }
    } finally {
      await database.close();
      await receiver.close();
      await rm(webDist, { recursive: true, force: true });
    }
  },
};
