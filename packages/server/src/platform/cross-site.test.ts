import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { identityClient } from '../../test/identity';
import { loadConfig } from '../config';
import { productOrigins } from './cross-site';

const PASSWORD = 'plum-orbit-cactus-917';
const PLATFORM = 'http://localhost:8080';
const LOCKER = 'http://locker.localhost:8080';

describe('productOrigins', () => {
  it('is the two brands plus CORS_ORIGINS, as origins', () => {
    const config = loadConfig({ NODE_ENV: 'development', CORS_ORIGINS: 'https://vault.example.com/app, https://whitehub.example.com' });
    expect([...productOrigins(config)]).toEqual([PLATFORM, LOCKER, 'https://vault.example.com', 'https://whitehub.example.com']);
    expect(() => loadConfig({ NODE_ENV: 'development', CORS_ORIGINS: 'not-an-origin' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('cross-site requests (HTTP)', () => {
  let server: TestServer;
  let client: ReturnType<typeof identityClient>;
  beforeAll(async () => {
    server = await startTestServer();
    client = identityClient(server.app, server.database);
    await client.registeredUser('cross-site@example.com', PASSWORD);
  });
  afterAll(() => server.close());

  async function cookieSession(): Promise<string> {
    return (await client.signIn('cross-site@example.com', PASSWORD)).json().token as string;
  }
  const logout = (token: string, headers: Record<string, string>) =>
    server.app.inject({ method: 'POST', url: '/v3/sso/logout', cookies: { auth_token: token }, headers });
  const stillSignedIn = async (token: string) => (await server.app.inject({ url: '/v3/sso/me', cookies: { auth_token: token } })).statusCode === 200;

  it('refuses a cookie-authenticated POST from another site with 403 and changes nothing', async () => {
    const token = await cookieSession();
    const refused = await logout(token, { origin: 'https://evil.example' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', details: { reason: 'cross_site_request' } });
    expect(await stillSignedIn(token)).toBe(true);
  });

  it('refuses by Sec-Fetch-Site when a browser sends no Origin, sibling subdomains included', async () => {
    const token = await cookieSession();
    expect((await logout(token, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await logout(token, { 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
    expect((await logout(token, { origin: 'null' })).statusCode).toBe(403);
    expect(await stillSignedIn(token)).toBe(true);
  });

  it('lets our own pages through: either brand, the host as addressed, or no browser at all', async () => {
    const ownPages: Array<Record<string, string>> = [{ origin: PLATFORM }, { origin: LOCKER }, { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' }, {}];
    for (const headers of ownPages) {
      const token = await cookieSession();
      expect((await logout(token, headers)).statusCode).toBe(204);
      expect(await stillSignedIn(token)).toBe(false);
    }
  });

  it('leaves bearer-authenticated calls alone (no ambient credential to abuse)', async () => {
    const token = await cookieSession();
    const response = await server.app.inject({ method: 'POST', url: '/v3/sso/logout', headers: { authorization: `Bearer ${token}`, origin: 'https://tool.example' } });
    expect(response.statusCode).toBe(204);
  });

  it('answers CORS for the product origins only, with credentials', async () => {
    const preflight = (origin: string) =>
      server.app.inject({ method: 'OPTIONS', url: '/v3/sso/auth', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, device-id' } });
    const ours = await preflight(LOCKER);
    expect(ours.statusCode).toBe(204);
    expect(ours.headers['access-control-allow-origin']).toBe(LOCKER);
    expect(ours.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ours.headers['access-control-allow-headers'])).toContain('device-id');
    const theirs = await preflight('https://evil.example');
    expect(theirs.headers['access-control-allow-origin']).toBeUndefined();
    expect(theirs.headers['access-control-allow-credentials']).toBeUndefined();

    const read = await server.app.inject({ url: '/v3/resources/lang', headers: { origin: LOCKER } });
    expect(read.headers['access-control-allow-origin']).toBe(LOCKER);
    expect(String(read.headers['access-control-expose-headers'])).toContain('device-id');
    expect(read.headers.vary).toContain('Origin');
    const foreign = await server.app.inject({ url: '/v3/resources/lang', headers: { origin: 'https://evil.example' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
