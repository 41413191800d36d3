import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { clientHeaders, seedAccounts } from '../lib/accounts';
import type { BenchContext, RunningApp } from '../lib/context';
import { clean, cpuWindow, describeLoad, load, loadAverage, perSecond, type LoadResult } from '../lib/load';
import { median } from '../lib/rounds';
import type { BenchSection, Row } from '../lib/types';

/** The server keeps at least this share of raw argon2id verifications (it adds under 15%). */
export const SIGN_IN_TARGET = 0.85;
/** A new device's sign-in (its security alert queued with the session, sent after the answer) keeps at least this share. */
export const NEW_DEVICE_TARGET = 0.8;

/**
 * Same concurrency and time for both sides: 2 per core, as many verifications in flight as
 * sign-ins. Raw and server rounds alternate and each round's ratio is taken against the raw
 * round just before it, so drifts in what else the machine runs (2 shared cores) cancel; the
 * median of the rounds is the figure.
 */
export const CONCURRENCY = 2 * availableParallelism();
const SECONDS = 4;
export const WARMUP_SECONDS = 1;
const ROUNDS = 4;
/** Sign-ins go round-robin over several accounts, as many people signing in would. */
const ACCOUNTS = 8;

export type Verify = (hash: string, password: string) => Promise<boolean>;

interface Rate {
  /** Completed per wall-clock second. */
  rps: number;
  /** Completed per CPU-second this process spent in the window. */
  perCpuSecond: number;
}

export interface RawRound extends Rate {
  meanMs: number;
}

type ServerRound = Rate & LoadResult;

/** `concurrency` loops of argon2 verify() for `seconds`; counts those done in the window. */
export async function verifyLoops(verify: Verify, hash: string, password: string, concurrency: number, seconds: number): Promise<RawRound> {
  const cpu = cpuWindow(seconds);
  cpu.begin();
  const end = performance.now() + seconds * 1000;
  let count = 0;
  let busy = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        if (!(await verify(hash, password))) throw new Error('argon2 verify refused the right password');
        const t1 = performance.now();
        if (t1 <= end) {
          count++;
          busy += t1 - t0;
        }
      }
    }),
  );
  const cpuMs = await cpu.milliseconds();
  return { rps: count / seconds, perCpuSecond: count / (cpuMs / 1000), meanMs: count ? busy / count : 0 };
}

/**
 * How the raw verifies run: @node-rs/argon2's async verify takes a thread of libuv's pool, so
 * CONCURRENCY of them run at once on as many threads (up to the pool's size) on the machine's
 * cores, where the server runs one argon2 thread per core (argon2-threads.ts). The
 * bare sign-in server of the deployed section, on the server's threads, kept 1.09 of this rate
 * on a quiet run: the reference is that much below what the cores can do with a thread each.
 */
export const rawVerifyThreads = () => `async verify on libuv's pool (UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4, the default'}) on ${availableParallelism()} cores`;

/** A server under test: where it runs, its sign-in requests, and the rounds measured on it. */
interface Target {
  label: string;
  gated: boolean;
  app: RunningApp;
  requests: Parameters<typeof load>[0]['requests'];
  rounds: Array<{ server: ServerRound; raw: RawRound }>;
  newDevice: boolean;
  /** New device: the alerts still queued at each round's end, and the seconds until delivered. */
  drains: Array<{ queued: number; seconds: number }>;
}

/**
 * A returning browser sends the device id of its earlier sign-ins; a new device sends none, so
 * the server gives it a fresh one and every sign-in (past the account's first) is the
 * new-device security alert's.
 */
async function target(real: RunningApp, label: string, gated: boolean, device: 'returning' | 'new'): Promise<Target> {
  const accounts = await seedAccounts(real, `signin-${device}`, ACCOUNTS);
  const requests = accounts.map((account) => {
    const { 'device-id': _returning, ...newDevice } = clientHeaders(account);
    return {
      method: 'POST' as const,
      path: '/v3/sso/auth',
      headers: device === 'returning' ? clientHeaders(account) : newDevice,
      body: JSON.stringify({ email: account.email, password: account.password }),
    };
  });
  return { label: `${label}, ${device === 'returning' ? 'a returning browser' : 'a new device each time'}`, gated, app: real, requests, rounds: [], newDevice: device === 'new', drains: [] };
}

async function serverRound(t: Target): Promise<ServerRound> {
  const cpu = cpuWindow(SECONDS);
  const result = await load({ url: t.app.url, connections: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, requests: t.requests, onStart: cpu.begin });
  const round = { ...result, perCpuSecond: result.ok / ((await cpu.milliseconds()) / 1000) };
  if (t.newDevice) t.drains.push(await alertsDrained(t.app));
  return round;
}

/**
 * The new-device alerts are delivered after the answers: how many were still queued when the
 * round ended, and how long the server took to deliver them. Waited for, so no round pays for
 * the one before it.
 */
async function alertsDrained(app: RunningApp): Promise<{ queued: number; seconds: number }> {
  const { sql } = await import('drizzle-orm');
  const queued = async () => {
    const { rows } = await app.database!.db.execute(sql`select count(*)::int as n from security_alerts`);
    return Number((rows[0] as { n: number }).n);
  };
  const started = performance.now();
  const atEnd = await queued();
  for (let left = atEnd; left > 0 && performance.now() - started < 60_000; left = await queued()) await new Promise((resolve) => setTimeout(resolve, 100));
  return { queued: atEnd, seconds: (performance.now() - started) / 1000 };
}

function targetRows(t: Target): Row[] {
  const wall = t.rounds.map(({ server, raw }) => server.rps / raw.rps);
  const cpu = t.rounds.map(({ server, raw }) => server.perCpuSecond / raw.perCpuSecond);
  const failures = t.rounds.reduce((sum, { server }) => sum + server.non2xx + server.errors, 0);
  const best = t.rounds.reduce((a, b) => (b.server.rps > a.server.rps ? b : a)).server;
  const listed = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  const cpuRatio = median(cpu);
  const goal = t.newDevice ? NEW_DEVICE_TARGET : SIGN_IN_TARGET;
  return [
    {
      metric: `sign-ins, ${t.label}`,
      value: perSecond(median(t.rounds.map(({ server }) => server.rps)), 'sign-in/s'),
      status: clean(best) && failures === 0 ? 'INFO' : 'FAIL',
      note: `${describeLoad(best)} (best round; all rounds: ${failures} errors + non-2xx); rounds ${t.rounds.map(({ server }) => `${server.rps.toFixed(0)}/s (${server.perCpuSecond.toFixed(1)} per CPU-s)`).join(', ')}; each 200 opened a session; ${ACCOUNTS} activated accounts round-robin, NODE_ENV=${t.app.nodeEnv}, in-memory rate limiter, logger off`,
    },
    { metric: `  ratio to raw verify, per second`, value: median(wall).toFixed(2), status: 'INFO', note: undefined },
    {
      metric: `  ratio to raw verify, per CPU-second`,
      value: cpuRatio.toFixed(2),
      ...(t.gated ? { target: `≥ ${goal}`, status: cpuRatio >= goal ? ('PASS' as const) : ('FAIL' as const) } : { status: 'INFO' as const }),
      note: `${t.label}: medians of ${t.rounds.length} rounds, each against the raw round before it; per second ${listed(wall)}; per CPU-second ${listed(cpu)}`,
    },
  ];
}

/** A new device's sign-ins against a returning browser's on the same database, round by round. */
function newDeviceRow(returning: Target, fresh: Target): Row {
  const perSecond = returning.rounds.map(({ server }, round) => fresh.rounds[round]!.server.rps / server.rps);
  const perCpu = returning.rounds.map(({ server }, round) => fresh.rounds[round]!.server.perCpuSecond / server.perCpuSecond);
  const listed = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  return {
    metric: `  new device / returning browser, per second`,
    value: median(perSecond).toFixed(2),
    status: 'INFO',
    note: `${fresh.label}: medians of ${perSecond.length} rounds; per second ${listed(perSecond)}; per CPU-second ${listed(perCpu)}; the alerts (notification and mail, made after the answer) still queued at each round's end ${fresh.drains.map((drain) => `${drain.queued} (delivered ${drain.seconds.toFixed(1)} s later)`).join(', ')}`,
  };
}

export const signInThroughput: BenchSection = {
  name: 'signin',
  title: 'POST /v3/sso/auth: password sign-ins',
  async run(context: BenchContext): Promise<Row[]> {
    const { hashPassword, ARGON2_PARAMS } = await import('../../packages/server/src/platform/passwords');
    // What the server's verifyPassword calls, on a hash made with ARGON2_PARAMS (they travel in the hash).
    const { verify } = await import('@node-rs/argon2');
    const password = 'bench-raw-verify-password';
    const rawHash = await hashPassword(password);

    // Production runs on PostgreSQL (its CPU is another process's); `npm start` embeds PGlite,
    // whose queries run on this process's main thread and count as the server's.
    const onPostgres = await context.realAppOnPostgres();
    const onPglite = await context.realApp();
    const targets = [
      ...(onPostgres ? [await target(onPostgres, 'on PostgreSQL (production)', true, 'returning'), await target(onPostgres, 'on PostgreSQL (production)', true, 'new')] : []),
      await target(onPglite, 'on embedded PGlite (npm start)', !onPostgres, 'returning'),
      await target(onPglite, 'on embedded PGlite (npm start)', !onPostgres, 'new'),
    ];

    const rawRounds: RawRound[] = [];
    const perCore: RawRound[] = [];
    await verifyLoops(verify, rawHash, password, CONCURRENCY, WARMUP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        const raw = await verifyLoops(verify, rawHash, password, CONCURRENCY, SECONDS);
        rawRounds.push(raw);
        t.rounds.push({ raw, server: await serverRound(t) });
      }
    }
    perCore.push(await verifyLoops(verify, rawHash, password, availableParallelism(), SECONDS));

    const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
    const rawMedian = median(rawRounds.map((r) => r.rps));
    return [
      {
        metric: 'raw argon2id verify (@node-rs/argon2)',
        value: perSecond(rawMedian, 'verify/s'),
        status: 'INFO',
        note: `m=${memoryCost},t=${timeCost},p=${parallelism}; ${CONCURRENCY} concurrent (as many as the sign-in clients), ${rawVerifyThreads()}; mean ${median(rawRounds.map((r) => r.meanMs)).toFixed(1)} ms per verify; rounds ${rawRounds.map((r) => `${r.rps.toFixed(0)}/s (${r.perCpuSecond.toFixed(1)} per CPU-s)`).join(', ')}; ${SECONDS} s rounds after ${WARMUP_SECONDS} s warm-up; ${await loadAverage()}`,
      },
      {
        metric: '  the same, one per core',
        value: perSecond(perCore[0]!.rps, 'verify/s'),
        status: 'INFO',
        note: `${perCore[0]!.perCpuSecond.toFixed(1)} per CPU-s: how the server hashes (argon2-threads.ts: one thread per core); for reference, not the baseline`,
      },
      ...targets.flatMap((t, index) => [...targetRows(t), ...(t.newDevice ? [newDeviceRow(targets[index - 1]!, t)] : [])]),
      ...(onPostgres ? [] : [{ metric: 'sign-ins on PostgreSQL', value: 'n/a', status: 'INFO' as const, note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432): the target applies to PGlite instead' }]),
    ];
  },
};
