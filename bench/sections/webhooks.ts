import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
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
 * queued events (user.created of that many new accounts, queued by the trigger in one
 * statement) to a receiver on this machine, while sign-ins run against the same app. Budgets:
 * at least 200 deliveries a second, and sign-ins at 90 % or more of their rate without
 * deliveries. The app runs in development mode here: the receiver is on loopback, which the
 * production egress rule refuses.
 */
const EVENTS = Number(process.env.BENCH_WEBHOOKS ?? 3000);
const DELIVERY_TARGET = 200;
const SIGN_IN_SHARE = 0.9;
const SECONDS = 4;
const CONNECTIONS = 2 * availableParallelism();

async function startReceiver() {
  const seen = new Set<string>();
  let last = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.add(String(request.headers['webhook-id']));
      last = performance.now();
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`,
    seen,
    lastAt: () => last,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
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
        // The seeded accounts' own user.created went out before the baseline.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        receiver.seen.clear();
        const alone = await signIns();

        const queuedAt = performance.now();
        await database.db.execute(sql`
          insert into users (id, email, full_name, activated_at)
          select gen_random_uuid(), 'hook-' || n || '@bench.test', 'Hook ' || n, now() from generate_series(1, ${EVENTS}) n`);
        const beside = await signIns();
        const deadline = performance.now() + 120_000;
        while (receiver.seen.size < EVENTS && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        const delivered = receiver.seen.size;
        const rate = delivered / ((receiver.lastAt() - queuedAt) / 1000);
        const share = beside.rps / alone.rps;
        return [
          {
            metric: 'deliveries',
            value: perSecond(rate, 'delivery/s'),
            target: `≥ ${DELIVERY_TARGET}/s`,
            status: delivered === EVENTS && rate >= DELIVERY_TARGET ? 'PASS' : 'FAIL',
            note: `${delivered} of ${EVENTS} events delivered (each once by webhook-id), from the commit that queued them to the last answer; batches of 100, the job every 100 ms`,
          },
          { metric: 'sign-ins alone', value: perSecond(alone.rps, 'sign-in/s'), status: 'INFO', note: `${CONNECTIONS} connections, ${SECONDS} s` },
          { metric: 'sign-ins beside deliveries', value: perSecond(beside.rps, 'sign-in/s'), status: 'INFO', note: `non-2xx ${beside.non2xx}, errors ${beside.errors}` },
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
