import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { clientHeaders, seedAccounts } from '../lib/accounts';
import type { BenchContext } from '../lib/context';
import { better, clean, describeLoad, load, loadAverage, perSecond, type LoadResult } from '../lib/load';
import type { BenchSection, Row } from '../lib/types';

/** The server keeps at least this share of raw argon2id verifications (it adds under 15%). */
export const SIGN_IN_TARGET = 0.85;

/**
 * Same concurrency and time for both sides: 2 per core (argon2 runs on libuv's thread pool,
 * which both sides share, in this process). They take turns for ROUNDS rounds and each keeps
 * its best, so a burst of other work on the machine hits one round rather than the ratio.
 */
const CONCURRENCY = 2 * availableParallelism();
const SECONDS = 5;
const WARMUP_SECONDS = 1;
const ROUNDS = 2;
/** Sign-ins go round-robin over several accounts, as many people signing in would. */
const ACCOUNTS = 8;

interface RawResult {
  rps: number;
  count: number;
  meanMs: number;
}

/** `concurrency` loops of argon2 verify() for `seconds`; counts those done in the window. */
async function verifyLoops(verify: (hash: string, password: string) => Promise<boolean>, hash: string, password: string, seconds: number): Promise<RawResult> {
  const started = performance.now();
  const end = started + seconds * 1000;
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
  return { rps: count / seconds, count, meanMs: count ? busy / count : 0 };
}

export const signInThroughput: BenchSection = {
  name: 'signin',
  title: 'POST /v3/sso/auth: password sign-ins',
  async run(context: BenchContext): Promise<Row[]> {
    const real = await context.realApp();
    const { hashPassword, ARGON2_PARAMS } = await import('../../packages/server/src/modules/auth/passwords');
    // The server's own verifyPassword calls this verify() with the stored hash (parameters inside it).
    const { verify } = await import('@node-rs/argon2');
    const accounts = await seedAccounts(real, 'signin', ACCOUNTS);
    const rawHash = await hashPassword(accounts[0]!.password);

    const requests = accounts.map((account) => ({
      method: 'POST' as const,
      path: '/v3/sso/auth',
      headers: clientHeaders(account),
      body: JSON.stringify({ email: account.email, password: account.password }),
    }));
    const server = () => load({ url: real.url, connections: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, requests });
    const raw = async () => {
      await verifyLoops(verify, rawHash, accounts[0]!.password, WARMUP_SECONDS);
      return verifyLoops(verify, rawHash, accounts[0]!.password, SECONDS);
    };

    let rawResult: RawResult | undefined;
    let serverResult: LoadResult | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      rawResult = better(rawResult, await raw());
      serverResult = better(serverResult, await server());
    }
    if (!rawResult || !serverResult) throw new Error('no rounds ran');
    const ratio = serverResult.rps / rawResult.rps;
    const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
    const settings = `${CONCURRENCY} concurrent, ${SECONDS} s after ${WARMUP_SECONDS} s warm-up, best of ${ROUNDS} alternating rounds; ${await loadAverage()}`;
    return [
      {
        metric: 'raw argon2id verify (@node-rs/argon2)',
        value: perSecond(rawResult.rps, 'verify/s'),
        status: 'INFO',
        note: `m=${memoryCost},t=${timeCost},p=${parallelism}; mean ${rawResult.meanMs.toFixed(1)} ms per verify; ${settings}`,
      },
      {
        metric: 'sign-ins through the real server',
        value: perSecond(serverResult.rps, 'sign-in/s'),
        status: clean(serverResult) ? 'INFO' : 'FAIL',
        note: `${serverResult.ok} sessions opened; ${describeLoad(serverResult)}; ${ACCOUNTS} activated accounts round-robin, NODE_ENV=${real.nodeEnv}, in-memory rate limiter, logger off`,
      },
      {
        metric: 'ratio sign-ins / raw verify',
        value: ratio.toFixed(2),
        target: `≥ ${SIGN_IN_TARGET}`,
        status: ratio >= SIGN_IN_TARGET ? 'PASS' : 'FAIL',
        note: 'what the server adds to the hash: lookup, limiter, session row, new-device check, HTTP',
      },
    ];
  },
};
