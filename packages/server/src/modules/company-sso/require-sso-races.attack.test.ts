import { and, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companySsoTestServer, refusedSoon } from '../../../test/company-sso';
import { testDatabaseKind } from '../../../test/db-target';
import { untilOperatorAuditWriting } from '../../../test/slow-operator-audit';
import { apiKeys, sessions, users } from '../../db/schema';

/**
 * A member the organization wants to force through its IdP, trying to keep a session its IdP did
 * not sign in: by becoming a member another way than the ones that end sessions (an email change
 * onto an address the organization added), or by signing in with a password at the very moment
 * the organization starts requiring SSO.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const ORGANIZATION = 'Cyberdyne';
const CODE = /^ {4}(\d{6})$/m;

const h = companySsoTestServer({ clientId: 'races-portal', clientSecret: 'races-portal-secret-0123456789abcdef', addresses: '127.18' });

beforeAll(async () => {
  await h.organizationWithIdp(ORGANIZATION, 'cyberdyne', 'cyberdyne.test');
});

const call = (token: string, url: string, payload: object) =>
  h.server.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}`, 'user-agent': 'vitest' }, remoteAddress: h.nextAddress() });
const me = async (token: string) => (await h.server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` }, remoteAddress: h.nextAddress() })).statusCode;
const signIn = (email: string) => h.client.post('/v3/sso/auth', { email, password: PASSWORD }, { 'user-agent': 'vitest' }, h.nextAddress());
const requireSso = (on: boolean) => h.admin.setRequireSso({ organization: ORGANIZATION, requireSso: on });

/** The account's sessions that are not revoked. */
async function liveSessions(email: string) {
  const [user] = await h.server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return h.server.database.db.select({ id: sessions.id, amr: sessions.amr }).from(sessions).where(and(eq(sessions.userId, user!.id), isNull(sessions.revokedAt)));
}

describe('an email change onto an address the organization added (an email-only member row)', () => {
  it('ends the sessions its IdP did not sign in, as joining does', async () => {
    await requireSso(true);
    const pendingAddress = 'new-hire@cyberdyne.test';
    // The operator added the address before anyone had an account under it.
    await h.organizations.addMemberTo(ORGANIZATION, pendingAddress);
    const token = await h.client.registeredUser('someone@example.test', PASSWORD);

    const asked = await call(token, '/v3/sso/me/email/change', { new_email: pendingAddress, password: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(204);
    const [, code] = await h.client.mailTo(pendingAddress, CODE);
    const confirmed = await call(token, '/v3/sso/me/email/change/confirm', { code: code! });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    // A member of an organization that requires SSO now: a password would not sign them in, so no password session stands.
    expect((await signIn(pendingAddress)).json().code).toBe('sso.required');
    expect(await me(token)).toBe(401);
    expect(await liveSessions(pendingAddress)).toEqual([]);
  });
});

describe('require SSO turned on while password sign-ins are in flight', () => {
  it('leaves no password session standing: one that passed the membership read before the change is ended or refused', async () => {
    await requireSso(false);
    const email = 'racer@cyberdyne.test';
    await h.organizations.addMemberTo(ORGANIZATION, email);
    await h.client.registeredUser(email, PASSWORD);

    // Sign-ins keep starting while the requirement turns on: some read the membership before it
    // and write their session after its sweep (the password check takes milliseconds between).
    const answers: Array<Promise<{ statusCode: number; json(): { token?: string; code?: string } }>> = [];
    let turnedOn = false;
    const signingIn = (async () => {
      while (!turnedOn) {
        answers.push(signIn(email));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    // Once the first has its session, others are between their membership read and their insert.
    while (answers.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect((await answers[0]!).statusCode).toBe(200);
    await requireSso(true);
    turnedOn = true;
    await signingIn;
    const settled = await Promise.all(answers);

    const standing = await liveSessions(email);
    expect(standing, 'password sessions left standing after the requirement').toEqual([]);
    for (const answer of settled) if (answer.json().token) await refusedSoon(() => me(answer.json().token!));
  });
});

describe('require SSO turned on while a member joins in a transaction (a link confirmed)', () => {
  it("ends the joiner's password session though the join read the requirement before it was on", async () => {
    await requireSso(false);
    const email = 'linker@cyberdyne.test';
    const token = await h.client.registeredUser(email, PASSWORD);
    const refused = await h.oidcSignIn({ sub: 'sub-linker', email, name: 'Linker' }, 'cyberdyne');
    expect(refused.json().code, refused.body).toBe('sso.link_required');
    const pending = refused.cookies.find((cookie) => cookie.name === 'portal_sso_link')!.value;
    // The join's commit takes a second (a deferred trigger), after it read whether SSO is required.
    const { db } = h.server.database;
    await db.execute(sql.raw(`create function slow_join() returns trigger language plpgsql as $$ begin if new.email = '${email}' then perform pg_sleep(1); end if; return new; end $$`));
    await db.execute(sql.raw(`create constraint trigger slow_join after insert on organization_members deferrable initially deferred for each row execute function slow_join()`));

    const confirming = h.server.app.inject({ method: 'POST', url: '/v3/sso/me/organization/sso/link', headers: { authorization: `Bearer ${token}` }, cookies: { portal_sso_link: pending }, remoteAddress: h.nextAddress() });
    // The commit is sleeping (pg_sleep shows in pg_stat_activity; on PGlite a moment).
    await untilOperatorAuditWriting(h.server.database);
    await requireSso(true);
    const confirmed = await confirming;
    await db.execute(sql.raw('drop trigger slow_join on organization_members'));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // The requirement committed while the join did: the answer tells the page its session ended
    // (read inside the join, it was still off). PGlite runs one transaction at a time, so there the
    // requirement may come only after the whole confirmation, which then rightly answered false.
    if (testDatabaseKind() === 'postgres') expect(confirmed.json().sso_required).toBe(true);

    await refusedSoon(() => me(token));
    expect(await liveSessions(email)).toEqual([]);
  });
});

describe('require SSO turned on while a restore makes its session', () => {
  // PGlite runs one transaction at a time: there the requirement cannot come between the
  // restore's session and its commit, so the race is PostgreSQL's.
  it.runIf(testDatabaseKind() === 'postgres')('refuses it and leaves the deletion scheduled: the refusal rolls back the cancellation made with the session', async () => {
    await requireSso(false);
    const email = 'restorer@cyberdyne.test';
    await h.organizations.addMemberTo(ORGANIZATION, email);
    const token = await h.client.registeredUser(email, PASSWORD);
    expect((await call(token, '/v3/sso/me/deletion', { password: PASSWORD, confirmation: 'DELETE' })).statusCode).toBe(200);
    const [scheduled] = await h.server.database.db.select({ id: users.id, deletionDueAt: users.deletionDueAt }).from(users).where(eq(users.email, email));
    const pending = await signIn(email);
    expect(pending.json().code).toBe('account.deletion_pending');
    // The restore's session takes a second to write, after its company SSO step passed.
    const { db } = h.server.database;
    await db.execute(sql.raw(`create function slow_restore() returns trigger language plpgsql as $$ begin if new.user_id = '${scheduled!.id}' then perform pg_sleep(1); end if; return new; end $$`));
    await db.execute(sql.raw('create trigger slow_restore before insert on sessions for each row execute function slow_restore()'));

    const restoring = h.client.post('/v3/sso/auth/restore', { restore_token: (pending.json() as { details: { restore_token: string } }).details.restore_token }, { 'user-agent': 'vitest' }, h.nextAddress());
    await untilOperatorAuditWriting(h.server.database);
    await requireSso(true);
    const restored = await restoring;
    await db.execute(sql.raw('drop trigger slow_restore on sessions'));

    expect(restored.json().code, restored.body).toBe('sso.required');
    expect(await liveSessions(email)).toEqual([]);
    const [after] = await db.select({ deletionDueAt: users.deletionDueAt }).from(users).where(eq(users.email, email));
    expect(after!.deletionDueAt).toEqual(scheduled!.deletionDueAt);
  });
});

describe('require SSO turned on while a member makes an API key on a password session', () => {
  it('leaves no such key working: the sweep waits for the key, then revokes it', async () => {
    await requireSso(false);
    const email = 'scripter@cyberdyne.test';
    await h.organizations.addMemberTo(ORGANIZATION, email);
    const token = await h.client.registeredUser(email, PASSWORD);
    const [user] = await h.server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    // The key's insert takes a second, after its request passed the guard on a live session.
    const { db } = h.server.database;
    await db.execute(sql.raw(`create function slow_key() returns trigger language plpgsql as $$ begin if new.user_id = '${user!.id}' then perform pg_sleep(1); end if; return new; end $$`));
    await db.execute(sql.raw('create trigger slow_key before insert on api_keys for each row execute function slow_key()'));

    const making = call(token, '/v3/sso/me/api-keys', { name: 'Deploy', scopes: ['me:read'] });
    await untilOperatorAuditWriting(h.server.database);
    // Before, the sweep revoked the keys it saw (not this one, uncommitted) and then the sessions.
    await requireSso(true);
    const made = await making;
    await db.execute(sql.raw('drop trigger slow_key on api_keys'));

    expect([201, 401]).toContain(made.statusCode);
    if (made.statusCode === 201) await refusedSoon(() => me(made.json().key as string));
    expect(await db.select({ id: apiKeys.id }).from(apiKeys).where(and(eq(apiKeys.userId, user!.id), isNull(apiKeys.revokedAt)))).toEqual([]);
    await refusedSoon(() => me(token));
  });
});
