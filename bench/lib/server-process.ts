import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import type { DatabaseHandle } from '../../packages/server/src/db/client';
export { PGLITE_THREAD_NAME } from '../../packages/server/src/db/pglite-remote';
export { ARGON2_THREAD_NAME } from '../../packages/server/src/platform/argon2-threads';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A server in a process of its own, as an operator runs it; its log goes to a file, as it would in production. */
export interface ServerProcess {
  url: string;
  /** The server's process id (its memory is read from /proc). */
  pid: number;
  /** What the process has written so far (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startProcess(args: string[], env: Record<string, string>, ready: string): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  const logFile = path.join(dir, 'server.log');
  const fd = openSync(logFile, 'w');
  // The bench's own settings (a DATABASE_URL or REDIS_URL in the shell) must not reach the server: it runs on embedded PGlite unless told otherwise.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const url = `http://127.0.0.1:${env.PORT}`;
  const log = () => readFileSync(logFile, 'utf8');
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}${ready}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`not ready in 90 s:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    log,
    stop: async () => {
      // Not after it exited, or was killed (a SIGKILL leaves exitCode null and sets signalCode).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The portal's own `src/main.ts` in production mode with request logs at info, on embedded
 * PGlite in a fresh folder (or on the PostgreSQL database `databaseUrl`), with the demo
 * account (its password read from the log). `seed` runs first on the migrated database,
 * opened here and closed before the server starts (PGlite allows one process at a time).
 */
export async function startPortalProcess(
  options: { databaseUrl?: string; env?: Record<string, string>; seed?: (database: DatabaseHandle) => Promise<void>; nodeArgs?: string[] } = {},
): Promise<ServerProcess & { demo: { email: string; password: string } }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-data-'));
  if (options.seed) {
    const { openDatabase } = await import('../../packages/server/src/db/client');
    const { migrate } = await import('../../packages/server/src/db/migrate');
    const database = await openDatabase(options.databaseUrl ? { url: options.databaseUrl } : { dataDir });
    try {
      await migrate(database);
      await options.seed(database);
    } finally {
      await database.close();
    }
  }
  // BENCH_SERVER_PROFILE_DIR=dir: the server writes a V8 CPU profile there when it stops (for finding where a figure goes).
  const profile = process.env.BENCH_SERVER_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE_DIR}`] : [];
  const server = await startProcess(
    [...profile, ...(options.nodeArgs ?? []), '--import', 'tsx', 'packages/server/src/main.ts'],
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      PLATFORM_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      SEED_DEMO: 'true',
      ALTCHA_HMAC_KEY: randomBytes(24).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      DELETION_JOB_INTERVAL_SECONDS: '0',
      BILLING_JOB_INTERVAL_SECONDS: '0',
      // The bench's many requests come from one address.
      RATE_LIMITS: 'signin:ip=100000/600',
      ...options.env,
    },
    '/readyz',
  );
  const stop = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Without the demo account (SEED_DEMO=false, e.g. a restart on the same database): nothing to read from the log.
  if (options.env?.SEED_DEMO === 'false') return { ...server, demo: { email: '', password: '' }, stop };
  let match: RegExpExecArray | null = null;
  for (let attempt = 0; attempt < 50 && !match; attempt++) {
    match = /demo account created: (\S+) \/ (\S+) \(shown only this once\)/.exec(server.log());
    if (!match) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!match) throw new Error(`no demo account in the log:\n${server.log()}`);
  return {
    ...server,
    demo: { email: match[1]!, password: match[2]! },
    stop,
  };
}

/** A bare Fastify hello-world in its own process, logging each request at info like the portal (Fastify's two lines, to stdout as the portal writes its log: stdoutLog). */
export async function startHelloWorldProcess(): Promise<ServerProcess> {
  const port = await freePort();
  const logger = pathToFileURL(path.join(ROOT, 'packages', 'server', 'src', 'platform', 'logger.ts')).href;
  const script = `
    import Fastify from 'fastify';
    import { stdoutLog } from '${logger}';
    const fastify = Fastify({ logger: { level: 'info', stream: stdoutLog() } });
    fastify.get('/healthz', async () => ({ status: 'ok' }));
    await fastify.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  return startProcess(['--import', 'tsx', '--input-type=module', '-e', script], { NODE_ENV: 'production', PORT: String(port) }, '/healthz');
}

/** bare-sign-in-server.ts in its own process: HTTP, argon2 on the portal's threads, a log line and a token, nothing else. */
export async function startBareSignInProcess(password: string): Promise<ServerProcess> {
  const port = await freePort();
  return startProcess(['--import', 'tsx', path.join(ROOT, 'bench', 'lib', 'bare-sign-in-server.ts')], { NODE_ENV: 'production', PORT: String(port), BARE_SIGN_IN_PASSWORD: password }, '/healthz');
}

/**
 * bare-oidc-server.ts in its own process: oidc-provider with its in-memory adapter, the
 * reference of the `oidc` section. `confidentialSecret` is the secret of its confidential client.
 */
export async function startBareOidcProcess(confidentialSecret: string): Promise<ServerProcess> {
  const port = await freePort();
  // Profiled beside the portal (BENCH_SERVER_PROFILE_DIR), under a name of its own: the two profiles read side by side.
  const profile = process.env.BENCH_SERVER_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE_DIR}`, '--cpu-prof-name=bare-oidc-provider.cpuprofile'] : [];
  return startProcess([...profile, '--import', 'tsx', path.join(ROOT, 'bench', 'lib', 'bare-oidc-server.ts')], { NODE_ENV: 'production', PORT: String(port), BARE_CONFIDENTIAL_SECRET: confidentialSecret }, '/healthz');
}

/** CPU time (user + system) process `pid` has used so far, in milliseconds, from /proc (Linux). */
export function processCpuMilliseconds(pid: number): number {
  const { user, system } = cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return ticksToMilliseconds(user + system);
}

/** User and system CPU, in milliseconds. */
export interface CpuTimes {
  userMs: number;
  systemMs: number;
}

/** Both together. */
export const userPlusSystemMs = (times: CpuTimes) => times.userMs + times.systemMs;

/** What a process's main thread has spent so far: user and system CPU, and how often the scheduler took the CPU from it. */
export interface ThreadTimes extends CpuTimes {
  /** Involuntary context switches: times it was preempted while it still had work. */
  preemptions: number;
  /** Time it spent runnable but waiting for a core (schedstat's run-queue wait), in milliseconds. */
  runnableWaitMs: number;
}

/**
 * The times of process `pid`'s main thread so far (the thread whose id is the process's), from
 * /proc (Linux). The server's JavaScript runs there; PGlite's queries run in a worker thread
 * (db/pglite-remote.ts) and argon2 on threads of its own (argon2-threads.ts), which make up the
 * rest of the process's CPU. Beside those threads
 * the same JavaScript costs more than alone (caches emptied by their 19 MiB each,
 * preemptions): user time and preemptions tell that apart from system calls.
 */
export function mainThreadTimes(pid: number): ThreadTimes {
  const { user, system } = cpuTicks(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
  const preempted = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'));
  // schedstat: nanoseconds on a core, nanoseconds runnable on a run queue, time slices.
  const waitNs = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1] ?? 0);
  return { userMs: ticksToMilliseconds(user), systemMs: ticksToMilliseconds(system), preemptions: Number(preempted?.[1] ?? 0), runnableWaitMs: waitNs / 1e6 };
}

/** CPU of a process's threads, summed by the thread's name. */
export type ThreadGroups = Record<string, CpuTimes>;

/**
 * What each group of process `pid`'s threads has spent so far, by thread name from /proc
 * (Linux): ARGON2_THREAD_NAME (argon2-threads.ts), PGLITE_THREAD_NAME (db/pglite-remote.ts), `V8Worker` (V8's
 * platform threads: the garbage collector's helpers, compilers), the main thread as `main`.
 * A thread that ended meanwhile is missing from the later reading.
 */
export function threadGroupTimes(pid: number): ThreadGroups {
  const groups: ThreadGroups = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended between the listing and the read
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const { user, system } = cpuTicks(stat);
    const group = (groups[name] ??= { userMs: 0, systemMs: 0 });
    group.userMs += ticksToMilliseconds(user);
    group.systemMs += ticksToMilliseconds(system);
  }
  return groups;
}

/** What a thread group spent between two readings (threadGroupTimes). */
export function threadGroupSpent(before: ThreadGroups, after: ThreadGroups, name: string): CpuTimes {
  const was = before[name] ?? { userMs: 0, systemMs: 0 };
  const is = after[name] ?? { userMs: 0, systemMs: 0 };
  return { userMs: is.userMs - was.userMs, systemMs: is.systemMs - was.systemMs };
}

function cpuTicks(stat: string): { user: number; system: number } {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 14th field, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

function ticksToMilliseconds(ticks: number): number {
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ, 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The whole machine's CPU so far, in milliseconds, from /proc/stat's first line (Linux): busy, and idle (iowait included). */
export function machineCpuMilliseconds(): { busy: number; idle: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1, 9).map(Number) as number[];
  const ms = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  return { busy: ms(user! + nice! + system! + irq! + softirq! + steal!), idle: ms(idle! + iowait!) };
}

/**
 * The CPU PostgreSQL's backends of database `databaseUrl` spend from now until `stop()`, read
 * from /proc every 250 ms by backend: a pool's connection that closes meanwhile still counts up
 * to its last reading (a sum read only at both ends would lose it, or go negative).
 */
export async function postgresCpuFrom(databaseUrl: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const read = async (into: Map<number, number>) => {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    for (const { pid } of rows) {
      try {
        into.set(pid, processCpuMilliseconds(pid));
      } catch {
        // gone since
      }
    }
  };
  await read(first);
  let reading = Promise.resolve();
  const timer = setInterval(() => void (reading = reading.then(() => read(last))), 250);
  return {
    async stop(): Promise<number> {
      clearInterval(timer);
      await reading;
      await read(last);
      await client.end();
      return [...last].reduce((total, [pid, ms]) => total + ms - (first.get(pid) ?? 0), 0);
    },
  };
}

/**
 * A full garbage collection in a server started with `nodeArgs: ['--inspect=127.0.0.1:0']`,
 * through its inspector (HeapProfiler.collectGarbage, twice: the second frees what the first's
 * finalizers released), then the heap it keeps: V8 otherwise gives memory back at a moment of
 * its own, and an RSS reading then moves by ±60 MB.
 */
export async function collectGarbage(server: Pick<ServerProcess, 'log'>): Promise<{ heapUsedBytes: number }> {
  const address = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(server.log())?.[0];
  if (!address) throw new Error('the server has no inspector (start it with --inspect=127.0.0.1:0)');
  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  // One listener answers each call by its id (the inspector may also send events).
  type Answer = { id?: number; result?: { usedSize?: number } };
  const waiting = new Map<number, (answer: Answer) => void>();
  socket.on('message', (data) => {
    const answer = JSON.parse(String(data)) as Answer;
    if (answer.id !== undefined) waiting.get(answer.id)?.(answer);
  });
  let nextId = 0;
  const call = (method: string) =>
    new Promise<Answer>((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    return { heapUsedBytes: (await call('Runtime.getHeapUsage')).result?.usedSize ?? Number.NaN };
  } finally {
    socket.close();
  }
}

