import { clientHeaders, seedAccounts, type BenchAccount } from '../lib/accounts';
import type { BenchContext } from '../lib/context';
import { load, clean, describeLoad, loadAverage, perSecond, type LoadResult } from '../lib/load';
import {
  ARGON2_THREAD_NAME,
  machineCpuMilliseconds,
  mainThreadTimes,
  PGLITE_THREAD_NAME,
  postgresCpuFrom,
  processCpuMilliseconds,
  startBareSignInProcess,
  startHelloWorldProcess,
  startPortalProcess,
  threadGroupSpent,
  threadGroupTimes,
  userPlusSystemMs,
  type CpuTimes,
  type ServerProcess,
  type ThreadGroups,
  type ThreadTimes,
} from '../lib/server-process';
import type { BenchSection, Row } from '../lib/types';
import { meAgainstHelloWorld, SESSION_READ_TARGET } from './session-read';
import { median } from '../lib/rounds';
import { CONCURRENCY, rawVerifyThreads, SIGN_IN_TARGET, verifyLoops, WARMUP_SECONDS, type RawRound, type Verify } from './sign-in';

/** The servers run in processes of their own: autocannon runs on this process's idle main thread (see `inWorker`). */
const LOAD = { connections: 10, seconds: 5, warmupSeconds: 1, inWorker: false } as const;

/** Password sign-ins as deployed: seconds per round, paired rounds per workload, accounts seeded. */
const SIGN_IN_SECONDS = 3;
/** Five, not three: the raw-verify rounds alone move by ±10 % from one to the next on this machine, so a median of three moved the ratio by ±0.1. */
const SIGN_IN_ROUNDS = 5;
const SIGN_IN_ACCOUNTS = 8;

type SignInRequests = NonNullable<Parameters<typeof load>[0]['requests']>;

/** One workload of sign-ins against one server process, and its rounds (each taken against the raw rounds either side of it). */
interface SignInWorkload {
  label: string;
  server: ServerProcess;
  /** The server's PostgreSQL database, whose backends' CPU is counted (undefined: PGlite, in the server's process). */
  databaseUrl?: string;
  requests: SignInRequests;
  rounds: SignInRound[];
  /** The bare sign-in server: a reference the portal's workloads are read against, with no target of its own. */
  ceiling?: true;
}

interface SignInRound {
  /** The mean of the raw rounds just before and after it (`bracket`). */
  raw: RawRound;
  rps: number;
  /** Sign-ins per CPU-second the server process spent in the window. */
  perServerCpuSecond: number;
  /** The server's main thread per sign-in (JavaScript, and PGlite's queries; argon2 runs on threads of its own): CPU milliseconds and preemptions. */
  mainThread: ThreadTimes;
  /** The server's argon2 threads per sign-in (argon2-threads.ts), CPU milliseconds: beside a database they cost more than in the bare server. */
  argon2: CpuTimes;
  /** PGlite's worker thread (on PGlite) and V8's platform threads (the garbage collector's helpers) per sign-in, CPU milliseconds. */
  pglite: number;
  v8: number;
  /** Where the machine's time went per sign-in, in milliseconds. */
  machine: MachineShare;
  result: LoadResult;
}

/**
 * The machine's time per sign-in, by who spent it: the server process, PostgreSQL's backends,
 * the load generator (this process) and nobody (idle). On two shared cores, what is not the
 * server's is what keeps the ratio per second below the ratio per server CPU-second.
 */
interface MachineShare {
  server: number;
  postgres: number;
  loadGenerator: number;
  idle: number;
}

const signInRequest = (account: BenchAccount, deviceId = account.deviceId) => ({
  method: 'POST' as const,
  path: '/v3/sso/auth',
  headers: clientHeaders({ ...account, deviceId }),
  body: JSON.stringify({ email: account.email, password: account.password }),
});

/** Sign-ins round-robin over the accounts, and one account from CONCURRENCY clients (device ids) at once. */
function workloads(label: string, server: ServerProcess, accounts: BenchAccount[], databaseUrl?: string): SignInWorkload[] {
  const one = accounts[0]!;
  return [
    { label: `${accounts.length} accounts, ${label}`, server, databaseUrl, requests: accounts.map((account) => signInRequest(account)), rounds: [] },
    {
      label: `one account from ${CONCURRENCY} clients at once, ${label}`,
      server,
      databaseUrl,
      requests: Array.from({ length: CONCURRENCY }, (_, i) => signInRequest(one, `${one.deviceId}-client-${i}`)),
      rounds: [],
    },
  ];
}

/** One measured round of sign-ins against the server process, with the CPU that process spent in the window. */
async function signInRound(w: SignInWorkload): Promise<Omit<SignInRound, 'raw'>> {
  let cpuBefore = 0;
  let mainBefore: ThreadTimes = { userMs: 0, systemMs: 0, preemptions: 0, runnableWaitMs: 0 };
  let threadsBefore: ThreadGroups = {};
  let cpuStart = 0;
  let machineBefore = { busy: 0, idle: 0 };
  let benchBefore = process.cpuUsage();
  let postgres: ReturnType<typeof postgresCpuFrom> | undefined;
  const result = await load({
    url: w.server.url,
    connections: CONCURRENCY,
    seconds: SIGN_IN_SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    inWorker: false,
    requests: w.requests,
    onStart: () => {
      cpuBefore = processCpuMilliseconds(w.server.pid);
      mainBefore = mainThreadTimes(w.server.pid);
      threadsBefore = threadGroupTimes(w.server.pid);
      machineBefore = machineCpuMilliseconds();
      benchBefore = process.cpuUsage();
      if (w.databaseUrl) postgres = postgresCpuFrom(w.databaseUrl);
      cpuStart = performance.now();
    },
  });
  const cpuMs = processCpuMilliseconds(w.server.pid) - cpuBefore;
  const mainAfter = mainThreadTimes(w.server.pid);
  const threadsAfter = threadGroupTimes(w.server.pid);
  const spent = (name: string) => threadGroupSpent(threadsBefore, threadsAfter, name);
  const machineAfter = machineCpuMilliseconds();
  const bench = process.cpuUsage(benchBefore);
  const postgresMs = postgres ? await (await postgres).stop() : 0;
  const perSignIn = (ms: number) => ms / Math.max(1, result.ok);
  const machine = {
    server: perSignIn(cpuMs),
    postgres: perSignIn(postgresMs),
    loadGenerator: perSignIn((bench.user + bench.system) / 1000),
    idle: perSignIn(machineAfter.idle - machineBefore.idle),
  };
  // The window may overrun the measured seconds a little (in-flight answers): the CPU is scaled to them.
  const scaled = cpuMs * ((SIGN_IN_SECONDS * 1000) / Math.max(SIGN_IN_SECONDS * 1000, performance.now() - cpuStart));
  const mainThread = {
    userMs: perSignIn(mainAfter.userMs - mainBefore.userMs),
    systemMs: perSignIn(mainAfter.systemMs - mainBefore.systemMs),
    preemptions: perSignIn(mainAfter.preemptions - mainBefore.preemptions),
    runnableWaitMs: perSignIn(mainAfter.runnableWaitMs - mainBefore.runnableWaitMs),
  };
  const argon2 = spent(ARGON2_THREAD_NAME);
  return {
    rps: result.rps,
    perServerCpuSecond: result.ok / (scaled / 1000),
    mainThread,
    argon2: { userMs: perSignIn(argon2.userMs), systemMs: perSignIn(argon2.systemMs) },
    pglite: perSignIn(userPlusSystemMs(spent(PGLITE_THREAD_NAME))),
    v8: perSignIn(userPlusSystemMs(spent('V8Worker'))),
    machine,
    result,
  };
}

/** The raw rate a server round is taken against: the mean of the raw rounds either side of it. */
function bracket(before: RawRound, after: RawRound): RawRound {
  const mean = (pick: (round: RawRound) => number) => (pick(before) + pick(after)) / 2;
  return { rps: mean((r) => r.rps), perCpuSecond: mean((r) => r.perCpuSecond), meanMs: mean((r) => r.meanMs) };
}

function signInRows(w: SignInWorkload): Row[] {
  const wall = w.rounds.map((round) => round.rps / round.raw.rps);
  const cpu = w.rounds.map((round) => round.perServerCpuSecond / round.raw.perCpuSecond);
  const failures = w.rounds.reduce((sum, round) => sum + round.result.non2xx + round.result.errors, 0);
  const best = w.rounds.reduce((a, b) => (b.rps > a.rps ? b : a)).result;
  const ratio = median(wall);
  const listed = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  if (w.ceiling) {
    return [
      {
        metric: `sign-ins, ${w.label}`,
        value: perSecond(median(w.rounds.map((round) => round.rps)), 'sign-in/s'),
        status: clean(best) && failures === 0 ? 'INFO' : 'FAIL',
        note: `${describeLoad(best)}; bench/lib/bare-sign-in-server.ts: a bare Fastify logging each request at info, the password checked on the portal's argon2 threads, a new token in a cookie; no database, hooks, limits or validation`,
      },
      {
        metric: '  ratio to raw verify, per second (the ceiling)',
        value: ratio.toFixed(2),
        status: 'INFO',
        note: `what any sign-in over HTTP keeps of raw verifications on this machine: the portal's ratios above are read against it (rounds ${listed(wall)}); its main thread ${describeMainThread(w)}; the machine's time per sign-in (medians, ms): ${describeMachine(w)}`,
      },
    ];
  }
  return [
    {
      metric: `sign-ins as deployed, ${w.label}`,
      value: perSecond(median(w.rounds.map((round) => round.rps)), 'sign-in/s'),
      status: clean(best) && failures === 0 ? 'INFO' : 'FAIL',
      note: `${describeLoad(best)} (best round; all rounds: ${failures} errors + non-2xx); raw verify rates it was taken against (means of the rounds either side) ${w.rounds.map((round) => `${round.raw.rps.toFixed(0)}/s`).join(', ')}`,
    },
    {
      metric: '  ratio to raw verify, per second',
      value: ratio.toFixed(2),
      target: `≥ ${SIGN_IN_TARGET}`,
      status: ratio >= SIGN_IN_TARGET ? 'PASS' : 'FAIL',
      note: `median of ${w.rounds.length} rounds, each against the mean of the raw rounds just before and after it: ${listed(wall)}; per CPU-second of the server process against the bench's for raw verifies ${listed(cpu)} (median ${median(cpu).toFixed(2)}${w.label.includes('PGlite') ? ', PGlite queries included' : ', PostgreSQL backends not included'}); the server's main thread (argon2 runs on threads of its own) ${describeMainThread(w)}; the machine's time per sign-in (medians, ms): ${describeMachine(w)}`,
    },
  ];
}

/** The main thread's CPU per sign-in and its parts (medians): user time that grows beside argon2 is contention, not system calls. */
function describeMainThread(w: SignInWorkload): string {
  const of = (pick: (times: ThreadTimes) => number) => median(w.rounds.map((round) => pick(round.mainThread))).toFixed(1);
  return `${of(userPlusSystemMs)} ms of CPU per sign-in (medians: user ${of((times) => times.userMs)}, system ${of((times) => times.systemMs)}; preempted ${of((times) => times.preemptions)} times, ${of((times) => times.runnableWaitMs)} ms runnable without a core)`;
}

function describeMachine(w: SignInWorkload): string {
  const of = (pick: (share: MachineShare) => number) => median(w.rounds.map((round) => pick(round.machine))).toFixed(1);
  const postgres = w.databaseUrl ? `, PostgreSQL's backends ${of((share) => share.postgres)}` : '';
  const argon2 = (pick: (times: CpuTimes) => number) => median(w.rounds.map((round) => pick(round.argon2))).toFixed(1);
  const thread = (pick: (round: SignInRound) => number) => median(w.rounds.map(pick)).toFixed(1);
  const pglite = w.databaseUrl || w.ceiling ? '' : `, PGlite's worker ${thread((round) => round.pglite)}`;
  const threads = `its argon2 threads ${argon2(userPlusSystemMs)}, ${argon2((times) => times.systemMs)} of it system time${pglite}, V8's threads ${thread((round) => round.v8)}`;
  return `server process ${of((share) => share.server)} (${threads})${postgres}, load generator ${of((share) => share.loadGenerator)}, idle ${of((share) => share.idle)}, against ${median(w.rounds.map((round) => 1000 / round.raw.perCpuSecond)).toFixed(1)} of CPU per raw verification`;
}

/**
 * Password sign-ins against the server process on PGlite (`pglite`, seeded with the accounts
 * already) and on a PostgreSQL database of its own (when one answers), against raw argon2id
 * verifies (ARGON2_PARAMS, what the server's verifyPassword runs) in this process at the same
 * concurrency, rounds alternating.
 */
async function signInsAsDeployed(context: BenchContext, pglite: ServerProcess, pgliteAccounts: BenchAccount[]): Promise<Row[]> {
  const { hashPassword, ARGON2_PARAMS } = await import('../../packages/server/src/platform/passwords');
  const { verify } = await import('@node-rs/argon2');
  const password = 'bench-raw-verify-password';
  const rawHash = await hashPassword(password);
  const databaseUrl = await context.postgresDatabase();
  let postgresAccounts: BenchAccount[] = [];
  const postgres = databaseUrl
    ? await startPortalProcess({ databaseUrl, seed: async (database) => void (postgresAccounts = await seedAccounts({ database }, 'deployed-pg', SIGN_IN_ACCOUNTS)) })
    : undefined;
  const bare = await startBareSignInProcess(password);
  try {
    const ceiling: SignInWorkload = {
      label: 'bare Fastify + argon2 threads, no database',
      server: bare,
      requests: pgliteAccounts.map((account) => signInRequest({ ...account, password })),
      rounds: [],
      ceiling: true,
    };
    const all = [...workloads('PGlite', pglite, pgliteAccounts), ...(postgres ? workloads('PostgreSQL', postgres, postgresAccounts, databaseUrl) : []), ceiling];
    const rawRound = () => verifyLoops(verify as Verify, rawHash, password, CONCURRENCY, SIGN_IN_SECONDS);
    await verifyLoops(verify as Verify, rawHash, password, CONCURRENCY, WARMUP_SECONDS);
    // Raw and server rounds alternate, and each server round is taken against the mean of the
    // raw rounds just before and just after it: the machine's speed drifts between rounds (raw
    // rounds 7 s apart differ by up to 15 % here), and a bracket cancels a steady drift, where
    // the round before alone passed all of it to the ratio.
    let before = await rawRound();
    for (let round = 0; round < SIGN_IN_ROUNDS; round++) {
      for (const w of all) {
        const measured = await signInRound(w);
        const after = await rawRound();
        w.rounds.push({ raw: bracket(before, after), ...measured });
        before = after;
      }
    }
    const logged = (server: ServerProcess) => server.log().split('\n').filter((line) => line.includes('/v3/sso/auth')).length;
    const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
    return [
      {
        metric: 'raw argon2id verify, bench process',
        value: perSecond(median(all.flatMap((w) => w.rounds.map((round) => round.raw.rps))), 'verify/s'),
        status: 'INFO',
        note: `m=${memoryCost},t=${timeCost},p=${parallelism}; ${CONCURRENCY} at once, as many as the sign-in clients, ${rawVerifyThreads()}; ${SIGN_IN_SECONDS} s rounds after ${WARMUP_SECONDS} s warm-up; ${await loadAverage()}`,
      },
      ...all.flatMap(signInRows),
      ...(postgres ? [] : [{ metric: 'sign-ins as deployed on PostgreSQL', value: 'n/a', status: 'INFO' as const, note: 'no PostgreSQL answered (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)' }]),
      {
        metric: '  request log lines for /v3/sso/auth',
        value: [pglite, ...(postgres ? [postgres] : [])].map((server) => logged(server).toLocaleString('en-US')).join(' / '),
        status: 'INFO',
        note: 'PGlite / PostgreSQL server processes, logs at info',
      },
    ];
  } finally {
    await postgres?.stop();
    await bare.stop();
  }
}

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
  async run(context: BenchContext): Promise<Row[]> {
    let accounts: BenchAccount[] = [];
    const portal = await startPortalProcess({ seed: async (database) => void (accounts = await seedAccounts({ database }, 'deployed', SIGN_IN_ACCOUNTS)) });
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
      const { bareResult, meResult, ratio, settings, ratioNote } = await meAgainstHelloWorld(LOAD, `${bare.url}/healthz`, `${portal.url}/v3/sso/me`, headers);
      const logged = portal.log().split('\n').filter((line) => line.includes('/v3/sso/me')).length;
      return [
        { metric: 'bare Fastify hello-world (own process, logs at info)', value: `${perSecond(bareResult.rps)}, p99 ${bareResult.p99} ms`, status: clean(bareResult) ? 'INFO' : 'FAIL', note: `${describeLoad(bareResult)}; ${settings}` },
        {
          metric: 'GET /v3/sso/me (main.ts, production, logs at info)',
          value: `${perSecond(meResult.rps)}, p99 ${meResult.p99} ms`,
          status: clean(meResult) && logged > 0 ? 'INFO' : 'FAIL',
          note: `${describeLoad(meResult)}; ${logged.toLocaleString('en-US')} request log lines written for it; PGlite`,
        },
        {
          metric: 'ratio /sso/me / bare, as deployed',
          value: ratio.toFixed(2),
          target: `≥ ${SESSION_READ_TARGET}`,
          status: ratio >= SESSION_READ_TARGET ? 'PASS' : 'FAIL',
          note: ratioNote,
        },
        ...(await signInsAsDeployed(context, portal, accounts)),
      ];
    } finally {
      await portal.stop();
      await bare.stop();
    }
  },
};
