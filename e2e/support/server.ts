import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pgliteTemplate } from './pglite-template';
import { runOperatorCommand, serverCommand, type ServerEntry } from '../../packages/server/test/server-bundle';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WEB_DIST = path.join(ROOT, 'packages', 'web', 'dist');
const LOG_DIR = path.join(ROOT, '.cache', 'e2e');
/**
 * A copy of the migrated template at `dataDir` when nothing is there yet (an operator command or
 * a server then opens it without migrating from scratch). By `cp -R`: a run makes some 25 copies
 * of its 1,300 files, and Node's fs.cp took 1.1-1.5 s for each on a busy CI machine, cp 0.8-1.0 s.
 */
async function seedDataDir(dataDir: string): Promise<void> {
  const template = pgliteTemplate();
  if (template && existsSync(template) && !existsSync(dataDir)) await promisify(execFile)('cp', ['-R', template, dataDir]);
}

/**
 * A copy of packages/web/dist for the servers of this run to serve (`vite build` elsewhere in
 * the work tree during the run empties dist, and the pages would lose their assets). The global
 * setup makes it once and publishes it as E2E_WEB_DIST; the caller removes it.
 */
export async function copyWebBuild(into?: string): Promise<string> {
  const copy = into ?? (await mkdtemp(path.join(tmpdir(), 'portal-e2e-web-')));
  await cp(WEB_DIST, copy, { recursive: true }).catch(() => undefined); // not built: pages answer 503
  return copy;
}

/**
 * An operator command on the PGlite folder of `env.DATA_DIR`, a copy of the migrated template
 * the first time (runOperatorCommand), as an operator runs it before the server opens the database.
 */
export async function operatorCommand(entry: Exclude<ServerEntry, 'main'>, args: string[], env: Record<string, string> & { DATA_DIR: string }): Promise<string> {
  await seedDataDir(env.DATA_DIR);
  return runOperatorCommand(entry, args, env);
}

/** The AppSumo license key of e2e servers. */
export const E2E_APPSUMO_LICENSE_SECRET = 'e2e-appsumo-license-secret-0123456789';

/** The bank deposit settings of e2e servers: specs sign bank notifications with the secret (e2e/wallet-deposit.spec.ts). */
export const E2E_BANK = {
  bin: '970436',
  accountNumber: '0071001234567',
  accountName: 'CONG TY PORTAL E2E',
  webhookSecret: 'e2e-bank-webhook-secret-0123456789abcdef',
} as const;

export interface PortalServer {
  port: number;
  platformUrl: string;
  lockerUrl: string;
  vaultUrl: string;
  /** The server's log (pino JSON lines). */
  logFile: string;
  /** Temporary folder holding the database (db/) and, without a shared one, the copy of the web build (web-dist/). */
  dataDir: string;
  process: ChildProcess;
  close(): Promise<void>;
}

/**
 * The demo account a server printed on its first start (its one-time password), or null when
 * none is in its log. The server writes its log in blocks at least every 200 ms
 * (platform/logger.ts stdoutLog), so the line may land a moment after the server answers.
 */
export async function demoAccountFromLog(logFile: string): Promise<{ email: string; password: string } | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const match = /demo account created: (\S+) \/ (\S+) \(shown only this once\)/.exec(readFileSync(logFile, 'utf8'));
    if (match) return { email: match[1]!, password: match[2]! };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/** A TCP port nobody listens on right now (bound and released on 127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Logs of runs more than a day old go; recent ones stay for reading. */
function pruneOldLogs(): void {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(LOG_DIR)) {
    const file = path.join(LOG_DIR, name);
    if (/^server-\d+\.log$/.test(name) && statSync(file).mtimeMs < dayAgo) rmSync(file, { force: true });
  }
}

/**
 * Starts the real server (packages/server/src/main.ts through tsx) on a free port with
 * PGlite in a temporary folder, and waits until /readyz answers. The brands are served as
 * http://localhost:PORT (platform) and http://locker.localhost:PORT (locker).
 *
 * The server serves a copy of packages/web/dist: env.WEB_DIST, else the run's (E2E_WEB_DIST,
 * copyWebBuild), else a private one.
 */
export async function startPortalServer(options: { env?: Record<string, string>; timeoutMs?: number; port?: number } = {}): Promise<PortalServer> {
  const port = options.port ?? (await freePort());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-'));
  const webDist = options.env?.WEB_DIST ?? process.env.E2E_WEB_DIST ?? (await copyWebBuild(path.join(dataDir, 'web-dist')));
  mkdirSync(LOG_DIR, { recursive: true });
  pruneOldLogs();
  const logFile = path.join(LOG_DIR, `server-${port}.log`);
  const log = createWriteStream(logFile);

  const platformUrl = `http://localhost:${port}`;
  const lockerUrl = `http://locker.localhost:${port}`;
  const env: Record<string, string> = {
    NODE_ENV: 'development', // the dev outbox and the demo account are on
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: path.join(dataDir, 'db'),
    WEB_DIST: webDist,
    LOG_LEVEL: 'info',
    PLATFORM_HOSTS: 'localhost,127.0.0.1',
    LOCKER_HOSTS: 'locker.localhost',
    PLATFORM_ORIGIN: platformUrl,
    LOCKER_ORIGIN: lockerUrl,
    // Accounts made through the API present their own address (X-Forwarded-For), as distinct
    // people would, so the per-address sign-up limit applies per account, not per suite.
    TRUST_PROXY: '1',
    // Sign-ups solve a captcha, in the page's widget or the spec's own process: a proof of work
    // of one PBKDF2 iteration per attempt instead of 1,000: the same protocol and widget, almost none
    // of the CPU the two cores are short of.
    ALTCHA_COST: '1',
    // Billing: the key of AppSumo license codes, so specs can make codes (e2e/billing.spec.ts).
    APPSUMO_LICENSE_SECRET: E2E_APPSUMO_LICENSE_SECRET,
    // Wallet: VND deposits by bank transfer on, the bank's notifications signed with a known key.
    VIETQR_BANK_BIN: E2E_BANK.bin,
    VIETQR_ACCOUNT_NUMBER: E2E_BANK.accountNumber,
    VIETQR_ACCOUNT_NAME: E2E_BANK.accountName,
    BANK_WEBHOOK_SECRET: E2E_BANK.webhookSecret,
    ...options.env,
  };
  // A database folder the spec has not made itself starts as a copy of the migrated template.
  await seedDataDir(env.DATA_DIR!);
  const inherited = { ...process.env };
  // The e2e server chooses its own storage; never a developer's or CI's database.
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'VAULT_URL', 'TEST_DB']) delete inherited[key];

  const child = spawn(process.execPath, serverCommand('main'), {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });

  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`exit ${code ?? signal}`)));
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  let ready = false;
  while (!ready) {
    const outcome = await Promise.race([
      exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 250)),
    ]);
    if (outcome) {
      throw new Error(`the e2e server stopped before it was ready (${outcome}); log ${logFile}:\n${tail(logFile)}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the e2e server was not ready within ${options.timeoutMs ?? 90_000} ms; log ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      ready = response.ok;
    } catch {
      // not listening yet
    }
  }

  return {
    port,
    platformUrl,
    lockerUrl,
    vaultUrl: env.VAULT_URL ?? `${lockerUrl}/`,
    logFile,
    dataDir,
    process: child,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
