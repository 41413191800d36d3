import autocannon from 'autocannon';
import type { BenchContext } from '../lib/context';
import type { BenchSection, Row } from '../lib/types';

/**
 * Same settings for both servers. The load runs in a worker thread, off the servers' event
 * loop. The two servers take turns for ROUNDS rounds and each keeps its best round, so a
 * burst of other work on the machine (2 cores, shared) hits one round rather than the ratio.
 */
const LOAD = { connections: 10, duration: 5, warmupSeconds: 1, pipelining: 1 } as const;
const ROUNDS = 2;

interface LoadResult {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string): Promise<LoadResult> {
  // `warmup` is an autocannon option @types/autocannon does not know yet.
  const options: autocannon.Options & { warmup: { connections: number; duration: number } } = {
    url,
    connections: LOAD.connections,
    pipelining: LOAD.pipelining,
    duration: LOAD.duration,
    warmup: { connections: LOAD.connections, duration: LOAD.warmupSeconds },
    workers: 1,
  };
  const result = await autocannon(options);
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

const format = (rps: number) => `${Math.round(rps).toLocaleString('en-US')} req/s`;

function describe(result: LoadResult): string {
  const problems = result.errors || result.non2xx ? `; ${result.errors} errors, ${result.non2xx} non-2xx` : '';
  return `p99 ${result.p99} ms${problems}`;
}

export const httpThroughput: BenchSection = {
  name: 'throughput',
  title: 'GET /healthz throughput',
  async run(context: BenchContext): Promise<Row[]> {
    const settings = `${LOAD.connections} connections, ${LOAD.duration} s after ${LOAD.warmupSeconds} s warm-up, best of ${ROUNDS} alternating rounds`;
    const bare = await context.helloWorld();
    const real = await context.realApp();
    const best = (a: LoadResult | undefined, b: LoadResult) => (a && a.rps >= b.rps ? a : b);
    let bareResult: LoadResult | undefined;
    let realResult: LoadResult | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      bareResult = best(bareResult, await load(`${bare.url}/healthz`));
      realResult = best(realResult, await load(`${real.url}/healthz`));
    }
    if (!bareResult || !realResult) throw new Error('no load rounds ran');

    const ratio = realResult.rps / bareResult.rps;
    const clean = (r: LoadResult) => r.errors === 0 && r.non2xx === 0;
    return [
      { metric: 'bare Fastify hello-world', value: format(bareResult.rps), status: clean(bareResult) ? 'INFO' : 'FAIL', note: `${describe(bareResult)}; ${settings}` },
      {
        metric: 'real app (buildApp, PGlite)',
        value: format(realResult.rps),
        status: clean(realResult) ? 'INFO' : 'FAIL',
        note: `${describe(realResult)}; NODE_ENV=${real.nodeEnv}, every platform hook runs (security headers, device id, metrics, errors), logger off`,
      },
      { metric: 'ratio real / bare', value: ratio.toFixed(2), status: 'INFO', note: 'the share of bare Fastify throughput the real app keeps' },
    ];
  },
};
