import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, operatorApiKeys, operatorAuditEvents, operatorRoles, users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';

const clock = manualClock();
let server: TestServer;
/** A second node on the same database: a role removed on one is refused on the other at once. */
let other: TestServer;
let client: ReturnType<typeof identityClient>;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

type Method = 'GET' | 'POST' | 'DELETE';
const OPERATOR_ADDRESS = '203.0.113.7';
const call = (token: string | undefined, method: Method, url: string, payload?: object, node: TestServer = server) =>
  node.app.inject({
    method,
    url,
    remoteAddress: OPERATOR_ADDRESS,
    headers: { 'user-agent': 'operator-test', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  });
const codeOf = (response: { json(): unknown }) => (response.json() as { code?: string }).code;
const auditCount = async () => (await server.database.db.select({ n: count() }).from(operatorAuditEvents))[0]!.n;
const withTwoFactor = (email: string) => server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));

async function person(name: string, twoFactor = true) {
  const email = `${name}@example.com`;
  tokens[name] = await client.registeredUser(email);
  if (twoFactor) await withTwoFactor(email);
  const [row] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  ids[name] = row!.id;
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  client = identityClient(server.app, server.database);
  await person('owner');
  await person('support');
  await person('finance');
  await person('nobody');
  await person('notwofactor', false);
  // OPERATOR_EMAILS makes the first owner at start (existing, activated accounts only).
  other = await startTestServer({ clock, database: server.database, env: { OPERATOR_EMAILS: 'Owner@example.com, ghost@example.com' } });
}, 60_000);
afterAll(async () => {
  await other?.close();
  await server?.close();
});

const grant = (email: string, role: string, reason = 'Joins the support rota') => call(tokens.owner, 'POST', '/v3/admin/operators', { email, role, reason });

describe('operators: who may call the admin API', () => {
  it('OPERATOR_EMAILS gave the existing account owner, and skipped the address without one', async () => {
    const rows = await server.database.db.select().from(operatorRoles);
    expect(rows).toEqual([expect.objectContaining({ userId: ids.owner, role: 'owner' })]);
    const me = await call(tokens.owner, 'GET', '/v3/admin/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ user_id: ids.owner, email: 'owner@example.com', full_name: 'Test Person', roles: ['owner'] });
  });

  it('refuses anonymous callers (401) and non-operators (403 admin.forbidden) on every admin endpoint, whatever their body', async () => {
    for (const [method, url, body] of [
      ['GET', '/v3/admin/me'],
      ['GET', '/v3/admin/operators'],
      ['POST', '/v3/admin/operators', { email: 'nobody@example.com', role: 'owner', reason: 'I want it' }],
      ['POST', '/v3/admin/operators', { nonsense: true }],
      ['GET', '/v3/admin/audit'],
      ['GET', '/v3/admin/audit.csv'],
      ['POST', '/v3/admin/api-keys', { name: 'mine', scopes: ['admin:people'], reason: 'I want it' }],
    ] as Array<[Method, string, object?]>) {
      expect((await call(undefined, method, url, body)).statusCode, url).toBe(401);
      const refused = await call(tokens.nobody, method, url, body);
      expect([refused.statusCode, codeOf(refused)], `${method} ${url}`).toEqual([403, 'admin.forbidden']);
    }
    expect(await server.database.db.select().from(operatorRoles).where(eq(operatorRoles.userId, ids.nobody!))).toEqual([]);
    expect(await auditCount()).toBe(0);
  });

  it('a changing call without a usable reason is refused and changes and records nothing', async () => {
    for (const body of [{ email: 'support@example.com', role: 'support' }, { email: 'support@example.com', role: 'support', reason: '  x ' }, { email: 'support@example.com', role: 'support', reason: 7 }]) {
      const refused = await call(tokens.owner, 'POST', '/v3/admin/operators', body);
      expect([refused.statusCode, codeOf(refused)]).toEqual([400, 'admin.reason_required']);
    }
    expect(await server.database.db.select().from(operatorRoles).where(eq(operatorRoles.userId, ids.support!))).toEqual([]);
    expect(await auditCount()).toBe(0);
  });

  it('an owner grants roles with a reason; each grant is in the operator audit log with its reason and address', async () => {
    const granted = await grant('support@example.com', 'support');
    expect(granted.statusCode).toBe(201);
    expect(granted.json()).toMatchObject({ user_id: ids.support, email: 'support@example.com', roles: [{ role: 'support' }] });
    expect((await grant('finance@example.com', 'finance', 'Runs payouts')).statusCode).toBe(201);
    expect((await grant('notwofactor@example.com', 'support', 'Night shift')).statusCode).toBe(201);
    const unknown = await grant('ghost@example.com', 'support');
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'admin.account_not_found']);

    const page = await call(tokens.owner, 'GET', '/v3/admin/audit?limit=2');
    expect(page.statusCode).toBe(200);
    const { events, next_cursor } = page.json() as { events: Array<Record<string, unknown>>; next_cursor: string };
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ actor_user_id: ids.owner, actor_email: 'owner@example.com', via: 'session', action: 'POST /admin/operators', reason: 'Runs payouts', ip: OPERATOR_ADDRESS, target: {} });
    const rest = (await call(tokens.owner, 'GET', `/v3/admin/audit?limit=2&cursor=${next_cursor}`)).json() as { events: Array<{ reason: string }>; next_cursor: null };
    expect(rest.events.map((event) => event.reason)).toEqual(['Joins the support rota']);
    expect(rest.next_cursor).toBeNull();
    const bad = await call(tokens.owner, 'GET', '/v3/admin/audit?cursor=abc');
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'admin.cursor_invalid']);
    const filtered = (await call(tokens.owner, 'GET', '/v3/admin/audit?action=operators&actor=OWNER')).json() as { events: unknown[] };
    expect(filtered.events).toHaveLength(3);
  });

  it('a role not allowed is refused: support and finance cannot grant roles or read the audit log', async () => {
    for (const name of ['support', 'finance']) {
      const me = await call(tokens[name], 'GET', '/v3/admin/me');
      expect(me.json().roles).toEqual([name]);
      for (const [method, url, body] of [
        ['POST', '/v3/admin/operators', { email: `${name}@example.com`, role: 'owner', reason: 'Promote myself' }],
        ['GET', '/v3/admin/audit'],
        ['GET', '/v3/admin/operators'],
      ] as Array<[Method, string, object?]>) {
        const refused = await call(tokens[name], method, url, body);
        expect([refused.statusCode, codeOf(refused)], `${name} ${url}`).toEqual([403, 'admin.forbidden']);
      }
    }
  });

  it('an operator without two-step verification is sent to turn it on', async () => {
    const refused = await call(tokens.notwofactor, 'GET', '/v3/admin/me');
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'admin.two_factor_required']);
  });

  it('the last owner cannot be removed', async () => {
    const refused = await call(tokens.owner, 'DELETE', `/v3/admin/operators/${ids.owner}/roles/owner`, { reason: 'Leaving' });
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'admin.last_owner']);
  });
});

describe('operator API keys', () => {
  let supportKey: string;

  it('are made by a session, shown once, limited to their admin scopes, and never make keys themselves', async () => {
    const created = await call(tokens.owner, 'POST', '/v3/admin/api-keys', { name: 'Reports', scopes: ['admin:dashboard', 'admin:audit'], reason: 'Nightly export' });
    expect(created.statusCode).toBe(201);
    const { key, id } = created.json() as { key: string; id: string };
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    const listed = await call(tokens.owner, 'GET', '/v3/admin/api-keys');
    expect(listed.body).not.toContain(key);
    expect(listed.json()).toEqual([expect.objectContaining({ id, scopes: ['admin:dashboard', 'admin:audit'] })]);

    expect((await call(key, 'GET', '/v3/admin/me')).statusCode).toBe(200);
    expect((await call(key, 'GET', '/v3/admin/audit')).statusCode).toBe(200);
    const noScope = await call(key, 'GET', '/v3/admin/operators');
    expect([noScope.statusCode, codeOf(noScope), noScope.json().details]).toEqual([403, 'admin.scope_missing', { scope: 'admin:people' }]);
    const noScopeChange = await call(key, 'POST', '/v3/admin/operators', { email: 'nobody@example.com', role: 'owner', reason: 'By key' });
    expect(codeOf(noScopeChange)).toBe('admin.scope_missing');
    const minted = await call(key, 'POST', '/v3/admin/api-keys', { name: 'Copy', scopes: ['admin:keys'], reason: 'Escalate' });
    expect(minted.statusCode).toBe(403);
    // Not a personal key: it opens nothing outside /admin.
    expect((await call(key, 'GET', '/v3/sso/me')).statusCode).toBe(401);

    const audit = (await call(key, 'GET', '/v3/admin/audit?action=api-keys')).json() as { events: Array<{ reason: string; via: string }> };
    expect(audit.events[0]).toMatchObject({ reason: 'Nightly export', via: 'session' });
  });

  it("a personal API key never reaches the admin API, even its owner's", async () => {
    const personal = await call(tokens.owner, 'POST', '/v3/sso/me/api-keys', { name: 'Mine', scopes: ['me:read'] });
    expect(personal.statusCode).toBe(201);
    const refused = await call(personal.json().key, 'GET', '/v3/admin/me');
    expect(refused.statusCode).toBe(401);
    expect(await server.database.db.select().from(apiKeys)).toHaveLength(1);
  });

  it('a removed role stops its sessions and keys at once, on every node', async () => {
    const created = await call(tokens.support, 'POST', '/v3/admin/api-keys', { name: 'Support bot', scopes: ['admin:dashboard'], reason: 'Chat integration' });
    supportKey = created.json().key;
    expect((await call(supportKey, 'GET', '/v3/admin/me', undefined, other)).statusCode).toBe(200);
    expect((await call(tokens.support, 'GET', '/v3/admin/me', undefined, other)).statusCode).toBe(200);

    const revoked = await call(tokens.owner, 'DELETE', `/v3/admin/operators/${ids.support}/roles/support`, { reason: 'Left the team' });
    expect(revoked.statusCode).toBe(204);
    for (const node of [server, other]) {
      const bySession = await call(tokens.support, 'GET', '/v3/admin/me', undefined, node);
      expect([bySession.statusCode, codeOf(bySession)]).toEqual([403, 'admin.forbidden']);
      expect((await call(supportKey, 'GET', '/v3/admin/me', undefined, node)).statusCode).toBeGreaterThanOrEqual(401);
    }
    const audit = (await call(tokens.owner, 'GET', `/v3/admin/audit?target=${ids.support}`)).json() as { events: Array<Record<string, unknown>> };
    expect(audit.events).toEqual([expect.objectContaining({ action: 'DELETE /admin/operators/{userId}/roles/{role}', target: { userId: ids.support, role: 'support' }, reason: 'Left the team' })]);
  });

  it("an operator's key is theirs alone, and stops at once when they are locked or deleted", async () => {
    const { key, id } = (await call(tokens.finance, 'POST', '/v3/admin/api-keys', { name: 'Ledger export', scopes: ['admin:dashboard'], reason: 'Month end' })).json() as { key: string; id: string };
    expect((await call(key, 'GET', '/v3/admin/me')).statusCode).toBe(200);
    // Another operator, even an owner, neither lists nor revokes it: keys are their operator's own.
    expect((await call(tokens.owner, 'GET', '/v3/admin/api-keys')).body).not.toContain(id);
    const notTheirs = await call(tokens.owner, 'DELETE', `/v3/admin/api-keys/${id}`, { reason: 'Tidy up' });
    expect([notTheirs.statusCode, codeOf(notTheirs)]).toEqual([404, 'admin.not_found']);
    expect((await call(key, 'GET', '/v3/admin/me')).statusCode).toBe(200);
    await server.database.db.update(users).set({ lockedAt: clock.now() }).where(eq(users.id, ids.finance!));
    expect((await call(key, 'GET', '/v3/admin/me', undefined, other)).statusCode).toBe(401);
    await server.database.db.update(users).set({ lockedAt: null, deletionRequestedAt: clock.now() }).where(eq(users.id, ids.finance!));
    expect((await call(key, 'GET', '/v3/admin/me')).statusCode).toBe(401);
    await server.database.db.update(users).set({ deletionRequestedAt: null }).where(eq(users.id, ids.finance!));
    expect((await call(key, 'GET', '/v3/admin/me')).statusCode).toBe(200);
  });

  it('the CSV export neutralises formulas', async () => {
    expect((await grant('nobody@example.com', 'finance', '=HYPERLINK("http://evil.example","click")')).statusCode).toBe(201);
    const csv = await call(tokens.owner, 'GET', '/v3/admin/audit.csv?actor=owner');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('occurred_at,actor_email,actor_user_id,via,action,summary,target,reason,ip');
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv.body).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });

  it('an action and its audit row commit together: when the row cannot be written, the action is undone', async () => {
    const db = server.database.db;
    await person('target', false);
    const refused = 'This audit row is refused';
    // The audit insert fails after the action ran (a check on the reason, added for this test only).
    await db.execute(sql.raw(`alter table operator_audit_events add constraint audit_refused_in_test check (reason <> '${refused}')`));
    const before = await auditCount();
    try {
      const locked = await call(tokens.owner, 'POST', `/v3/admin/people/${ids.target}/lock`, { reason: refused });
      expect(locked.statusCode).toBe(500);
      const [row] = await db.select({ lockedAt: users.lockedAt }).from(users).where(eq(users.id, ids.target!));
      expect(row!.lockedAt).toBeNull();
      expect((await call(tokens.target, 'GET', '/v3/sso/me')).statusCode).toBe(200);

      const key = await call(tokens.owner, 'POST', '/v3/admin/api-keys', { name: 'Unaudited', scopes: ['admin:dashboard'], reason: refused });
      expect(key.statusCode).toBe(500);
      expect(await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.name, 'Unaudited'))).toEqual([]);

      const granted = await grant('target@example.com', 'support', refused);
      expect(granted.statusCode).toBe(500);
      expect(await db.select().from(operatorRoles).where(eq(operatorRoles.userId, ids.target!))).toEqual([]);
      expect(await auditCount()).toBe(before);
    } finally {
      await db.execute(sql`alter table operator_audit_events drop constraint audit_refused_in_test`);
    }

    // A refused change rolls its transaction back; the lookups it prepared inside it (the
    // account by email) keep working for the next call, which runs in a transaction of its own.
    const unknown = await grant('ghost@example.com', 'support', 'Nobody has this address');
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'admin.account_not_found']);
    expect((await grant('nobody@example.com', 'support', 'Covers the support desk this month')).statusCode).toBe(201);

    // Once the row can be written, the same call applies and is recorded.
    const locked = await call(tokens.owner, 'POST', `/v3/admin/people/${ids.target}/lock`, { reason: 'Reported account takeover' });
    expect(locked.statusCode, locked.body).toBe(200);
    expect((await call(tokens.target, 'GET', '/v3/sso/me')).statusCode).toBe(401);
    expect(await auditCount()).toBe(before + 2);
  });

  it('the operator audit log cannot be changed or deleted (a trigger refuses it)', async () => {
    const db = server.database.db;
    await expect(db.execute(sql`update operator_audit_events set reason = 'nothing happened'`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }) });
    await expect(db.execute(sql`delete from operator_audit_events`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }) });
    expect(await auditCount()).toBeGreaterThan(0);
  });

  it('an old session must prove itself again; an operator key does not (it holds its scopes instead)', async () => {
    const { key } = (await call(tokens.owner, 'POST', '/v3/admin/api-keys', { name: 'Long', scopes: ['admin:dashboard'], reason: 'Monitoring' })).json() as { key: string };
    clock.advance((server.config.REAUTH_MAX_AGE_SECONDS + 1) * 1000);
    const stale = await call(tokens.owner, 'GET', '/v3/admin/me');
    expect([stale.statusCode, codeOf(stale)]).toEqual([403, 'auth.reauth_required']);
    expect((await call(key, 'GET', '/v3/admin/me')).statusCode).toBe(200);
  });
});
