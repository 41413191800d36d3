import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { seedAccounts, signIn } from '../lib/accounts';
import type { BenchContext, RunningApp } from '../lib/context';
import { clean, describeLoad, load, perSecond } from '../lib/load';
import type { BenchSection, Row } from '../lib/types';

/** Keycloak's sizing guide: 120 refresh-token grants per second per vCPU. */
export const KEYCLOAK_REFRESH_PER_VCPU = 120;
/** The goal: at least 4x that per core. */
export const REFRESH_TARGET_RATIO = 4;

/** A first-party product of the checked-in clients file (public: PKCE, client_id only). */
const CLIENT = 'pwdmanager';
const REDIRECT = 'https://locker.io/auth/callback';
const SECONDS = 5;
const CHAINS = 16;

const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});

/** One signed-in authorization: /o/authorize with the session cookie, through the provider's redirects, to a code, then tokens. */
async function authorizationRoundTrip(real: RunningApp, sessionToken: string): Promise<{ refresh_token: string; access_token: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const cookies = new Map([['auth_token', sessionToken]]);
  let url = `${real.url}/o/authorize?${new URLSearchParams({ client_id: CLIENT, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256', state: 'bench' })}`;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`authorization stopped at ${url}: ${response.status}`);
    const next = new URL(location, url);
    if (next.href.startsWith(REDIRECT)) {
      const code = next.searchParams.get('code');
      if (!code) throw new Error(`no code: ${next.href}`);
      const tokens = await fetch(`${real.url}/oidc/token`, form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: CLIENT }));
      if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${await tokens.text()}`);
      return (await tokens.json()) as { refresh_token: string; access_token: string };
    }
    url = next.href;
  }
  throw new Error('too many redirects');
}

/** `chains` loops, each using the refresh token the previous grant answered (rotation forbids reuse). */
async function refreshChains(real: RunningApp, tokens: string[], seconds: number): Promise<{ rps: number; errors: number; p99: number }> {
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const latencies: number[] = [];
  await Promise.all(
    tokens.map(async (first) => {
      let current = first;
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await fetch(`${real.url}/oidc/token`, form({ grant_type: 'refresh_token', refresh_token: current, client_id: CLIENT }));
        const body = (await response.json()) as { refresh_token?: string };
        latencies.push(performance.now() - started);
        if (response.status !== 200 || !body.refresh_token) {
          errors++;
          return;
        }
        current = body.refresh_token;
        done++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: done / seconds, errors, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0) };
}

export const oidcThroughput: BenchSection = {
  name: 'oidc',
  title: 'OpenID Connect provider: refresh grants, introspection, code round trip',
  async run(context: BenchContext): Promise<Row[]> {
    const real = await context.realApp();
    const [account] = await seedAccounts(real, 'oidc', 1);
    const session = await signIn(real, account!);
    const cores = availableParallelism();

    // The code round trip of a signed-in person (authorize → interaction → resume → code → token), sequentially.
    const roundTrips: number[] = [];
    const chainTokens: string[] = [];
    const started = Date.now();
    while (Date.now() - started < SECONDS * 1000 || chainTokens.length < CHAINS) {
      const t0 = performance.now();
      const tokens = await authorizationRoundTrip(real, session);
      roundTrips.push(performance.now() - t0);
      if (chainTokens.length < CHAINS) chainTokens.push(tokens.refresh_token);
    }
    const roundTripRate = roundTrips.length / ((Date.now() - started) / 1000);
    roundTrips.sort((a, b) => a - b);
    const roundTripP99 = Math.round(roundTrips[Math.floor(roundTrips.length * 0.99)] ?? 0);

    const refresh = await refreshChains(real, chainTokens, SECONDS);
    const perCore = refresh.rps / cores;
    const ratio = perCore / KEYCLOAK_REFRESH_PER_VCPU;

    const access = (await authorizationRoundTrip(real, session)).access_token;
    const introspection = await load({
      url: `${real.url}/oidc/token/introspection`,
      connections: 10,
      seconds: SECONDS,
      warmupSeconds: 1,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      requests: [{ method: 'POST', path: '/oidc/token/introspection', body: new URLSearchParams({ token: access, client_id: CLIENT }).toString() }],
    });

    // The same app's cheapest route under the same load: the machine's speed right now, for a ratio from this run.
    const healthz = await load({ url: `${real.url}/healthz`, connections: 10, seconds: SECONDS, warmupSeconds: 1 });

    return [
      { metric: 'GET /healthz of the same app (baseline)', value: `${perSecond(healthz.rps)}, p99 ${healthz.p99} ms`, status: clean(healthz) ? 'INFO' : 'FAIL', note: describeLoad(healthz) },
      {
        metric: 'introspections / healthz baseline',
        value: (introspection.rps / healthz.rps).toFixed(3),
        status: 'INFO',
        note: 'what one introspection costs against the cheapest request, on this machine in this run',
      },
      {
        metric: 'code round trip, signed in (authorize → code → token)',
        value: `${perSecond(roundTripRate, 'flows/s')}, p99 ${roundTripP99} ms`,
        status: 'INFO',
        note: `${roundTrips.length} flows one after another, 5 requests each, client in the same process`,
      },
      {
        metric: 'refresh-token grants (rotated)',
        value: `${perSecond(refresh.rps, 'grants/s')}, p99 ${refresh.p99} ms`,
        status: refresh.errors === 0 ? 'INFO' : 'FAIL',
        note: `${CHAINS} chains (each uses the token the last grant answered), ${SECONDS} s, client in the same process, ${cores} cores`,
      },
      {
        metric: `refresh grants per core / Keycloak's ${KEYCLOAK_REFRESH_PER_VCPU} per vCPU`,
        value: ratio.toFixed(2),
        target: `≥ ${REFRESH_TARGET_RATIO}`,
        status: ratio >= REFRESH_TARGET_RATIO ? 'PASS' : 'FAIL',
        note: `${perCore.toFixed(0)} grants/s per core`,
      },
      {
        metric: 'introspections (RFC 7662)',
        value: `${perSecond(introspection.rps)}, p99 ${introspection.p99} ms`,
        status: clean(introspection) ? 'INFO' : 'FAIL',
        note: `${describeLoad(introspection)}; ${(introspection.rps / cores / KEYCLOAK_REFRESH_PER_VCPU).toFixed(2)}x the refresh anchor per core`,
      },
    ];
  },
};
