import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { clientHeaders, seedAccounts, type BenchAccount } from '../lib/accounts';
import { load, perSecond, type LoadResult } from '../lib/load';
import { median } from '../lib/rounds';
import { mainThreadTimes, postgresCpuFrom, processCpuMilliseconds, startPortalProcess, userPlusSystemMs } from '../lib/server-process';
import type { BenchSection, Row } from '../lib/types';

/**
 * Events to products, with the server as deployed: `src/main.ts` in a process of its own
 * (bench/lib/server-process.ts), production mode, request logs at info to a file, on
 * PostgreSQL (this process queues events into the same database while the server runs, which
 * PGlite's one process cannot share), loaded by autocannon from this process. Its own delivery
 * job sends the queued events (user.created of new accounts, each with a grant to the app,
 * queued by the trigger) to a receiver in a third process, while sign-ins run against the same
 * server. The receiver is on loopback, which production's egress guard refuses: the operator's
 * allow-list (EGRESS_ALLOW_HOSTS=127.0.0.1) lets that one address through, as it would a
 * receiver in the operator's own network. Budgets: at least 200 deliveries a second, and
 * sign-ins at 90 % or more of their rate without deliveries while 200 a second are queued and
 * delivered.
 */
const EVENTS = Number(process.env.BENCH_WEBHOOKS ?? 3000);
const DELIVERY_TARGET = 200;
const SIGN_IN_SHARE = 0.9;
/** Events queued a second while sign-ins are measured. */
const RATE = 200;
const SECONDS = 4;
/** Sign-in rounds beside deliveries, each against the mean of the rounds without deliveries just before and after it. */
const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 5);
const CONNECTIONS = 2 * availableParallelism();

/** The receiver, in a process of its own (in this one it would take the app's event loop): counts distinct webhook-ids, and the connections the server opened. */
const RECEIVER = `
const seen = new Set();
let connections = 0;
const server = require('node:http').createServer((request, response) => {
  if (request.method === 'GET') return response.end(JSON.stringify({ events: seen.size, connections }));
  if (!request.socket.delivering) connections += request.socket.delivering = 1;
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
    stats: async () => (await (await fetch(base)).json()) as { events: number; connections: number },
    count: async () => ((await (await fetch(base)).json()) as { events: number }).events,
    pid: child.pid!,
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
        // Production (startPortalProcess's default); only the receiver's address is let through the egress guard.
        env: { SEED_DEMO: 'false', DATA_ENCRYPTION_KEY: key, EGRESS_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_DELIVERY_INTERVAL_MS: '100' },
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
        /** A sign-in round, with what each process took of the machine meanwhile (ms of CPU a second): where the sign-ins' share went. */
        const signIns = async (): Promise<LoadResult & { cpu: { server: number; postgres: number; receiver: number } }> => {
          const serverBefore = processCpuMilliseconds(server.pid);
          const receiverBefore = processCpuMilliseconds(receiver.pid);
          const postgres = await postgresCpuFrom(databaseUrl);
          const started = performance.now();
          const result = await load({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1, requests, inWorker: false });
          const seconds = (performance.now() - started) / 1000;
          const cpu = {
            server: (processCpuMilliseconds(server.pid) - serverBefore) / seconds,
            postgres: (await postgres.stop()) / seconds,
            receiver: (processCpuMilliseconds(receiver.pid) - receiverBefore) / seconds,
          };
          return { ...result, cpu };
        };
        const busy = loadavg()[0]!;
        // An app hears only of people with a grant to it (migration 0034): the seeded accounts have none, so nothing is queued yet.
        let queued = 0;

        // Each new person has allowed the bench app first (a grant, as its consent stores one), so their user.created reaches it.
        // The people are made from their grants, read back by primary key: a LIKE on the id would scan every grant, the bench's own cost growing with the run.
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
              where model = 'Grant' and id in (select ${batch} || n from generate_series(1, ${count}) n)`);
          });
        };

        // Warm-up, as the sign-ins have theirs: the delivery path's first attempts (its connections, code compiled on first use) count in no round.
        await insert(RATE);
        queued += RATE;
        await drained(receiver, queued);

        /** Sign-ins while events are queued at RATE a second (a batch every 100 ms), as a busy portal would; then the rest is drained. */
        const besideDeliveries = async () => {
          let feeding = true;
          // Each batch queues what the rate owes since the start, so a slow insert on a loaded machine makes the next batch larger, not the rate lower.
          const feedStart = performance.now();
          let fed = 0;
          const feeder = (async () => {
            while (feeding) {
              const started = performance.now();
              const owed = Math.floor((RATE * (started - feedStart)) / 1000) - fed;
              if (owed > 0) {
                await insert(owed);
                fed += owed;
                queued += owed;
              }
              await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - started))));
            }
          })();
          const before = await receiver.count();
          const queuedBefore = queued;
          const windowStart = performance.now();
          const result = await signIns();
          const received = await receiver.count();
          const seconds = (performance.now() - windowStart) / 1000;
          const queuedRate = (queued - queuedBefore) / seconds;
          feeding = false;
          await feeder;
          // How far delivery was behind the queue when the window closed: it must keep up, not save its work for later.
          const behind = queued - received;
          await drained(receiver, queued);
          return { result, queued: queuedRate, delivered: (received - before) / seconds, behind };
        };

        // Rounds alternate, so each round beside deliveries is read against the minutes around it.
        const alone: Array<Awaited<ReturnType<typeof signIns>>> = [await signIns()];
        const beside: Array<Awaited<ReturnType<typeof besideDeliveries>>> = [];
        for (let round = 0; round < ROUNDS; round++) {
          beside.push(await besideDeliveries());
          alone.push(await signIns());
        }
        const shares = beside.map((round, index) => round.result.rps / ((alone[index]!.rps + alone[index + 1]!.rps) / 2));
        const share = median(shares);
        /** How much more of the machine a process took beside deliveries than alone (medians, ms of CPU a second). */
        const more = (of: 'server' | 'postgres' | 'receiver') => Math.round(median(beside.map((round) => round.result.cpu[of])) - median(alone.map((round) => round.cpu[of])));
        const besideClean = beside.every((round) => round.result.non2xx === 0 && round.result.errors === 0);

        // What one node can send: a backlog of EVENTS queued in one statement, drained flat out.
        // The server's CPU (and PostgreSQL's backends') per delivery is read over the drain, with no sign-ins beside it.
        const backlogStart = performance.now();
        await insert(EVENTS);
        queued += EVENTS;
        const cpuBefore = processCpuMilliseconds(server.pid);
        const receiverCpuBefore = processCpuMilliseconds(receiver.pid);
        const mainBefore = mainThreadTimes(server.pid);
        const postgres = await postgresCpuFrom(databaseUrl);
        const connectionsBefore = (await receiver.stats()).connections;
        const end = await drained(receiver, queued);
        const cpuMs = processCpuMilliseconds(server.pid) - cpuBefore;
        const receiverCpuMs = processCpuMilliseconds(receiver.pid) - receiverCpuBefore;
        const mainAfter = mainThreadTimes(server.pid);
        const postgresMs = await postgres.stop();
        const { connections } = await receiver.stats();
        const delivered = (await receiver.count()) - (queued - EVENTS);
        const rate = delivered / ((end - backlogStart) / 1000);
        const perDelivery = (ms: number) => `${(ms / Math.max(1, delivered)).toFixed(2)} ms`;
        const loadAtEnd = loadavg()[0]!;
        return [
          {
            metric: 'deliveries',
            value: perSecond(rate, 'delivery/s'),
            target: `≥ ${DELIVERY_TARGET}/s`,
            status: delivered === EVENTS && rate >= DELIVERY_TARGET ? 'PASS' : 'FAIL',
            note: `backlog: ${delivered} of ${EVENTS} events delivered (each once by webhook-id), from the commit that queued them to the last answer, the job every 100 ms`,
          },
          {
            metric: '  server CPU per delivery',
            value: perDelivery(cpuMs),
            status: 'INFO',
            note: `over the backlog's drain: the server process (main thread ${perDelivery(userPlusSystemMs(mainAfter) - userPlusSystemMs(mainBefore))}); PostgreSQL's backends ${perDelivery(postgresMs)}; the receiver's process ${perDelivery(receiverCpuMs)}; ${connections - connectionsBefore} new connections to the receiver (${connections} in the whole run)`,
          },
          {
            metric: 'deliveries beside sign-ins',
            value: perSecond(median(beside.map((round) => round.delivered)), 'delivery/s'),
            target: `≥ ${RATE * 0.9}/s`,
            status: beside.every((round) => round.delivered >= RATE * 0.9) ? 'PASS' : 'FAIL',
            note: `median of ${ROUNDS} rounds; queued during them at ${beside.map((round) => Math.round(round.queued)).join(', ')}/s (asked ${RATE}/s, in batches every 100 ms that catch up with the rate); behind the queue when each round ended: ${beside.map((round) => round.behind).join(', ')}`,
          },
          {
            metric: 'sign-ins alone',
            value: perSecond(median(alone.map((round) => round.rps)), 'sign-in/s'),
            status: 'INFO',
            note: `${CONNECTIONS} connections, ${SECONDS} s a round, ${alone.length} rounds (median); load average ${busy.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end, on ${availableParallelism()} cores`,
          },
          {
            metric: `sign-ins beside ${RATE} deliveries/s`,
            value: perSecond(median(beside.map((round) => round.result.rps)), 'sign-in/s'),
            status: 'INFO',
            note: `${ROUNDS} rounds (median); non-2xx ${beside.reduce((sum, round) => sum + round.result.non2xx, 0)}, errors ${beside.reduce((sum, round) => sum + round.result.errors, 0)}`,
          },
          {
            metric: '  share kept',
            value: share.toFixed(2),
            target: `≥ ${SIGN_IN_SHARE}`,
            status: share >= SIGN_IN_SHARE && besideClean ? 'PASS' : 'FAIL',
            note: `each round beside deliveries over the mean of the rounds without them just before and after it, median (rounds: ${shares.map((value) => value.toFixed(2)).join(', ')}); beside deliveries, PostgreSQL's backends took ${more('postgres')} ms of CPU a second more than alone, the receiver ${more('receiver')}, the server process ${more('server')} (its argon2 threads hash fewer passwords)`,
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
