import { randomUUID } from 'node:crypto';
import { AUTH_COOKIE_NAME } from '@portal/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorRoles, users } from '../../db/schema';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer';

/**
 * People in the operators' console, over HTTP against the real server: who may search, read
 * and act; what a lock does to the person at once (on both nodes of one database); that a
 * reset of second factors mails the person and never answers a secret; and the search's input.
 */
let peer: SmtpPeer;
let server: TestServer;
/** A second node on the same database: a lock on one is refused on the other as soon as its notification arrives. */
let other: TestServer;
let client: ReturnType<typeof identityClient>;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const PASSWORD = 'plum-orbit-cactus-917';
const TOTP_SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

type Method = 'GET' | 'POST';
const call = (token: string | undefined, method: Method, url: string, payload?: object, node: TestServer = server) =>
  node.app.inject({ method, url, headers: { 'user-agent': 'people-test', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
const codeOf = (response: { json(): unknown }) => (response.json() as { code?: string }).code;
const reason = { reason: 'Ticket 4711: the owner asked by phone' };

async function activatedPerson(email: string): Promise<string> {
  await client.signUp(email, PASSWORD);
  const mail = await peer.waitFor((message) => message.to.includes(email) && /\/confirmation\//.test(message.text));
  const token = /\/confirmation\/([\w-]+)/.exec(mail.text)![1]!;
  expect((await client.post('/v3/sso/users/activate', { token })).statusCode).toBeLessThan(300);
  const signedIn = await client.signIn(email, PASSWORD);
  expect(signedIn.statusCode).toBe(200);
  return signedIn.json().token as string;
}

async function person(name: string, options: { roles?: string[]; twoFactor?: boolean } = {}) {
  const email = `${name}@people.test`;
  tokens[name] = await activatedPerson(email);
  const [row] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  ids[name] = row!.id;
  if (options.twoFactor ?? Boolean(options.roles)) await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.id, row!.id));
  for (const role of options.roles ?? []) await server.database.db.insert(operatorRoles).values({ userId: row!.id, role });
}

beforeAll(async () => {
  peer = await startSmtpPeer();
  server = await startTestServer({ env: { SMTP_URL: peer.url } });
  other = await startTestServer({ env: { SMTP_URL: peer.url }, database: server.database });
  client = identityClient(server.app, server.database);
  await person('owner', { roles: ['owner'] });
  await person('support', { roles: ['support'] });
  await person('finance', { roles: ['finance'] });
  await person('nosecond', { roles: ['support'], twoFactor: false });
  await person('nobody');
  await person('target');
}, 120_000);
afterAll(async () => {
  await other?.close();
  await server?.close();
  await peer?.close();
});

describe('people in the console: who may call', () => {
  const everyCall = (id: string): Array<[Method, string, object?]> => [
    ['GET', '/v3/admin/people?q=target'],
    ['GET', `/v3/admin/people/${id}`],
    ['POST', `/v3/admin/people/${id}/lock`, reason],
    ['POST', `/v3/admin/people/${id}/unlock`, reason],
    ['POST', `/v3/admin/people/${id}/end-sessions`, reason],
    ['POST', `/v3/admin/people/${id}/reset-second-factors`, reason],
    ['POST', `/v3/admin/people/${id}/resend-activation`, reason],
    ['POST', `/v3/admin/people/${id}/start-deletion`, reason],
  ];

  it('refuses anonymous callers (401), people who are not operators (403 admin.forbidden) and operators without two-step', async () => {
    for (const [method, url, body] of everyCall(ids.target!)) {
      expect((await call(undefined, method, url, body)).statusCode, url).toBe(401);
      const refused = await call(tokens.nobody, method, url, body);
      expect([refused.statusCode, codeOf(refused)], `${method} ${url}`).toEqual([403, 'admin.forbidden']);
      const noSecond = await call(tokens.nosecond, method, url, body);
      expect([noSecond.statusCode, codeOf(noSecond)], url).toEqual([403, 'admin.two_factor_required']);
    }
    const [row] = await server.database.db.select().from(users).where(eq(users.id, ids.target!));
    expect(row!.lockedAt).toBeNull();
    expect(row!.deletionRequestedAt).toBeNull();
  });

  it('finance reads people but never acts on them', async () => {
    expect((await call(tokens.finance, 'GET', '/v3/admin/people?q=target')).statusCode).toBe(200);
    expect((await call(tokens.finance, 'GET', `/v3/admin/people/${ids.target}`)).statusCode).toBe(200);
    for (const [method, url, body] of everyCall(ids.target!).filter(([method]) => method === 'POST')) {
      const refused = await call(tokens.finance, method, url, body);
      expect([refused.statusCode, codeOf(refused)], url).toEqual([403, 'admin.forbidden']);
    }
    const [row] = await server.database.db.select().from(users).where(eq(users.id, ids.target!));
    expect(row!.lockedAt).toBeNull();
    expect((await call(tokens.target, 'GET', '/v3/sso/me')).statusCode).toBe(200);
  });

  it("support cannot act on an operator's account (lock an owner out, strip a factor); an owner can", async () => {
    for (const [action, name] of [['lock', 'owner'], ['reset-second-factors', 'owner'], ['end-sessions', 'finance'], ['start-deletion', 'nosecond']] as const) {
      const refused = await call(tokens.support, 'POST', `/v3/admin/people/${ids[name]}/${action}`, reason);
      expect([refused.statusCode, codeOf(refused)], `${action} ${name}`).toEqual([403, 'admin.forbidden']);
    }
    const [owner] = await server.database.db.select().from(users).where(eq(users.id, ids.owner!));
    expect([owner!.lockedAt, owner!.twoFactorMethod, owner!.deletionRequestedAt]).toEqual([null, 'email', null]);
    expect((await call(tokens.owner, 'GET', '/v3/admin/me')).statusCode).toBe(200);
    expect((await call(tokens.finance, 'GET', '/v3/admin/me')).statusCode).toBe(200);
    // Reading an operator's page is not acting on it.
    expect((await call(tokens.support, 'GET', `/v3/admin/people/${ids.owner}`)).statusCode).toBe(200);
    const ended = await call(tokens.owner, 'POST', `/v3/admin/people/${ids.nosecond}/end-sessions`, reason);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await call(tokens.nosecond, 'GET', '/v3/sso/me')).statusCode).toBe(401);
  });

  it('an action without a usable reason changes nothing', async () => {
    for (const body of [{}, { reason: ' x ' }, { reason: 'y'.repeat(501) }]) {
      const refused = await call(tokens.support, 'POST', `/v3/admin/people/${ids.target}/lock`, body);
      expect(refused.statusCode).toBe(400);
    }
    const [row] = await server.database.db.select().from(users).where(eq(users.id, ids.target!));
    expect(row!.lockedAt).toBeNull();
  });

  it('an unknown or malformed id is a 404 or a 400, never a 500', async () => {
    const unknown = await call(tokens.support, 'GET', `/v3/admin/people/${randomUUID()}`);
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'admin.not_found']);
    expect((await call(tokens.support, 'POST', `/v3/admin/people/${randomUUID()}/lock`, reason)).statusCode).toBe(404);
    expect((await call(tokens.support, 'GET', '/v3/admin/people/not-an-id')).statusCode).toBe(400);
    expect((await call(tokens.support, 'GET', '/v3/admin/people/%00')).statusCode).toBe(400);
  });
});

describe('people search', () => {
  beforeAll(async () => {
    const now = new Date();
    const row = (email: string, fullName: string, username: string | null = null) => ({ id: randomUUID(), email, fullName, username, activatedAt: now });
    await server.database.db.insert(users).values([
      row('pct%sign@search.test', 'Percent Sign'),
      row('pctxsign@search.test', 'Percent Plain'),
      row('under_score@search.test', 'A_B Underscore', 'u_1'),
      row('underxscore@search.test', 'Axb Letter', 'ux1'),
      ...Array.from({ length: 25 }, (_, index) => row(`page-${String(index).padStart(2, '0')}@search.test`, `Paged Person ${index}`)),
    ]);
  });
  const search = async (query: string) => {
    const answer = await call(tokens.support, 'GET', `/v3/admin/people?${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { by: string; people: Array<{ id: string; email: string; status: string }>; next_cursor: string | null };
  };

  it('takes % and _ literally, in emails, names and usernames', async () => {
    expect((await search('q=pct%25')).people.map((p) => p.email)).toEqual(['pct%sign@search.test']);
    expect((await search('q=under_')).people.map((p) => p.email)).toEqual(['under_score@search.test']);
    expect((await search('q=a_b&by=name')).people.map((p) => p.email)).toEqual(['under_score@search.test']);
    expect((await search('q=U_&by=username')).people.map((p) => p.email)).toEqual(['under_score@search.test']);
    expect((await search('q=%25&by=name')).people).toEqual([]);
    expect((await search('q=_&by=username')).people).toEqual([]);
  });

  it('finds by a prefix of the email (any case), the name, or the whole id', async () => {
    expect((await search('q=TARGET@')).people.map((p) => p.id)).toEqual([ids.target]);
    expect((await search(`q=${ids.target!.toUpperCase()}`)).people.map((p) => p.id)).toEqual([ids.target]);
    expect((await search(`q=${ids.target}`)).by).toBe('id');
    expect((await search('q=percent&by=name')).people).toHaveLength(2);
  });

  it('pages with a cursor: every match once, in order, and a wrong cursor is a 400', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await search(`q=page-&limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.people.map((p) => p.email));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, index) => `page-${String(index).padStart(2, '0')}@search.test`));
    for (const bad of ['abc', Buffer.from('["x","not-a-uuid"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      const refused = await call(tokens.support, 'GET', `/v3/admin/people?q=page-&cursor=${bad}`);
      expect([refused.statusCode, codeOf(refused)]).toEqual([400, 'admin.cursor_invalid']);
    }
  });

  it('refuses an empty, too long or unbounded query with a 400', async () => {
    for (const query of ['', 'q=', 'q=%20%20', `q=${'a'.repeat(255)}`, 'q=a&limit=51', 'q=a&limit=0', 'q=a&by=password', 'q=a%00b']) {
      const refused = await call(tokens.support, 'GET', `/v3/admin/people?${query}`);
      expect(refused.statusCode, query).toBe(400);
    }
  });
});

describe('acting on a person', () => {
  it('locking ends their sessions at once on its node and within moments on the other, stops their sign-in, and is in the operator audit log', async () => {
    await person('locked');
    const cookie = { cookie: `${AUTH_COOKIE_NAME}=${tokens.locked}` };
    // A personal API key of theirs: a lock refuses it too (and an unlock gives it back).
    const created = await call(tokens.locked, 'POST', '/v3/sso/me/api-keys', { name: 'script', scopes: ['me:read'] });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const apiKey = created.json().key as string;
    expect((await call(apiKey, 'GET', '/v3/sso/me')).statusCode).toBe(200);
    // Warm both nodes' identity caches: the lock must evict them, not wait for them to expire.
    expect((await server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: cookie })).statusCode).toBe(200);
    expect((await other.app.inject({ method: 'GET', url: '/v3/sso/me', headers: cookie })).statusCode).toBe(200);

    const locked = await call(tokens.support, 'POST', `/v3/admin/people/${ids.locked}/lock`, reason);
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json()).toMatchObject({ id: ids.locked, status: 'locked', sessions: [] });
    expect((await server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: cookie })).statusCode).toBe(401);
    // The other node's copy goes when the database's notification reaches it: at once on PGlite,
    // milliseconds later over PostgreSQL's listening connection (docs/sessions.md).
    await expect.poll(async () => (await other.app.inject({ method: 'GET', url: '/v3/sso/me', headers: cookie })).statusCode, { timeout: 2000 }).toBe(401);
    expect((await call(apiKey, 'GET', '/v3/sso/me')).statusCode).toBe(401);
    expect((await call(apiKey, 'GET', '/v3/sso/me', undefined, other)).statusCode).toBe(401);

    const signIn = await client.signIn('locked@people.test', PASSWORD);
    expect([signIn.statusCode, codeOf(signIn)]).toEqual([403, 'auth.account_locked']);
    // A wrong password still answers as for anyone: the lock is told only to who holds the password.
    expect(codeOf(await client.signIn('locked@people.test', 'wrong-password-123'))).toBe('auth.invalid_credentials');

    const audit = (await call(tokens.owner, 'GET', '/v3/admin/audit?limit=5')).json() as { events: Array<Record<string, unknown>> };
    expect(audit.events[0]).toMatchObject({ actor_user_id: ids.support, reason: reason.reason, target: { userId: ids.locked } });

    const unlocked = await call(tokens.support, 'POST', `/v3/admin/people/${ids.locked}/unlock`, reason);
    expect(unlocked.json()).toMatchObject({ status: 'active', locked_at: null });
    expect((await client.signIn('locked@people.test', PASSWORD)).statusCode).toBe(200);
    expect((await call(apiKey, 'GET', '/v3/sso/me')).statusCode).toBe(200);
  });

  it('ends every session of a person', async () => {
    await person('ended');
    const ended = await call(tokens.owner, 'POST', `/v3/admin/people/${ids.ended}/end-sessions`, reason);
    expect(ended.statusCode).toBe(200);
    expect((await call(tokens.ended, 'GET', '/v3/sso/me')).statusCode).toBe(401);
    expect((await call(tokens.ended, 'GET', '/v3/sso/me', undefined, other)).statusCode).toBe(401);
  });

  it('resets second factors: never answers a secret, and mails the person', async () => {
    await person('lostphone');
    await server.database.db.update(users).set({ twoFactorMethod: 'totp', totpSecret: TOTP_SEED }).where(eq(users.id, ids.lostphone!));
    const page = await call(tokens.support, 'GET', `/v3/admin/people/${ids.lostphone}`);
    expect(page.json().second_factors).toEqual([{ kind: 'totp', name: null, added_at: null }]);
    expect(page.body).not.toContain(TOTP_SEED);
    expect(page.body).not.toContain('argon2');

    const reset = await call(tokens.support, 'POST', `/v3/admin/people/${ids.lostphone}/reset-second-factors`, reason);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.body).not.toContain(TOTP_SEED);
    expect(reset.json().second_factors).toEqual([]);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, ids.lostphone!));
    expect([row!.twoFactorMethod, row!.totpSecret]).toEqual([null, null]);
    const mail = await peer.waitFor((message) => message.to.includes('lostphone@people.test') && /Two-step verification was just turned off/.test(message.text));
    expect(mail.text).not.toContain(TOTP_SEED);

    const again = await call(tokens.support, 'POST', `/v3/admin/people/${ids.lostphone}/reset-second-factors`, reason);
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'admin.person_two_factor_off']);
  });

  it('resends an activation link to an account nobody activated, keeping none of its credentials', async () => {
    await client.signUp('pending@people.test', PASSWORD);
    await peer.waitFor((message) => message.to.includes('pending@people.test'));
    const [row] = await server.database.db.select().from(users).where(eq(users.email, 'pending@people.test'));
    const before = peer.messages.length;
    const resent = await call(tokens.support, 'POST', `/v3/admin/people/${row!.id}/resend-activation`, reason);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().status).toBe('pending_activation');
    const mail = await peer.waitFor((message) => peer.messages.indexOf(message) >= before && message.to.includes('pending@people.test') && /\/confirmation\//.test(message.text));
    const link = /\/confirmation\/([\w-]+)/.exec(mail.text)![1]!;
    // Followed by the mailbox's owner in their own browser: activated, with no password anyone chose before.
    const activated = await server.app.inject({ method: 'POST', url: '/v3/sso/users/activate', payload: { token: link } });
    expect(activated.statusCode).toBeLessThan(300);
    expect((await client.signIn('pending@people.test', PASSWORD)).statusCode).not.toBe(200);

    const already = await call(tokens.support, 'POST', `/v3/admin/people/${ids.target}/resend-activation`, reason);
    expect([already.statusCode, codeOf(already)]).toEqual([409, 'admin.person_already_activated']);
  });

  it('starts a deletion: the person is signed out and told, and a second start is a 409', async () => {
    await person('leaving');
    const started = await call(tokens.owner, 'POST', `/v3/admin/people/${ids.leaving}/start-deletion`, reason);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'pending_deletion', sessions: [] });
    expect(started.json().deletion_due_at).toEqual(expect.any(String));
    expect((await call(tokens.leaving, 'GET', '/v3/sso/me')).statusCode).toBe(401);
    const again = await call(tokens.owner, 'POST', `/v3/admin/people/${ids.leaving}/start-deletion`, reason);
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'admin.person_deletion_pending']);
  });

  it("a person's page shows their sessions and status, and nothing secret", async () => {
    const page = await call(tokens.finance, 'GET', `/v3/admin/people/${ids.target}`);
    expect(page.json()).toMatchObject({ id: ids.target, email: 'target@people.test', status: 'active', organizations: [], connected_apps: [], orders: [] });
    expect(page.json().sessions.length).toBeGreaterThan(0);
    expect(page.body).not.toMatch(/password|totp_secret|token_hash/);
    const [hash] = await server.database.db.select({ hash: sql<string>`${users.passwordHash}` }).from(users).where(eq(users.id, ids.target!));
    expect(page.body).not.toContain(hash!.hash);
  });
});

