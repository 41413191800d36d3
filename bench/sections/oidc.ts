import { createHash, randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism } from 'node:os';
import { signIn } from '../lib/accounts';
import type { BenchContext } from '../lib/context';
import { clean, describeLoad, load, loadAverage, perSecond, type LoadResult } from '../lib/load';
import { alternatingRounds, median, type Alternated } from '../lib/rounds';
import {
  machineCpuMilliseconds,
  mainThreadTimes,
  PGLITE_THREAD_NAME,
  postgresCpuFrom,
  processCpuMilliseconds,
  startBareOidcProcess,
  startPortalProcess,
  threadGroupSpent,
  threadGroupTimes,
  userPlusSystemMs,
  type ServerProcess,
} from '../lib/server-process';
import type { BenchSection, Row } from '../lib/types';

/** Keycloak's sizing guide: 120 refresh-token grants per second per vCPU. */
export const KEYCLOAK_REFRESH_PER_VCPU = 120;
/**
 * What the portal keeps of bare oidc-provider (in-memory adapter, own process) in the same run,
 * grant by grant: refresh per database, the others on both.
 */
export const TARGETS = { refresh: { PGlite: 0.6, PostgreSQL: 0.7 }, introspection: 0.6, clientCredentials: 0.6, codeRoundTrip: 0.5 } as const;

/** A first-party product of the checked-in clients file (public: PKCE, client_id only), with its production redirect URI. */
const CLIENT = 'pwdmanager';
/** A product back end made confidential for the run (OAUTH_CLIENT_SECRETS): its client-credentials grants. */
const CONFIDENTIAL = 'secret';
const CONFIDENTIAL_SECRET = randomBytes(32).toString('base64url');
const REDIRECT = 'https://locker.io/auth/callback';
/** Seconds of each measured round. */
const SECONDS = 3;
const CHAINS = 16;
/**
 * Connections of the introspection and client-credentials loads, the same for both servers:
 * enough requests in flight to keep each busy, so that a rate is the server's capacity. At 10
 * bare oidc-provider's main thread was already 0.85-0.9 of a core busy, and the same at 64;
 * the portal's client-credentials grants, each waiting 1-3 ms for its token's commit, kept its
 * main thread only 0.65-0.72 busy with the machine 30 % idle, so the rate at 10 measured that
 * wait rather than what the server can do. Client credentials at 10 is printed beside it.
 */
const CONNECTIONS = 64;
/** The connections of the client-credentials row read at a latency-bound load (INFO). */
const FEW_CONNECTIONS = 10;
/** Portal rounds of that row: a reading for reference, not a figure a target is read against. */
const FEW_CONNECTIONS_ROUNDS = 3;
/**
 * Portal rounds per grant, each between two bare rounds (each refresh chain goes on from the
 * token its last round ended with). Five: one round's ratio moved from 0.42 to 0.82 within a
 * run on a shared 2-core machine, and the median of three then crossed a target either way.
 */
const ROUNDS = 5;
/**
 * An unmeasured round first, as the other sections warm up: the code round trips run the
 * provider's code a hundred times or so, and the first measured round was then still ~30 %
 * slower than the next (668 against 883 grants/s, 1.46 against 1.06 ms of server CPU each).
 */
const REFRESH_WARMUP_SECONDS = 2;

const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});

const p99Of = (latencies: number[]) => Math.round([...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)] ?? 0);


/** One signed-in authorization: /o/authorize with the session cookie, through the provider's redirects, to a code, then tokens. */
async function authorizationRoundTrip(origin: string, sessionToken: string | undefined): Promise<{ refresh_token: string; access_token: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  // The bare provider signs its one account in by itself: no portal cookie to send.
  const cookies = new Map(sessionToken ? [['auth_token', sessionToken]] : []);
  let url = `${origin}/o/authorize?${new URLSearchParams({ client_id: CLIENT, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256', state: 'bench' })}`;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
    await response.body?.cancel();
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
      const tokens = await fetch(`${origin}/oidc/token`, form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: CLIENT }));
      if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${await tokens.text()}`);
      return (await tokens.json()) as { refresh_token: string; access_token: string };
    }
    url = next.href;
  }
  throw new Error('too many redirects');
}

/** Code round trips one after another for SECONDS (and at least until there is a refresh token per chain): the last CHAINS refresh tokens go on. */
async function roundTrips(origin: string, session: string | undefined): Promise<{ rate: number; p99: number; count: number; refreshTokens: string[] }> {
  const latencies: number[] = [];
  const refreshTokens: string[] = [];
  const started = Date.now();
  while (Date.now() - started < SECONDS * 1000 || refreshTokens.length < CHAINS) {
    const t0 = performance.now();
    const tokens = await authorizationRoundTrip(origin, session);
    latencies.push(performance.now() - t0);
    // The last ones: bare oidc-provider's in-memory adapter keeps its 1,000 newest entries, so a fast run's first grants are gone by its end.
    refreshTokens.push(tokens.refresh_token);
    if (refreshTokens.length > CHAINS) refreshTokens.shift();
  }
  return { rate: latencies.length / ((Date.now() - started) / 1000), p99: p99Of(latencies), count: latencies.length, refreshTokens };
}

interface RefreshRound {
  rps: number;
  /** CPU milliseconds the server process spent per grant in the round (from /proc: whatever share of the machine it got). */
  cpuPerGrant: number;
  /** CPU milliseconds this (the clients') process spent per grant in the round. */
  clientCpuPerGrant: number;
  /** CPU milliseconds PostgreSQL's backends spent per grant in the round (a portal on PostgreSQL only). */
  databaseCpuPerGrant?: number;
  errors: number;
  p99: number;
  /** Where each chain stopped: the next round goes on from these. */
  tokens: string[];
}

/**
 * A form POST over a keep-alive connection of `agent`, with node:http: the chains' client. fetch
 * (undici) cost this process ~1 ms of CPU per grant on the cores the server needs, about a
 * third of the server's own; node:http costs less (the note of each round says how much).
 */
function postForm(agent: Agent, url: string, values: Record<string, string>): Promise<{ status: number; text: string }> {
  const body = new URLSearchParams(values).toString();
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Each chain uses the refresh token the previous grant answered (rotation forbids reuse), each over a keep-alive connection of its own. */
async function refreshChains(target: Target, tokens: string[], seconds = SECONDS): Promise<RefreshRound> {
  const { url: origin, pid } = target.server;
  const agent = new Agent({ keepAlive: true, maxSockets: tokens.length });
  const database = target.databaseUrl ? await postgresCpuFrom(target.databaseUrl) : undefined;
  const cpuBefore = processCpuMilliseconds(pid);
  const clientBefore = process.cpuUsage();
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const latencies: number[] = [];
  const last = await Promise.all(
    tokens.map(async (first) => {
      let current = first;
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await postForm(agent, `${origin}/oidc/token`, { grant_type: 'refresh_token', refresh_token: current, client_id: CLIENT });
        const body = JSON.parse(response.text) as { refresh_token?: string };
        latencies.push(performance.now() - started);
        if (response.status !== 200 || !body.refresh_token) {
          errors++;
          return current;
        }
        current = body.refresh_token;
        done++;
      }
      return current;
    }),
  );
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = processCpuMilliseconds(pid);
  const databaseMs = database ? await database.stop() : 0;
  agent.destroy();
  return {
    rps: done / seconds,
    cpuPerGrant: (cpuAfter - cpuBefore) / Math.max(1, done),
    clientCpuPerGrant: (client.user + client.system) / 1000 / Math.max(1, done),
    ...(database ? { databaseCpuPerGrant: databaseMs / Math.max(1, done) } : {}),
    errors,
    p99: p99Of(latencies),
    tokens: last,
  };
}

/** A server the section measures: the portal as deployed, or bare oidc-provider beside it. */
interface Target {
  server: ServerProcess;
  /** The portal's demo session (the bare provider needs none). */
  session?: string;
  /** Where each refresh chain stopped: the next measurement goes on from these. */
  chains: string[];
  /** The portal's PostgreSQL database, whose backends' CPU is read (none: bare, or PGlite in the server's process). */
  databaseUrl?: string;
}

type Trips = Awaited<ReturnType<typeof roundTrips>>;
/**
 * An autocannon run with what each successful answer cost: the server process's CPU (`cpu`,
 * PGlite's worker included), its main thread's, and PostgreSQL's backends' for a portal on
 * PostgreSQL (from /proc).
 */
type Loaded = LoadResult & { cpu: number; mainThread: number; pgliteWorker: number; v8Threads: number; database?: number; machineIdle: number; mainWaitedRunnable: number };

/** One autocannon run (in a worker of this process) with the CPU each successful answer cost (Loaded). */
async function loadWithCpu(target: Target, path: string, body: string, headers: Record<string, string> = {}, connections = CONNECTIONS): Promise<Loaded> {
  const pid = target.server.pid;
  // Everything read at the window's two ends, each once: the process, its main thread and the machine.
  const readings = () => ({ process: processCpuMilliseconds(pid), main: mainThreadTimes(pid), threads: threadGroupTimes(pid), machine: machineCpuMilliseconds(), at: performance.now() });
  let before: ReturnType<typeof readings> | undefined;
  let database: ReturnType<typeof postgresCpuFrom> | undefined;
  const result = await load({
    onStart: () => {
      before = readings();
      if (target.databaseUrl) database = postgresCpuFrom(target.databaseUrl);
    },
    url: `${target.server.url}${path}`,
    connections,
    seconds: SECONDS,
    warmupSeconds: 1,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    requests: [{ method: 'POST', path, body }],
  });
  const after = readings();
  const start = before ?? after;
  const perAnswer = (milliseconds: number) => milliseconds / Math.max(1, result.ok);
  const groupCpu = (name: string) => userPlusSystemMs(threadGroupSpent(start.threads, after.threads, name));
  const idle = after.machine.idle - start.machine.idle;
  return {
    ...result,
    machineIdle: idle / Math.max(1, idle + after.machine.busy - start.machine.busy),
    mainWaitedRunnable: (after.main.runnableWaitMs - start.main.runnableWaitMs) / Math.max(1, after.at - start.at),
    cpu: perAnswer(after.process - start.process),
    mainThread: perAnswer(userPlusSystemMs(after.main) - userPlusSystemMs(start.main)),
    pgliteWorker: perAnswer(groupCpu(PGLITE_THREAD_NAME)),
    v8Threads: perAnswer(groupCpu('V8Worker')),
    ...(database ? { database: perAnswer(await (await database).stop()) } : {}),
  };
}

const basic = `Basic ${Buffer.from(`${CONFIDENTIAL}:${CONFIDENTIAL_SECRET}`).toString('base64')}`;

/**
 * Every grant in alternating rounds, bare provider and portal (bare, portal, bare ... bare), each
 * portal round read against the bare rounds either side of it (alternatingRounds): a ratio
 * compares runs of the same minutes of the shared machine, and its median is the figure.
 */
async function measurePair(bare: Target, portal: Target) {
  const alternate = <T>(run: (target: Target) => Promise<T>, rate: (round: T) => number) => alternatingRounds(ROUNDS, () => run(bare), () => run(portal), rate);
  const trips = await alternate(async (target) => {
    const result = await roundTrips(target.server.url, target.session);
    target.chains = result.refreshTokens;
    return result;
  }, (round) => round.rate);
  for (const target of [bare, portal]) target.chains = (await refreshChains(target, target.chains, REFRESH_WARMUP_SECONDS)).tokens;
  const refresh = await alternate(async (target) => {
    const result = await refreshChains(target, target.chains);
    target.chains = result.tokens;
    return result;
  }, (round) => round.rps);
  const accessTokens = new Map<Target, string>();
  for (const target of [bare, portal]) accessTokens.set(target, (await authorizationRoundTrip(target.server.url, target.session)).access_token);
  const introspection = await alternate(
    (target) => loadWithCpu(target, '/oidc/token/introspection', new URLSearchParams({ token: accessTokens.get(target)!, client_id: CLIENT }).toString()),
    (round) => round.rps,
  );
  const clientCredentials = await alternate((target) => loadWithCpu(target, '/oidc/token', 'grant_type=client_credentials', { authorization: basic }), (round) => round.rps);
  const clientCredentialsFew = await alternatingRounds(
    FEW_CONNECTIONS_ROUNDS,
    () => loadWithCpu(bare, '/oidc/token', 'grant_type=client_credentials', { authorization: basic }, FEW_CONNECTIONS),
    () => loadWithCpu(portal, '/oidc/token', 'grant_type=client_credentials', { authorization: basic }, FEW_CONNECTIONS),
    (round) => round.rps,
  );
  // The portal's cheapest route under the same load: the machine's speed right now.
  const healthz = await load({ url: `${portal.server.url}/healthz`, connections: 10, seconds: SECONDS, warmupSeconds: 1 });
  return { trips, refresh, introspection, clientCredentials, clientCredentialsFew, healthz, load: await loadAverage() };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const listed = (values: number[], digits = 0) => values.map((value) => value.toFixed(digits)).join(', ');

function ratioRow(metric: string, measured: Alternated<unknown>, rates: { portal: number[]; bare: number[] }, target: number, unit: string, note: string, failed = false): Row {
  return {
    metric,
    value: `${measured.ratio.toFixed(2)} (${perSecond(median(rates.portal), unit)} / ${perSecond(median(rates.bare), unit)})`,
    target: `≥ ${target}`,
    status: !failed && measured.ratio >= target ? 'PASS' : 'FAIL',
    note: `median of ${measured.ratios.length} portal rounds, each against the mean of the bare rounds just before and after it: ${listed(measured.ratios, 2)}; rounds portal ${listed(rates.portal)}, bare ${listed(rates.bare)} ${unit}; ${note}`,
  };
}

function rows(label: 'PGlite' | 'PostgreSQL', m: Awaited<ReturnType<typeof measurePair>>, cores: number): Row[] {
  const cpuNote = (portalMs: number, bareMs: number) => `server CPU per answer ${portalMs.toFixed(2)} ms against ${bareMs.toFixed(2)} ms (${(bareMs / portalMs).toFixed(2)} of bare by CPU${label === 'PostgreSQL' ? ', database backends not included' : ', PGlite included'})`;
  const threadsNote = (measured: Alternated<Loaded>) => {
    const of = (rounds: Loaded[], pick: (round: Loaded) => number | undefined) => mean(rounds.map((round) => pick(round) ?? 0)).toFixed(2);
    const database = label === 'PostgreSQL' ? `, PostgreSQL's backends ${of(measured.subject, (round) => round.database)} ms` : `, PGlite's worker ${of(measured.subject, (round) => round.pgliteWorker)} ms, V8's threads (the garbage collector's helpers) ${of(measured.subject, (round) => round.v8Threads)} ms`;
    // How much of a core each main thread kept busy (its CPU per answer times answers per second), and the machine's idle share: the rate follows the main thread's CPU per answer, at the share of a core it gets.
    const busy = (rounds: Loaded[]) => mean(rounds.map((round) => (round.mainThread * round.rps) / 1000)).toFixed(2);
    const idle = (rounds: Loaded[]) => `${Math.round(mean(rounds.map((round) => round.machineIdle)) * 100)} %`;
    const waited = (rounds: Loaded[]) => mean(rounds.map((round) => round.mainWaitedRunnable)).toFixed(2);
    return `per answer the portal's main thread ${of(measured.subject, (round) => round.mainThread)} ms${database}; bare's main thread ${of(measured.reference, (round) => round.mainThread)} ms; the main thread busy ${busy(measured.subject)} of a core against bare's ${busy(measured.reference)} and runnable without a core ${waited(measured.subject)} of the round against ${waited(measured.reference)} (schedstat), the machine idle ${idle(measured.subject)} against ${idle(measured.reference)}`;
  };
  const loaded = (measured: Alternated<Loaded>, note: string, target: number, metric: string, unit: string, connections = CONNECTIONS) => {
    const all = [...measured.subject, ...measured.reference];
    const worst = (rounds: Loaded[]) => rounds.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    return ratioRow(
      metric,
      measured,
      { portal: measured.subject.map((round) => round.rps), bare: measured.reference.map((round) => round.rps) },
      target,
      unit,
      `autocannon, ${connections} connections${note}; worst round portal ${describeLoad(worst(measured.subject))}; bare ${describeLoad(worst(measured.reference))}; ${cpuNote(mean(measured.subject.map((round) => round.cpu)), mean(measured.reference.map((round) => round.cpu)))}; ${threadsNote(measured)}`,
      !all.every(clean),
    );
  };
  const refreshErrors = [...m.refresh.subject, ...m.refresh.reference].reduce((sum, round) => sum + round.errors, 0);
  const portalRefresh = median(m.refresh.subject.map((round) => round.rps));
  return [
    { metric: `${label}: GET /healthz of the portal (machine speed now)`, value: `${perSecond(m.healthz.rps)}, p99 ${m.healthz.p99} ms`, status: clean(m.healthz) ? 'INFO' : 'FAIL', note: `${describeLoad(m.healthz)}; ${m.load}` },
    ratioRow(
      `${label}: code round trips (signed in: authorize → code → token), portal / bare oidc-provider`,
      m.trips,
      { portal: m.trips.subject.map((round: Trips) => round.rate), bare: m.trips.reference.map((round: Trips) => round.rate) },
      TARGETS.codeRoundTrip,
      'flows/s',
      `each round one flow after another for ${SECONDS} s, 5 requests each; p99 ${median(m.trips.subject.map((round) => round.p99))} ms against ${median(m.trips.reference.map((round) => round.p99))} ms (medians)`,
    ),
    ratioRow(
      `${label}: refresh-token grants (rotated), portal / bare oidc-provider`,
      m.refresh,
      { portal: m.refresh.subject.map((round) => round.rps), bare: m.refresh.reference.map((round) => round.rps) },
      TARGETS.refresh[label],
      'grants/s',
      `rounds of ${SECONDS} s after ${REFRESH_WARMUP_SECONDS} s of warm-up each, ${CHAINS} chains each using the token the last grant answered; p99 ${median(m.refresh.subject.map((round) => round.p99))} ms against ${median(m.refresh.reference.map((round) => round.p99))} ms (medians); ${cpuNote(mean(m.refresh.subject.map((round) => round.cpuPerGrant)), mean(m.refresh.reference.map((round) => round.cpuPerGrant)))}${label === 'PostgreSQL' ? `; PostgreSQL's backends ${mean(m.refresh.subject.map((round) => round.databaseCpuPerGrant ?? 0)).toFixed(2)} ms per grant` : ''}; the chains' client ${mean(m.refresh.subject.map((round) => round.clientCpuPerGrant)).toFixed(2)} ms against ${mean(m.refresh.reference.map((round) => round.clientCpuPerGrant)).toFixed(2)} ms per grant; ${refreshErrors} errors`,
      refreshErrors > 0,
    ),
    loaded(m.introspection, '', TARGETS.introspection, `${label}: introspections (RFC 7662), portal / bare oidc-provider`, 'req/s'),
    loaded(m.clientCredentials, ', client_secret_basic', TARGETS.clientCredentials, `${label}: client-credentials grants, portal / bare oidc-provider`, 'grants/s'),
    {
      ...loaded(m.clientCredentialsFew, ', client_secret_basic', TARGETS.clientCredentials, `${label}: client-credentials grants at ${FEW_CONNECTIONS} connections (each waits for its commit), portal / bare oidc-provider`, 'grants/s', FEW_CONNECTIONS),
      target: 'for reference',
      status: 'INFO',
    },
    {
      metric: `${label}: refresh grants per core / Keycloak's ${KEYCLOAK_REFRESH_PER_VCPU} per vCPU`,
      value: (portalRefresh / cores / KEYCLOAK_REFRESH_PER_VCPU).toFixed(2),
      status: 'INFO',
      note: `${(portalRefresh / cores).toFixed(0)} grants/s per core (the median round), ${cores} cores shared by both servers, the bench's clients and the database`,
    },
  ];
}

/**
 * The provider as deployed against bare oidc-provider in the same run: `src/main.ts` in a
 * process of its own (production, request logs at info to a file), on embedded PGlite and on a
 * fresh PostgreSQL database, beside bare-oidc-server.ts (the same oidc-provider, in-memory
 * adapter) in a process of its own. The load comes from this process: node:http keep-alive
 * connections for the refresh chains, autocannon in a worker thread for introspection and
 * client credentials. The demo account signs in; `pwdmanager`, a public first-party client,
 * runs the code flow with its production redirect URI; `secret` is made confidential for
 * client credentials.
 */
export const oidcThroughput: BenchSection = {
  name: 'oidc',
  title: 'OpenID Connect provider as deployed against bare oidc-provider: code round trip, refresh, introspection, client credentials',
  async run(context: BenchContext): Promise<Row[]> {
    const cores = availableParallelism();
    const out: Row[] = [];
    const bareServer = await startBareOidcProcess(CONFIDENTIAL_SECRET);
    const bare: Target = { server: bareServer, chains: [] };
    const env = { OAUTH_CLIENT_SECRETS: `${CONFIDENTIAL}=${CONFIDENTIAL_SECRET}` };
    const against = async (label: 'PGlite' | 'PostgreSQL', databaseUrl?: string) => {
      const server = await startPortalProcess({ databaseUrl, env });
      try {
        const session = await signIn(server, { ...server.demo, deviceId: 'bench-oidc' });
        out.push(...rows(label, await measurePair(bare, { server, session, chains: [], databaseUrl }), cores));
      } finally {
        await server.stop();
      }
    };
    try {
      await against('PGlite');
      const databaseUrl = await context.postgresDatabase();
      if (databaseUrl) await against('PostgreSQL', databaseUrl);
      else out.push({ metric: 'PostgreSQL', value: 'n/a', status: 'INFO', note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)' });
    } finally {
      await bareServer.stop();
    }
    return out;
  },
};
