import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, sessions, users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { sha256 } from '../../platform/crypto';
import { fileServerWithClient } from '../../../test/server-with-client';

const clock = manualClock();
const { server, client } = fileServerWithClient({ clock });
let session: string;

beforeAll(async () => {
  session = await client.registeredUser('keys@example.com');
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const createKey = async (body: Record<string, unknown>) => {
  const response = await call(session, 'POST', '/v3/sso/me/api-keys', body);
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; key: string; prefix: string; scopes: string[]; expires_at: string | null; last_used_at: string | null };
};
const FORBIDDEN = "Your account doesn't have permission to perform this action";

describe('API keys', () => {
  it('creates a key shown once, stored only as a hash, listed by its prefix; mails and notifies the owner', async () => {
    const created = await createKey({ name: 'Reader', scopes: ['me:read'] });
    expect(created.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(3, 11));
    expect(created).toMatchObject({ name: 'Reader', scopes: ['me:read'], expires_at: null, last_used_at: null });

    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.keyHash).toBe(sha256(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(11));

    const list = await call(session, 'GET', '/v3/sso/me/api-keys');
    expect(list.json()).toEqual([expect.objectContaining({ id: created.id, prefix: created.prefix })]);
    expect(list.body).not.toContain(created.key);

    await client.mailTo('keys@example.com', /An API key named "Reader" was just created/);
    const feed = await call(session, 'GET', '/v3/notifications');
    expect(feed.json().items[0]).toMatchObject({ type: 'other', title: 'A new API key was created', read: false });
  });

  it('authenticates /v3 calls within its scopes and records its use', async () => {
    const { id, key } = await createKey({ name: 'Me reader', scopes: ['me:read'] });
    const me = await call(key, 'GET', '/v3/sso/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('keys@example.com');
    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row!.lastUsedAt).toEqual(clock.now());

    const write = await call(key, 'PUT', '/v3/sso/me', { full_name: 'Changed by key', language: 'en' });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ code: 'api_keys.scope_missing', message: FORBIDDEN, details: { scope: 'me:write' } });
    expect((await call(key, 'GET', '/v3/notifications')).json().code).toBe('api_keys.scope_missing');
  });

  it('writes with me:write and reads notifications with notifications:read', async () => {
    const { key } = await createKey({ name: 'Writer', scopes: ['me:write', 'notifications:read'] });
    const write = await call(key, 'PUT', '/v3/sso/me', { full_name: 'Changed By Key', language: 'en' });
    expect(write.statusCode).toBe(200);
    expect(write.json().full_name).toBe('Changed By Key');
    expect((await call(key, 'GET', '/v3/notifications')).statusCode).toBe(200);
    expect((await call(key, 'GET', '/v3/sso/me')).statusCode).toBe(403);
  });

  it('never reaches session-only routes: keys, password, two-step, sessions, email, deletion, export', async () => {
    const { key } = await createKey({ name: 'Everything', scopes: ['me:read', 'me:write', 'notifications:read', 'notifications:write'] });
    const refused: Array<[method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object]> = [
      ['GET', '/v3/sso/me/api-keys'],
      ['POST', '/v3/sso/me/api-keys', { name: 'escalate', scopes: ['me:read'] }],
      ['DELETE', '/v3/sso/me/api-keys/00000000-0000-4000-8000-000000000000'],
      ['POST', '/v3/sso/me/deletion', { password: 'plum-orbit-cactus-917', confirmation: 'DELETE' }],
      ['POST', '/v3/sso/me/email/change', { new_email: 'x@example.com', password: 'plum-orbit-cactus-917' }],
      ['GET', '/v3/sso/me/export'],
      ['POST', '/v3/sso/me/last_active'],
      ['PUT', '/v3/sso/me/password', { current_password: 'plum-orbit-cactus-917', new_password: 'another-strong-pass-2', confirm_password: 'another-strong-pass-2' }],
      ['GET', '/v3/sso/me/2fa'],
      ['GET', '/v3/sso/me/sessions'],
    ];
    for (const [method, url, body] of refused) {
      const response = await call(key, method, url, body);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 403 });
      expect(response.json().message).toBe(FORBIDDEN);
    }
    expect((await call(session, 'GET', '/v3/sso/me/api-keys')).statusCode).toBe(200);
  });

  it('stops working once revoked (401), and cannot be revoked twice or by someone else', async () => {
    const { id, key } = await createKey({ name: 'Short-lived', scopes: ['me:read'] });
    const stranger = await client.registeredUser('stranger@example.com');
    expect((await call(stranger, 'DELETE', `/v3/sso/me/api-keys/${id}`)).json().code).toBe('api_keys.not_found');
    expect((await call(key, 'GET', '/v3/sso/me')).statusCode).toBe(200);

    expect((await call(session, 'DELETE', `/v3/sso/me/api-keys/${id}`)).statusCode).toBe(204);
    const after = await call(key, 'GET', '/v3/sso/me');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized');
    expect((await call(session, 'DELETE', `/v3/sso/me/api-keys/${id}`)).statusCode).toBe(404);
    expect((await call(session, 'GET', '/v3/sso/me/api-keys')).json().map((k: { id: string }) => k.id)).not.toContain(id);
  });

  it('stops working once expired (401)', async () => {
    const { key, expires_at } = await createKey({ name: 'One day', scopes: ['me:read'], expires_in_days: 1 });
    expect(expires_at).toBe(new Date(clock.now().getTime() + 24 * 60 * 60 * 1000).toISOString());
    expect((await call(key, 'GET', '/v3/sso/me')).statusCode).toBe(200);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await call(key, 'GET', '/v3/sso/me')).statusCode).toBe(401);
  });

  it('refuses unknown and malformed keys with 401', async () => {
    for (const key of [`pk_${'A'.repeat(43)}`, 'pk_short', `pk_${'x'.repeat(600)}`]) {
      expect((await call(key, 'GET', '/v3/sso/me')).statusCode).toBe(401);
    }
  });

  it('takes a token for a key only by its whole shape: a session token that starts with the prefix is a session', async () => {
    // One session token in 262,144 starts with "pk_" by chance (43 random base64url characters):
    // taken for a key by its prefix, its owner was refused everywhere (401, and 403 on session-only routes).
    const [owner] = await server.database.db.select().from(users).where(eq(users.email, 'keys@example.com'));
    const token = `pk_${randomBytes(30).toString('base64url')}`;
    expect(token).toHaveLength(43);
    const now = clock.now();
    await server.database.db.insert(sessions).values({ id: randomUUID(), userId: owner!.id, tokenHash: sha256(token), createdAt: now, lastActiveAt: now, expiresAt: new Date(now.getTime() + 86_400_000) });

    expect((await call(token, 'GET', '/v3/sso/me')).json()).toMatchObject({ email: 'keys@example.com' });
    expect((await call(token, 'GET', '/v3/sso/me/api-keys')).statusCode).toBe(200);
    const byCookie = await server.app.inject({ method: 'GET', url: '/v3/sso/me', cookies: { auth_token: token } });
    expect(byCookie.statusCode).toBe(200);
  });

  it('validates the request with the contract words', async () => {
    const blank = await call(session, 'POST', '/v3/sso/me/api-keys', { name: ' ', scopes: ['me:read'] });
    expect(blank.json().details.fields.name).toEqual({ code: 'validation.blank', message: 'This field may not be blank.' });
    const none = await call(session, 'POST', '/v3/sso/me/api-keys', { name: 'x', scopes: [] });
    expect(none.json().details.fields.scopes).toEqual({ code: 'validation_error', message: 'Choose at least one scope' });
    const unknown = await call(session, 'POST', '/v3/sso/me/api-keys', { name: 'x', scopes: ['admin'] });
    expect(unknown.statusCode).toBe(400);
    const long = await call(session, 'POST', '/v3/sso/me/api-keys', { name: 'x', scopes: ['me:read'], expires_in_days: 366 });
    expect(long.statusCode).toBe(400);
  });
});
