import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runToolWith, type OperatorTool, type ToolIo } from '../src/cli/run-tool';
import { openDatabase, type Database } from '../src/db/client';
import { freshDatabase, migratedDataDir, testDatabaseKind } from './db-target';
import type { TestServer } from './harness';
import { identityClient } from './identity';
import { adminCall, operator } from './operators';
import { serverCommand, serverProcessEnv, type ServerEntry } from './server-bundle';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** An operator API key (`pk_...`) of a new operator with these roles and two-step on, holding `scopes`. */
export async function operatorKey(server: TestServer, name: string, roles: Array<'owner' | 'support' | 'finance'>, scopes: string[]): Promise<string> {
  const { session } = await operator(server, identityClient(server.app, server.database), `${name}@example.com`, roles);
  const created = await adminCall(server, session, 'POST', '/v3/admin/api-keys', { name: `${name}'s script`, scopes, reason: 'Command line tools' });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { key: string }).key;
}

export interface ToolOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * An operator command run to its end as a process, with `env` (PORTAL_URL and OPERATOR_API_KEY
 * for the admin-API mode). No database is named: in that mode the command must not need one.
 */
export function runToolProcess(entry: Exclude<ServerEntry, 'main'>, args: string[], env: Record<string, string>): Promise<ToolOutcome> {
  const childEnv = serverProcessEnv({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent/portal-data', ...env });
  return new Promise((resolve) => {
    execFile(process.execPath, [...serverCommand(entry), ...args], { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/**
 * An operator command run to its end in this process (runToolWith: the same parsing, refusals,
 * messages and exit codes as its process), with `env` over this process's environment less the
 * test run's own (serverProcessEnv), as runToolProcess gives it. Most command tests run this way: a
 * process per command cost seconds of start-up each; the process entries keep a few runs each.
 */
export async function runToolInProcess(tool: OperatorTool, args: string[], env: Record<string, string | undefined>): Promise<ToolOutcome> {
  let stdout = '';
  let stderr = '';
  const toolEnv = serverProcessEnv({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent/portal-data' });
  // A variable given as undefined is unset, as an operator's shell may not have it (NODE_ENV).
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete toolEnv[name];
    else toolEnv[name] = value;
  }
  const io: ToolIo = {
    env: toolEnv,
    out: (text) => void (stdout += `${text}\n`),
    err: (text) => void (stderr += `${text}\n`),
  };
  const code = await runToolWith(tool, args, io);
  return { code, stdout, stderr };
}

/**
 * A migrated database of one test file for commands that open the configured one: `env` names
 * it (DATABASE_URL on PostgreSQL; a PGlite data folder restored from the run's snapshot, which
 * a command opens and closes itself), and `use` reads or seeds it between commands.
 */
export async function toolDatabase(): Promise<{ env: Record<string, string>; use<T>(work: (db: Database) => Promise<T>): Promise<T>; close(): Promise<void> }> {
  if (testDatabaseKind() === 'postgres') {
    const database = await freshDatabase();
    return { env: { DATABASE_URL: database.url! }, use: (work) => work(database.db), close: () => database.close() };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-tool-db-'));
  const dataDir = path.join(dir, 'db');
  await migratedDataDir(dataDir);
  return {
    env: { DATA_DIR: dataDir },
    async use(work) {
      const database = await openDatabase({ dataDir });
      try {
        return await work(database.db);
      } finally {
        await database.close();
      }
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What a command printed when it succeeded; else an error with its exit code and what it wrote to stderr. */
export function outputOf(outcome: ToolOutcome): string {
  if (outcome.code !== 0) throw new Error(`exit ${outcome.code}: ${outcome.stderr}`);
  return outcome.stdout;
}
