import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../../test/db-target';
import { runToolInProcess, toolDatabase } from '../../test/operator-tools';
import { serverCommand, serverProcessEnv } from '../../test/server-bundle';
import { freePort, startServerProcess, type ServerProcess } from '../../test/server-process';
import { DataDirLocked, openDatabase } from '../db/client';
import { DATA_DIR_LOCK_FILE } from '../db/data-dir-lock';
import { oauthTool } from './oauth-tool';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const dirs: string[] = [];
const servers = new Set<ServerProcess>();

afterAll(async () => {
  for (const server of servers) await server.kill();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-tools-'));
  dirs.push(dir);
  return path.join(dir, 'db');
}

/** A data folder already migrated (the run's snapshot), as a server leaves it: its first start then skips the migrations. */
const migratedTempDataDir = async () => migratedDataDir(await tempDataDir());

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run clients -- ...` as an operator types it, as its own process: NODE_ENV unset unless
 * `env` sets it (the test runner's own NODE_ENV=test is not passed on), PGlite in `dataDir`.
 */
function clientsProcess(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<Outcome> {
  const inherited = serverProcessEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATA_ENCRYPTION_KEY: KEY, ...env });
  if (!env.NODE_ENV) delete inherited.NODE_ENV;
  delete inherited.ALTCHA_HMAC_KEY;
  return new Promise((resolve) => {
    execFile(process.execPath, [...serverCommand('oauth-admin'), 'clients', ...args], { cwd: ROOT, env: inherited, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The same command run in this process (runToolWith), on the database `target` names. */
function clients(args: string[], target: Record<string, string>, env: Record<string, string> = {}): Promise<Outcome> {
  return runToolInProcess(oauthTool, ['clients', ...args], { NODE_ENV: undefined, ALTCHA_HMAC_KEY: undefined, DATA_ENCRYPTION_KEY: KEY, ...target, ...env });
}

const KEY = randomBytes(32).toString('hex');

/** The server's settings on the PGlite folder `dataDir` (its address is added where it starts). */
function serverEnv(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    WEB_DIST: path.join(tmpdir(), 'no-web-dist'),
    DELETION_JOB_INTERVAL_SECONDS: '0',
    DATA_DIR: dataDir,
    DATA_ENCRYPTION_KEY: KEY,
  };
}

async function startServer(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess(serverEnv(dataDir));
  servers.add(server);
  return server;
}

const noStackTrace = /\n\s+at /;

describe('operator commands (npm run clients, signing-keys, billing, wallet, organizations)', () => {
  it('answer a command or an option they do not know with their usage and exit 2, never a stack trace', async () => {
    const dataDir = await tempDataDir();
    const unknownCommand = await clientsProcess(['frobnicate'], dataDir);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command: clients frobnicate');
    expect(unknownCommand.stderr).toContain('usage: npm run clients');
    expect(unknownCommand.stderr).not.toMatch(noStackTrace);

    const database = await toolDatabase();
    try {
      const unknownOption = await clients(['add', '--name', 'App', '--redirect-uri', 'https://app.example/cb', '--colour', 'red'], database.env);
      expect(unknownOption.code).toBe(2);
      expect(unknownOption.stderr).toContain("'--colour'");
      expect(unknownOption.stderr).toContain('usage: npm run clients');
      expect(unknownOption.stderr).not.toMatch(noStackTrace);

      const badValue = await clients(['add', '--name', 'App', '--redirect-uri', 'not a uri'], database.env);
      expect(badValue.code).toBe(2);
      expect(badValue.stderr).toContain('redirectUris.0: Invalid URL');
      expect(badValue.stderr).not.toMatch(noStackTrace);
    } finally {
      await database.close();
    }
  }, 240_000);

  it('run in the same mode as npm start when NODE_ENV is unset: the README\'s command works without ALTCHA_HMAC_KEY', async () => {
    const database = await toolDatabase();
    try {
      const added = await clients(['add', '--name', 'Outside App', '--redirect-uri', 'https://app.example/cb'], database.env);
      expect(added.stderr).not.toContain('ALTCHA_HMAC_KEY');
      expect(added.code).toBe(0);
      expect(added.stdout).toMatch(/client_id: +\S+/);

      // An explicit production keeps production's rules.
      const production = await clients(['list'], database.env, { NODE_ENV: 'production' });
      expect(production.code).toBe(1);
      expect(production.stderr).toContain('ALTCHA_HMAC_KEY: required in production');
    } finally {
      await database.close();
    }
  }, 240_000);

  it('refuse beside a running PGlite server, changing nothing, and work once it has stopped', async () => {
    const dataDir = await migratedTempDataDir();
    const server = await startServer(dataDir);
    let stopped = false;
    try {
      const refused = await clientsProcess(['add', '--name', 'Lost App', '--redirect-uri', 'https://lost.example/cb'], dataDir);
      expect(refused.code).toBe(1);
      expect(refused.stdout).not.toContain('client_id');
      expect(refused.stderr).toContain(`the data folder ${dataDir} is in use by`);
      expect(refused.stderr).toContain('PORTAL_URL and OPERATOR_API_KEY');
      expect(refused.stderr).not.toMatch(noStackTrace);
      // The server still serves, and its lock is still its own.
      expect((await fetch(`${server.url}/readyz`)).ok).toBe(true);
      expect(existsSync(path.join(dataDir, DATA_DIR_LOCK_FILE))).toBe(true);
      await server.stop();
      stopped = true;
    } finally {
      if (!stopped) await server.stop();
    }
    expect(existsSync(path.join(dataDir, DATA_DIR_LOCK_FILE))).toBe(false);

    // Nothing of the refused command reached the data.
    const target = { DATA_DIR: dataDir };
    const before = await clients(['list'], target);
    expect(before.code).toBe(0);
    expect(before.stdout).not.toContain('Lost App');

    const added = await clients(['add', '--name', 'Kept App', '--redirect-uri', 'https://kept.example/cb'], target);
    expect(added.code).toBe(0);
    const clientId = /client_id: +(\S+)/.exec(added.stdout)?.[1];
    const after = await clients(['list'], target);
    expect(after.stdout).toContain(clientId);
    expect(after.stdout).toContain('Kept App');
  }, 300_000);

  it('hold the data folder so the server refuses to start while one runs, and a killed holder does not block it', async () => {
    const dataDir = await migratedTempDataDir();
    const database = await openDatabase({ dataDir });
    try {
      // A second opening in any process is refused.
      await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLocked);
      const port = await freePort();
      const failure = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, serverCommand('main'), { cwd: ROOT, env: serverProcessEnv({ ...serverEnv(dataDir), HOST: '127.0.0.1', PORT: String(port) }), encoding: 'utf8', timeout: 120_000 }, (error, _stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
        );
      });
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain(`cannot start: the data folder ${dataDir} is in use by`);
      expect(failure.stderr).not.toMatch(noStackTrace);
    } finally {
      await database.close();
    }

    // A server killed without closing leaves its lock behind: its process is gone, so the next start takes it over.
    await (await startServer(dataDir)).kill();
    expect(existsSync(path.join(dataDir, DATA_DIR_LOCK_FILE))).toBe(true);
    const listed = await clients(['list'], { DATA_DIR: dataDir });
    expect(listed.stderr).not.toContain('in use by');
    expect(listed.code).toBe(0);
  }, 300_000);
});
