import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { operatorAuditEvents, operatorRoles, users } from '../../db/schema';
import { startTestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { runOperatorCommand } from '../../../test/server-bundle';

describe('npm run operators', () => {
  it('grants, lists and revokes roles of activated accounts against the configured database, keeping one owner', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-operators-cli-'));
    const dataDir = path.join(dir, 'db');
    const run = (...args: string[]) => runOperatorCommand('operators-admin', args, { NODE_ENV: 'development', DATA_DIR: dataDir });
    try {
      const now = new Date();
      const seed = await openDatabase({ dataDir });
      await migrate(seed);
      await seed.db.insert(users).values([
        { id: randomUUID(), email: 'first@example.com', fullName: 'First Owner', activatedAt: now, createdAt: now, updatedAt: now },
        { id: randomUUID(), email: 'helper@example.com', fullName: 'Helper', activatedAt: now, createdAt: now, updatedAt: now },
        { id: randomUUID(), email: 'pending@example.com', fullName: 'Not Activated', activatedAt: null, createdAt: now, updatedAt: now },
      ]);
      await seed.close();

      expect(await run('list')).toMatch(/no operators yet/);
      expect(await run('grant', 'First@Example.com', 'owner')).toBe('first@example.com holds owner\n');
      expect(await run('grant', 'helper@example.com', 'support')).toBe('helper@example.com holds support\n');
      expect(await run('grant', 'helper@example.com', 'finance')).toBe('helper@example.com holds finance, support\n');
      await expect(run('grant', 'pending@example.com', 'owner')).rejects.toThrow(/No activated account has this email/);
      await expect(run('grant', 'nobody@example.com', 'owner')).rejects.toThrow(/No activated account has this email/);
      await expect(run('grant', 'helper@example.com', 'root')).rejects.toThrow(/the role must be one of owner, support, finance/);
      await expect(run('promote', 'helper@example.com')).rejects.toThrow(/usage: npm run operators/);
      await expect(run('revoke', 'first@example.com', 'owner')).rejects.toThrow(/at least one owner/);
      expect(await run('revoke', 'helper@example.com', 'support', '--reason', 'Moved to finance')).toBe('helper@example.com no longer holds support\n');
      expect(await run('list')).toBe('first@example.com\towner\nhelper@example.com\tfinance\n');

      const check = await openDatabase({ dataDir });
      try {
        const rows = await check.db.select({ role: operatorRoles.role }).from(operatorRoles);
        expect(rows.map((row) => row.role).sort()).toEqual(['finance', 'owner']);
        // Each change is in the operator audit log, as the command line's, with its reason.
        const audit = await check.db.select().from(operatorAuditEvents).orderBy(operatorAuditEvents.id);
        expect(audit.map((event) => [event.via, event.action, event.target.role, event.reason])).toEqual([
          ['command-line', 'POST /admin/operators', 'owner', 'from the command line'],
          ['command-line', 'POST /admin/operators', 'support', 'from the command line'],
          ['command-line', 'POST /admin/operators', 'finance', 'from the command line'],
          ['command-line', 'DELETE /admin/operators/{userId}/roles/{role}', 'support', 'Moved to finance'],
        ]);
      } finally {
        await check.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('with PORTAL_URL and OPERATOR_API_KEY calls the running server instead: its checks, its audit log', async () => {
    const server = await startTestServer({ listen: true });
    try {
      const client = identityClient(server.app, server.database);
      const owner = await client.registeredUser('cli-owner@example.com');
      await client.registeredUser('cli-helper@example.com');
      const db = server.database.db;
      await db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, 'cli-owner@example.com'));
      const [ownerRow] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'cli-owner@example.com'));
      await db.insert(operatorRoles).values({ userId: ownerRow!.id, role: 'owner' });
      const makeKey = async (scopes: string[]) => {
        const created = await server.app.inject({ method: 'POST', url: '/v3/admin/api-keys', headers: { authorization: `Bearer ${owner}` }, payload: { name: 'cli', scopes, reason: 'Scripted grants' } });
        expect(created.statusCode).toBe(201);
        return created.json().key as string;
      };
      const key = await makeKey(['admin:people']);
      const run = (apiKey: string, ...args: string[]) => runOperatorCommand('operators-admin', args, { NODE_ENV: 'development', PORTAL_URL: server.url, OPERATOR_API_KEY: apiKey, DATA_DIR: '/nonexistent/never-opened' });

      expect(await run(key, 'grant', 'cli-helper@example.com', 'support', '--reason', 'Joins support')).toBe('cli-helper@example.com holds support\n');
      expect(await run(key, 'list')).toBe('cli-helper@example.com\tsupport\ncli-owner@example.com\towner\n');
      expect(await run(key, 'revoke', 'cli-helper@example.com', 'support', '--reason', 'Left')).toBe('cli-helper@example.com no longer holds support\n');
      await expect(run(await makeKey(['admin:dashboard']), 'list')).rejects.toThrow(/admin.scope_missing/);

      const audit = await db.select().from(operatorAuditEvents).orderBy(operatorAuditEvents.id);
      expect(audit.map((event) => [event.via.startsWith('key:'), event.action, event.reason])).toEqual([
        [false, 'POST /admin/api-keys', 'Scripted grants'],
        [true, 'POST /admin/operators', 'Joins support'],
        [true, 'DELETE /admin/operators/{userId}/roles/{role}', 'Left'],
        [false, 'POST /admin/api-keys', 'Scripted grants'],
      ]);
    } finally {
      await server.close();
    }
  }, 300_000);
});
