import { load, better, clean, describeLoad, loadAverage, perSecond, type LoadResult } from '../lib/load';
import { startHelloWorldProcess, startPortalProcess } from '../lib/server-process';
import type { BenchSection, Row } from '../lib/types';
import { SESSION_READ_TARGET } from './session-read';

const LOAD = { connections: 10, seconds: 5, warmupSeconds: 1 } as const;
const ROUNDS = 2;

/**
 * The server as it is deployed: `src/main.ts` in a process of its own, production mode,
 * request logs at info (to a file), against a bare Fastify hello-world in its own process
 * that also logs each request at info. The load comes from this process (autocannon in a
 * worker), so neither server shares a CPU budget with the load generator's bookkeeping
 * beyond the machine's. Wall-clock ratio.
 */
export const deployed: BenchSection = {
  name: 'deployed',
  title: 'As deployed: separate processes, production mode, request logs at info',
  async run(): Promise<Row[]> {
    const portal = await startPortalProcess();
    const bare = await startHelloWorldProcess();
    try {
      const signIn = await fetch(`${portal.url}/v3/sso/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'device-id': 'bench-deployed' },
        body: JSON.stringify({ email: portal.demo.email, password: portal.demo.password }),
      });
      const { token } = (await signIn.json()) as { token?: string };
      if (!token) throw new Error(`sign-in answered ${signIn.status}`);
      const headers = { authorization: `Bearer ${token}` };
      let bareResult: LoadResult | undefined;
      let meResult: LoadResult | undefined;
      for (let round = 0; round < ROUNDS; round++) {
        bareResult = better(bareResult, await load({ ...LOAD, url: `${bare.url}/healthz` }));
        meResult = better(meResult, await load({ ...LOAD, url: `${portal.url}/v3/sso/me`, headers }));
      }
      if (!bareResult || !meResult) throw new Error('no load rounds ran');
      const logged = portal.log().split('\n').filter((line) => line.includes('/v3/sso/me')).length;
      const ratio = meResult.rps / bareResult.rps;
      const settings = `${LOAD.connections} connections, ${LOAD.seconds} s after ${LOAD.warmupSeconds} s warm-up, best of ${ROUNDS} alternating rounds; ${await loadAverage()}`;
      return [
        { metric: 'bare Fastify hello-world (own process, logs at info)', value: `${perSecond(bareResult.rps)}, p99 ${bareResult.p99} ms`, status: clean(bareResult) ? 'INFO' : 'FAIL', note: `${describeLoad(bareResult)}; ${settings}` },
        {
          metric: 'GET /v3/sso/me (main.ts, production, logs at info)',
          value: `${perSecond(meResult.rps)}, p99 ${meResult.p99} ms`,
          status: clean(meResult) && logged > 0 ? 'INFO' : 'FAIL',
          note: `${describeLoad(meResult)}; ${logged.toLocaleString('en-US')} request log lines written for it; PGlite`,
        },
        { metric: 'ratio /sso/me / bare, as deployed', value: ratio.toFixed(2), target: `≥ ${SESSION_READ_TARGET}`, status: ratio >= SESSION_READ_TARGET ? 'PASS' : 'FAIL' },
      ];
    } finally {
      await portal.stop();
      await bare.stop();
    }
  },
};
