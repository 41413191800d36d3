import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { apiKeys, avatars, notifications, oneTimeTokens, recoveryCodes, sessions, users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { runDeletionPurge } from './purge';
import type { RequestOrigin } from '../../platform/request-origin';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { deletionGate } from './deletion';

const PASSWORD = 'plum-orbit-cactus-917';
const DAY = 24 * 60 * 60 * 1000;
const clock = manualClock(new Date('2030-01-10T08:00:00Z'));
const origin: RequestOrigin = { brand: 'platform', lang: 'en', ip: '127.0.0.1', limitAddress: '127.0.0.1', deviceId: 'test-device-1' };
let server: TestServer;
let client: ReturnType<typeof identityClient>;

beforeAll(async () => {
  // Sessions here sit unused across the 14-day deletion window: the idle timeout must not end them first.
  server = await startTestServer({ clock, env: { DELETION_JOB_INTERVAL_SECONDS: '0', SESSION_IDLE_TIMEOUT_SECONDS: String(30 * 24 * 60 * 60) } });
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const requestDeletion = (token: string, body: Record<string, unknown> = {}) =>
  call(token, 'POST', '/v3/sso/me/deletion', { password: PASSWORD, confirmation: 'DELETE', ...body });
const userRow = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email)))[0]!;

/** The 403 a sign-in inside the deletion window answers (what deletionGate throws). */
async function gateAnswer(email: string) {
  try {
    await deletionGate({ db: server.database.db, clock }, await userRow(email), origin);
  } catch (error) {
    return error as { status: number; code: string; message: string; details: { deletion_due_at: string; restore_token: string } };
  }
  return null;
}

describe('requesting deletion', () => {
  it('refuses a wrong confirmation word and a wrong password', async () => {
    const token = await client.registeredUser('careful@example.com');
    const word = await requestDeletion(token, { confirmation: 'delete' });
    expect(word.statusCode).toBe(400);
    expect(word.json()).toMatchObject({ code: 'account.confirmation_mismatch', message: 'Type DELETE to confirm' });
    const blank = await requestDeletion(token, { confirmation: ' ' });
    expect(blank.json().details.fields.confirmation).toEqual({ code: 'validation.blank', message: 'This field may not be blank.' });
    const password = await requestDeletion(token, { password: 'not-the-password' });
    expect(password.json().code).toBe('auth.password_not_valid');
    expect((await call(token, 'GET', '/v3/sso/me')).json().deletion_due_at).toBeNull();
  });

  it('schedules the purge 14 days out, signs out every session, clears the cookies and mails the owner', async () => {
    const first = await client.registeredUser('leaving@example.com');
    const second = (await client.signIn('leaving@example.com', PASSWORD)).json().token as string;
    const response = await requestDeletion(first);
    expect(response.statusCode).toBe(200);
    const due = new Date(clock.now().getTime() + 14 * DAY).toISOString();
    expect(response.json()).toEqual({ deletion_due_at: due });
    const cleared = response.cookies.find((cookie) => cookie.name === 'auth_token');
    expect(cleared?.value).toBe('');
    for (const token of [first, second]) expect((await call(token, 'GET', '/v3/sso/me')).statusCode).toBe(401);
    await client.mailTo('leaving@example.com', /will be deleted on 2030-01-24/);
    expect((await userRow('leaving@example.com')).deletionDueAt?.toISOString()).toBe(due);
  });

  it('is for sessions only', async () => {
    expect((await server.app.inject({ method: 'POST', url: '/v3/sso/me/deletion', payload: { password: 'x', confirmation: 'DELETE' } })).statusCode).toBe(401);
  });
});

describe('signing in during the window', () => {
  it('answers 403 deletion_pending with a restore token; restoring cancels the deletion and signs in', async () => {
    const token = await client.registeredUser('changed-mind@example.com');
    await requestDeletion(token);
    const answer = await gateAnswer('changed-mind@example.com');
    expect(answer).toMatchObject({
      status: 403,
      code: 'account.deletion_pending',
      message: 'This account is scheduled for deletion on 2030-01-24',
      details: { deletion_due_at: '2030-01-24T08:00:00.000Z', restore_token: expect.stringMatching(/^[\w-]{43}$/) },
    });

    const restored = await client.post('/v3/sso/auth/restore', { restore_token: answer!.details.restore_token });
    expect(restored.statusCode).toBe(200);
    expect(restored.cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe(restored.json().token);
    const me = await call(restored.json().token, 'GET', '/v3/sso/me');
    expect(me.json()).toMatchObject({ email: 'changed-mind@example.com', deletion_due_at: null });
    await client.mailTo('changed-mind@example.com', /will not be deleted/);

    // Single use; and the account now signs in normally.
    expect((await client.post('/v3/sso/auth/restore', { restore_token: answer!.details.restore_token })).json().code).toBe('auth.mfa_token_invalid');
    expect(await gateAnswer('changed-mind@example.com')).toBeNull();
  });

  // The lead wires deletionGate into the sign-in (auth completeSignIn and the mfa step); this
  // test then runs the same story through POST /sso/auth.
  it('answers the sign-in itself with deletion_pending', async () => {
    const token = await client.registeredUser('http-restore@example.com');
    await requestDeletion(token);
    const signIn = await client.signIn('http-restore@example.com', PASSWORD);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ code: 'account.deletion_pending', details: { restore_token: expect.any(String) } });
    const wrong = await client.signIn('http-restore@example.com', 'wrong-password-9');
    expect(wrong.json().code).toBe('auth.invalid_credentials');
    const restored = await client.post('/v3/sso/auth/restore', { restore_token: signIn.json().details.restore_token });
    expect(restored.statusCode).toBe(200);
  });

  it('lets a restore token lapse after 15 minutes', async () => {
    const token = await client.registeredUser('lapsed@example.com');
    await requestDeletion(token);
    const answer = await gateAnswer('lapsed@example.com');
    clock.advance(16 * 60 * 1000);
    expect((await client.post('/v3/sso/auth/restore', { restore_token: answer!.details.restore_token })).json().code).toBe('auth.mfa_token_invalid');
    // A newer sign-in hands out a new token, and only the newest works.
    const older = await gateAnswer('lapsed@example.com');
    const newer = await gateAnswer('lapsed@example.com');
    expect((await client.post('/v3/sso/auth/restore', { restore_token: older!.details.restore_token })).statusCode).toBe(400);
    expect((await client.post('/v3/sso/auth/restore', { restore_token: newer!.details.restore_token })).statusCode).toBe(200);
  });
});

describe('after the window', () => {
  it('refuses sign-in and restore, and the purge empties the personal data', async () => {
    const token = await client.registeredUser('gone@example.com');
    await call(token, 'PUT', '/v3/sso/me', { full_name: 'Gone Person', language: 'vi', phone: '0900000000', company: 'Acme' });
    await call(token, 'POST', '/v3/sso/me/api-keys', { name: 'ci', scopes: ['me:read'] });
    await call(token, 'PUT', '/v3/sso/me/recovery-email', { email: 'gone-backup@example.com', password: PASSWORD });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
    const boundary = 'xxBOUNDARYxx';
    const upload = await server.app.inject({
      method: 'PUT',
      url: '/v3/sso/me/avatar',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    const avatarUrl = upload.json().avatar_url as string;
    const { id } = await userRow('gone@example.com');
    await server.database.db.insert(recoveryCodes).values({ id: randomUUID(), userId: id, codeHash: 'x' });
    await requestDeletion(token);
    const lastMinute = await gateAnswer('gone@example.com');

    clock.advance(14 * DAY + 60_000);
    expect(await gateAnswer('gone@example.com')).toMatchObject({ code: 'auth.invalid_credentials' });
    expect((await client.post('/v3/sso/auth/restore', { restore_token: lastMinute!.details.restore_token })).statusCode).toBe(400);

    expect(await runDeletionPurge(server.database.db, clock)).toBeGreaterThanOrEqual(1);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, id));
    expect(row).toMatchObject({
      email: `deleted-${id}@deleted.invalid`,
      fullName: 'Deleted user',
      username: null,
      passwordHash: null,
      phone: null,
      company: null,
      recoveryEmail: null,
      avatarVersion: 0,
      twoFactorMethod: null,
      totpSecret: null,
      purgedAt: clock.now(),
    });
    const db = server.database.db;
    for (const table of [sessions, apiKeys, notifications, avatars, oneTimeTokens, recoveryCodes]) {
      expect(await db.select().from(table).where(eq(table.userId, id))).toEqual([]);
    }
    expect((await server.app.inject({ url: avatarUrl })).statusCode).toBe(404);
    expect((await client.signIn('gone@example.com', PASSWORD)).json().code).toBe('auth.invalid_credentials');
    expect(await gateAnswer(`deleted-${id}@deleted.invalid`)).toMatchObject({ code: 'auth.invalid_credentials' });

    // Idempotent: nothing left to do.
    expect(await runDeletionPurge(server.database.db, clock)).toBe(0);
  });

  it('purges each due account exactly once when several runs race (two connections on PostgreSQL)', async () => {
    const emails = ['race-1@example.com', 'race-2@example.com', 'race-3@example.com', 'race-4@example.com'];
    for (const email of emails) await requestDeletion(await client.registeredUser(email));
    const kept = await client.registeredUser('staying@example.com');
    clock.advance(15 * DAY);

    // On PostgreSQL the second run has its own pool, so the runs really overlap and the
    // row locks (for update skip locked) decide; PGlite has one connection and serialises them.
    const other = server.database.url ? await openDatabase({ url: server.database.url }) : server.database;
    try {
      const counts = await Promise.all([
        runDeletionPurge(server.database.db, clock),
        runDeletionPurge(other.db, clock),
        runDeletionPurge(server.database.db, clock),
      ]);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(emails.length);
    } finally {
      if (other !== server.database) await other.close();
    }
    for (const email of emails) expect(await server.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await runDeletionPurge(server.database.db, clock)).toBe(0);
    expect((await call(kept, 'GET', '/v3/sso/me')).json().email).toBe('staying@example.com');
  });
});
