import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { operatorsTool } from '../../cli/operators-tool';
import { operatorAuditEvents, operatorRoles, users } from '../../db/schema';
import { startTestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { outputOf as printed, runToolInProcess, runToolProcess, toolDatabase } from '../../../test/operator-tools';

/** A command's output, or its refusal as an error: in this process (runToolWith) unless `asProcess`, as an operator starts it. */
const outputOf = async (env: Record<string, string>, args: string[], asProcess = false) =>
  printed(asProcess ? await runToolProcess('operators-admin', args, env) : await runToolInProcess(operatorsTool, args, env));

describe('npm run operators', () => {
  it('grants, lists and revokes roles of activated accounts against the configured database, keeping one owner', async () => {
    const database = await toolDatabase();
    const run = (...args: string[]) => outputOf({ NODE_ENV: 'development', ...database.env }, args);
    try {
      const now = new Date();
      await database.use((db) =>
        db.insert(users).values([
          { id: randomUUID(), email: 'first@example.com', fullName: 'First Owner', activatedAt: now, createdAt: now, updatedAt: now },
          { id: randomUUID(), email: 'helper@example.com', fullName: 'Helper', activatedAt: now, createdAt: now, updatedAt: now },
          { id: randomUUID(), email: 'pending@example.com', fullName: 'Not Activated', activatedAt: null, createdAt: now, updatedAt: now },
        ]),
      );

      // One run as its own process: the entry point's wiring, and its exit code on success.
      expect(await outputOf({ NODE_ENV: 'development', ...database.env }, ['list'], true)).toMatch(/no operators yet/);
      expect(await run('grant', 'First@Example.com', 'owner')).toBe('first@example.com holds owner\n');
      expect(await run('grant', 'helper@example.com', 'support')).toBe('helper@example.com holds support\n');
      expect(await run('grant', 'helper@example.com', 'finance')).toBe('helper@example.com holds finance, support\n');
      await expect(run('grant', 'pending@example.com', 'owner')).rejects.toThrow(/No activated account has this email/);
      await expect(run('grant', 'nobody@example.com', 'owner')).rejects.toThrow(/No activated account has this email/);
      await expect(run('grant', 'helper@example.com', 'root')).rejects.toThrow(/the role must be one of owner, support, finance/);
      await expect(run('promote', 'helper@example.com')).rejects.toThrow(/^exit 2: [\s\S]*usage: npm run operators/);
      await expect(run('revoke', 'first@example.com', 'owner')).rejects.toThrow(/at least one owner/);
      expect(await run('revoke', 'helper@example.com', 'support', '--reason', 'Moved to finance')).toBe('helper@example.com no longer holds support\n');
      expect(await run('list')).toBe('first@example.com\towner\nhelper@example.com\tfinance\n');

      await database.use(async (db) => {
        const rows = await db.select({ role: operatorRoles.role }).from(operatorRoles);
        expect(rows.map((row) => row.role).sort()).toEqual(['finance', 'owner']);
        // Each change is in the operator audit log, as the command line's, with its reason.
        const audit = await db.select().from(operatorAuditEvents).orderBy(operatorAuditEvents.id);
        expect(audit.map((event) => [event.via, event.action, event.target.role, event.reason])).toEqual([
          ['command-line', 'POST /admin/operators', 'owner', 'from the command line'],
          ['command-line', 'POST /admin/operators', 'support', 'from the command line'],
          ['command-line', 'POST /admin/operators', 'finance', 'from the command line'],
          ['command-line', 'DELETE /admin/operators/{userId}/roles/{role}', 'support', 'Moved to finance'],
        ]);
      });
    } finally {
      await database.close();
    }
  }, 300_000);

  it('on the database, changes a role only together with its audit row', async () => {
    const database = await toolDatabase();
    const run = (...args: string[]) => outputOf({ NODE_ENV: 'development', ...database.env }, args);
    try {
      const now = new Date();
      await database.use(async (db) => {
        await db.insert(users).values({ id: randomUUID(), email: 'audited@example.com', fullName: 'Audited', activatedAt: now, createdAt: now, updatedAt: now });
        // The audit log refuses this one reason: the grant must not apply without its row.
        await db.execute(sql.raw(`alter table operator_audit_events add constraint cli_audit_refused_in_test check (reason <> 'unwritable reason')`));
      });
      await expect(run('grant', 'audited@example.com', 'owner', '--reason', 'unwritable reason')).rejects.toThrow();
      expect(await database.use((db) => db.select().from(operatorRoles))).toEqual([]);
      expect(await run('grant', 'audited@example.com', 'owner', '--reason', 'first owner')).toBe('audited@example.com holds owner\n');
      expect((await database.use((db) => db.select().from(operatorAuditEvents))).map((event) => event.reason)).toEqual(['first owner']);
    } finally {
      await database.close();
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
      const run = (apiKey: string, ...args: string[]) => outputOf({ NODE_ENV: 'development', PORTAL_URL: server.url, OPERATOR_API_KEY: apiKey, DATA_DIR: '/nonexistent/never-opened' }, args);

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
