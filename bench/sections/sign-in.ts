import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { clientHeaders, seedAccounts } from '../lib/accounts';
import type { BenchContext } from '../lib/context';
import { clean, cpuWindow, describeLoad, load, loadAverage, perSecond, type LoadResult } from '../lib/load';
import type { BenchSection, Row } from '../lib/types';

/** The server keeps at least this share of raw argon2id verifications (it adds under 15%). */
export const SIGN_IN_TARGET = 0.85;

/**
 * Same concurrency and time for both sides: 2 per core (argon2 runs on libuv's thread pool,
 * which both share, in this process). They take turns for ROUNDS rounds and each keeps its
 * best, so a burst of other work on the machine hits one round rather than the ratio.
 */
const CONCURRENCY = 2 * availableParallelism();
const SECONDS = 5;
const WARMUP_SECONDS = 1;
const ROUNDS = 2;
/** Sign-ins go round-robin over several accounts, as many people signing in would. */
const ACCOUNTS = 8;

interface Round {
  /** Completed per wall-clock second. */
  rps: number;
  /** Completed per CPU-second this process spent in the window. */
  perCpuSecond: number;
}

interface RawRound extends Round {
  count: number;
  meanMs: number;
}

type ServerRound = Round & LoadResult;

/** CONCURRENCY loops of argon2 verify() for `seconds`; counts those done in the window. */
async function verifyLoops(verify: (hash: string, password: string) => Promise<boolean>, hash: string, password: string, seconds: number): Promise<RawRound> {
  const cpu = cpuWindow(seconds);
  cpu.begin();
  const end = performance.now() + seconds * 1000;
  let count = 0;
  let busy = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
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
  return { rps: count / seconds, perCpuSecond: count / (cpuMs / 1000), count, meanMs: count ? busy / count : 0 };
}

const best = <T extends Round>(rounds: T[], key: keyof Round): T => rounds.reduce((a, b) => (b[key] > a[key] ? b : a));

export const signInThroughput: BenchSection = {
  name: 'signin',
  title: 'POST /v3/sso/auth: password sign-ins',
  async run(context: BenchContext): Promise<Row[]> {
    const real = await context.realApp();
    const { hashPassword, ARGON2_PARAMS } = await import('../../packages/server/src/modules/auth/passwords');
    // What the server's verifyPassword calls, on a hash made with ARGON2_PARAMS (they travel in the hash).
    const { verify } = await import('@node-rs/argon2');
    const accounts = await seedAccounts(real, 'signin', ACCOUNTS);
    const password = accounts[0]!.password;
    const rawHash = await hashPassword(password);

    const requests = accounts.map((account) => ({
      method: 'POST' as const,
      path: '/v3/sso/auth',
      headers: clientHeaders(account),
      body: JSON.stringify({ email: account.email, password: account.password }),
    }));
    const server = async (): Promise<ServerRound> => {
      const cpu = cpuWindow(SECONDS);
      const result = await load({ url: real.url, connections: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, requests, onStart: cpu.begin });
      return { ...result, perCpuSecond: result.ok / ((await cpu.milliseconds()) / 1000) };
    };
    const raw = async () => {
      await verifyLoops(verify, rawHash, password, WARMUP_SECONDS);
      return verifyLoops(verify, rawHash, password, SECONDS);
    };

    const rawRounds: RawRound[] = [];
    const serverRounds: ServerRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rawRounds.push(await raw());
      serverRounds.push(await server());
    }
    const rawBest = best(rawRounds, 'rps');
    const serverBest = best(serverRounds, 'rps');
    const wallRatio = serverBest.rps / rawBest.rps;
    const cpuRatio = best(serverRounds, 'perCpuSecond').perCpuSecond / best(rawRounds, 'perCpuSecond').perCpuSecond;
    const rounds = (list: Round[]) => list.map((r) => `${r.rps.toFixed(0)}/s (${r.perCpuSecond.toFixed(1)} per CPU-s)`).join(', ');
    const serverNon2xx = serverRounds.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
    const settings = `${CONCURRENCY} concurrent, ${SECONDS} s after ${WARMUP_SECONDS} s warm-up, best of ${ROUNDS} alternating rounds; ${await loadAverage()}`;
    return [
      {
        metric: 'raw argon2id verify (@node-rs/argon2)',
        value: perSecond(rawBest.rps, 'verify/s'),
        status: 'INFO',
        note: `m=${memoryCost},t=${timeCost},p=${parallelism}; mean ${rawBest.meanMs.toFixed(1)} ms per verify; rounds ${rounds(rawRounds)}; ${settings}`,
      },
      {
        metric: 'sign-ins through the real server',
        value: perSecond(serverBest.rps, 'sign-in/s'),
        status: clean(serverBest) && serverNon2xx === 0 ? 'INFO' : 'FAIL',
        note: `${describeLoad(serverBest)} (all rounds: ${serverNon2xx} errors + non-2xx); rounds ${rounds(serverRounds)}; each 200 opened a session; ${ACCOUNTS} activated accounts round-robin, NODE_ENV=${real.nodeEnv}, in-memory rate limiter, logger off`,
      },
      {
        metric: 'ratio sign-ins / raw verify, per second',
        value: wallRatio.toFixed(2),
        status: 'INFO',
        note: 'wall-clock rates: move with the load other work puts on the machine between rounds',
      },
      {
        metric: 'ratio sign-ins / raw verify, per CPU-second',
        value: cpuRatio.toFixed(2),
        target: `≥ ${SIGN_IN_TARGET}`,
        status: cpuRatio >= SIGN_IN_TARGET ? 'PASS' : 'FAIL',
        note: "the hash's share of a sign-in's cost (this process's CPU time, autocannon's included), whatever share of the cores other work leaves",
      },
    ];
  },
};
