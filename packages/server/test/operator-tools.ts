import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
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
