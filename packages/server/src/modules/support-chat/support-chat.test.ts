import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands } from '@portal/contracts';
import { loadConfig } from '../../config';
import { runtimeConfigFor } from '../../platform/brand';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';

const SECRET = 'chatwoot-inbox-hmac-secret-0123';
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ env: { CHATWOOT_HMAC_SECRET: SECRET, CHATWOOT_BASE_URL: 'https://chat.example.com', CHATWOOT_WEBSITE_TOKEN: 'web-token-1' } });
  token = await identityClient(server.app, server.database).registeredUser('chat@example.com');
});
afterAll(() => server.close());

const get = (url: string, bearer = token) => server.app.inject({ url, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

describe('support-chat identity', () => {
  it('answers the identity with user_hash = HMAC-SHA256(identifier, secret) in hex', async () => {
    const response = await get('/v3/sso/me/chatwoot');
    expect(response.statusCode).toBe(200);
    const identity = response.json();
    const me = (await get('/v3/sso/me')).json();
    expect(identity).toEqual({
      identifier: me.id,
      name: 'Test Person',
      email: 'chat@example.com',
      language_override: 'en',
      user_hash: createHmac('sha256', SECRET).update(me.id).digest('hex'),
    });
    expect((await get('/v3/locker_platform/pm/users/me/chatwoot')).json()).toEqual(identity);
  });

  it('answers the password-manager user per product', async () => {
    const response = await get('/v3/locker_platform/pm/users/me');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'chat@example.com', full_name: 'Test Person', language: 'en', avatar_url: null, two_factor_enabled: false });
    expect((await get('/v3/Locker!_platform/pm/users/me')).statusCode).toBe(404);
  });

  it('needs a sign-in', async () => {
    expect((await get('/v3/sso/me/chatwoot', '')).statusCode).toBe(401);
    expect((await get('/v3/locker_platform/pm/users/me', '')).statusCode).toBe(401);
  });

  it('answers 404 when the chat is not configured', async () => {
    const bare = await startTestServer({ database: server.database });
    try {
      const response = await bare.app.inject({ url: '/v3/sso/me/chatwoot', headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    } finally {
      await bare.close();
    }
  });

  it('tells the web app where the widget and the bug-bounty product live', () => {
    const config = loadConfig({ NODE_ENV: 'development', CHATWOOT_BASE_URL: 'https://chat.example.com', CHATWOOT_WEBSITE_TOKEN: 'tok', BUGBOUNTY_URL: 'https://bugbounty.example.com' });
    const runtime = runtimeConfigFor(config, brands.platform);
    expect(runtime.chatwoot).toEqual({ baseUrl: 'https://chat.example.com', websiteToken: 'tok' });
    expect(runtime.productLinks.bugbounty).toBe('https://bugbounty.example.com');
    expect(runtimeConfigFor(loadConfig({ NODE_ENV: 'development' }), brands.platform).chatwoot).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'development', CHATWOOT_BASE_URL: 'https://chat.example.com' })).toThrow(/CHATWOOT_WEBSITE_TOKEN/);
  });
});
