import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { oidcKeys, operatorAuditEvents, operatorRoles, users } from '../../db/schema';
import { KEY_PUBLISH_AHEAD_SECONDS, RETIRED_KEY_GRACE_SECONDS } from './keys';

/**
 * Signing keys in the admin API, over HTTP against the real server: owners only; states as
 * every node publishes them; rotate, rotate now and drop; never a private part in an answer.
 */
let clockAhead = 0;
const clock = { now: () => new Date(Date.now() + clockAhead) };
let server: TestServer;
const tokens: Record<string, string> = {};
const reason = 'Yearly rotation';

type Method = 'GET' | 'POST' | 'DELETE';
const call = (token: string | undefined, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url: `/v3${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload ? { payload } : {}) });
const codeOf = (response: { json(): unknown }) => (response.json() as { code?: string }).code;
type Key = { kid: string; alg: string; state: string; published_until: string | null };
const listed = async () => (await call(tokens.key, 'GET', '/admin/signing-keys')).json() as { keys: Key[]; reload_seconds: number; publish_ahead_seconds: number };
const jwks = async () => ((await server.app.inject({ url: '/oidc/jwks' })).json().keys as Array<{ kid: string }>).map((key) => key.kid);

async function person(name: string, roles: string[]) {
  const email = `${name}@example.com`;
  tokens[name] = await identityClient(server.app, server.database).registeredUser(email);
  await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
  const [row] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  for (const role of roles) await server.database.db.insert(operatorRoles).values({ userId: row!.id, role });
}

beforeAll(async () => {
  server = await startTestServer({ clock, env: { OIDC_KEYS_RELOAD_SECONDS: '1' } });
  await person('owner', ['owner']);
  await person('support', ['support']);
  await person('finance', ['finance']);
  await person('nobody', []);
  // The server's clock moves hours ahead below, past any session's recent proof: an operator key has none to lose.
  tokens.key = (await call(tokens.owner, 'POST', '/admin/api-keys', { name: 'Key rotation', scopes: ['admin:keys'], reason })).json().key;
});
afterAll(() => server?.close());

describe('signing keys in the admin API', () => {
  it('are for owners only: support, finance and non-operators are refused and nothing changes', async () => {
    const before = await server.database.db.select().from(oidcKeys);
    const signing = (await listed()).keys.find((key) => key.state === 'signing')!;
    for (const name of ['support', 'finance', 'nobody']) {
      for (const [method, url, body] of [
        ['GET', '/admin/signing-keys'],
        ['POST', '/admin/signing-keys/rotate', { immediately: true, reason }],
        ['DELETE', `/admin/signing-keys/${signing.kid}`, { reason }],
      ] as Array<[Method, string, object?]>) {
        const refused = await call(tokens[name], method, url, body);
        expect([refused.statusCode, codeOf(refused)], `${name} ${method} ${url}`).toEqual([403, 'admin.forbidden']);
      }
    }
    expect(await server.database.db.select().from(oidcKeys)).toEqual(before);
  });

  it('lists each key with its state and never a private part', async () => {
    const response = await call(tokens.owner, 'GET', '/admin/signing-keys');
    expect(response.statusCode).toBe(200);
    const { keys, reload_seconds, publish_ahead_seconds } = response.json() as { keys: Array<Record<string, unknown>>; reload_seconds: number; publish_ahead_seconds: number };
    expect(keys.map((key) => [key.alg, key.state])).toEqual([
      ['ES256', 'signing'],
      ['RS256', 'signing'],
    ]);
    expect([reload_seconds, publish_ahead_seconds]).toEqual([1, KEY_PUBLISH_AHEAD_SECONDS]);
    expect(response.body).not.toMatch(/"(d|p|q|dp|dq|qi|sealed_jwk|sealedJwk)"/);
  });

  it('rotates: the new keys are published ahead, sign from their activation; the old ones retire and stay published', async () => {
    const old = (await listed()).keys.map((key) => key.kid);
    const rotated = await call(tokens.owner, 'POST', '/admin/signing-keys/rotate', { reason });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { kids } = rotated.json() as { kids: string[] };
    expect(kids).toHaveLength(2);
    // This node reads the new keys at once; the others at their next reload.
    expect(await jwks()).toEqual(expect.arrayContaining([...old, ...kids]));
    const ahead = await listed();
    expect(ahead.keys.filter((key) => kids.includes(key.kid)).map((key) => key.state)).toEqual(['published', 'published']);
    expect(ahead.keys.filter((key) => old.includes(key.kid)).map((key) => key.state)).toEqual(['signing', 'signing']);

    clockAhead = (KEY_PUBLISH_AHEAD_SECONDS + 1) * 1000;
    const after = await listed();
    expect(after.keys.filter((key) => kids.includes(key.kid)).map((key) => key.state)).toEqual(['signing', 'signing']);
    expect(after.keys.filter((key) => old.includes(key.kid)).map((key) => key.state)).toEqual(['retiring', 'retiring']);
    expect(after.keys.find((key) => old.includes(key.kid))!.published_until).toBeTruthy();

    const audit = await server.database.db.select().from(operatorAuditEvents).where(eq(operatorAuditEvents.action, 'POST /admin/signing-keys/rotate'));
    expect(audit).toEqual([expect.objectContaining({ reason })]);
  });

  it('rotates now for a leaked key, refuses to drop a key that signs, drops a retiring one from the JWKS at once', async () => {
    const before = await listed();
    const signing = before.keys.filter((key) => key.state === 'signing');
    const refused = await call(tokens.key, 'DELETE', `/admin/signing-keys/${signing[0]!.kid}`, { reason: 'Leaked' });
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'admin.key_signing']);

    const now = await call(tokens.key, 'POST', '/admin/signing-keys/rotate', { immediately: true, reason: 'Leaked key' });
    const { kids } = now.json() as { kids: string[] };
    const states = await listed();
    expect(states.keys.filter((key) => kids.includes(key.kid)).map((key) => key.state)).toEqual(['signing', 'signing']);
    expect(states.keys.filter((key) => signing.some((old) => old.kid === key.kid)).map((key) => key.state)).toEqual(['retiring', 'retiring']);

    const dropped = await call(tokens.key, 'DELETE', `/admin/signing-keys/${signing[0]!.kid}`, { reason: 'Leaked' });
    expect(dropped.statusCode).toBe(204);
    expect(await jwks()).not.toContain(signing[0]!.kid);
    expect((await call(tokens.key, 'DELETE', `/admin/signing-keys/${signing[0]!.kid}`, { reason: 'Leaked' })).statusCode).toBe(404);
    expect((await call(tokens.key, 'DELETE', '/admin/signing-keys/not%20a%20kid', { reason: 'Leaked' })).statusCode).toBe(400);
    const noReason = await call(tokens.key, 'POST', '/admin/signing-keys/rotate', { immediately: true });
    expect([noReason.statusCode, codeOf(noReason)]).toEqual([400, 'admin.reason_required']);
  });

  it('reads a rotation only once it commits with its audit row: one that cannot be written leaves this node on the keys it had', async () => {
    const { db } = server.database;
    // The audit row of this reason cannot be written: the rotation rolls back with it.
    await db.execute(sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`));
    await db.execute(sql.raw(`create trigger refuse_audit before insert on operator_audit_events for each row when (new.reason = 'Refused') execute function refuse_audit()`));
    try {
      const before = { jwks: await jwks(), rows: await db.select({ kid: oidcKeys.kid }).from(oidcKeys) };
      const refused = await call(tokens.key, 'POST', '/admin/signing-keys/rotate', { immediately: true, reason: 'Refused' });
      expect(refused.statusCode).toBe(500);
      expect(await db.select({ kid: oidcKeys.kid }).from(oidcKeys)).toEqual(before.rows);
      // Before, the reload ran inside the transaction and this node published (and signed with) keys that were never stored.
      expect(await jwks()).toEqual(before.jwks);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_audit on operator_audit_events'));
      await db.execute(sql.raw('drop function refuse_audit'));
    }
  });

  it('marks keys past their grace as expired (no longer published)', async () => {
    clockAhead += (RETIRED_KEY_GRACE_SECONDS + KEY_PUBLISH_AHEAD_SECONDS + 60) * 1000;
    const { keys } = await listed();
    expect(keys.filter((key) => key.state === 'expired').length).toBeGreaterThan(0);
    expect(keys.filter((key) => key.state === 'signing').map((key) => key.alg)).toEqual(['ES256', 'RS256']);
  });
});
