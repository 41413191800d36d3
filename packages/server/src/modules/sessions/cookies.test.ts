import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { manualClock } from '../../../test/clock';

/** The Set-Cookie line of one cookie, by name. */
function setCookie(headers: Record<string, unknown>, name: string): string | undefined {
  const lines = ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []);
  return lines.find((line) => line.startsWith(`${name}=`));
}

const PASSWORD = 'plum-orbit-cactus-917';

describe('session cookies behind an https public URL (HTTP)', () => {
  let server: TestServer;
  let token: string;
  let signIn: Awaited<ReturnType<ReturnType<typeof identityClient>['signIn']>>;
  beforeAll(async () => {
    // Plain HTTP reaches the app (a proxy terminating TLS that says nothing): the public URL decides.
    server = await startTestServer({ env: { PLATFORM_ORIGIN: 'https://localhost' } });
    const client = identityClient(server.app, server.database);
    token = await client.registeredUser('cookie-secure@example.com', PASSWORD);
    signIn = await client.signIn('cookie-secure@example.com', PASSWORD);
  });
  afterAll(() => server.close());

  it('sets the session cookie Secure, httpOnly, host-only and __Host- prefixed', () => {
    const line = setCookie(signIn.headers, '__Host-auth_token');
    expect(line).toBeDefined();
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain=/i);
    expect(setCookie(signIn.headers, 'auth_token')).toBeUndefined();
  });

  it('keeps the readable display-name cookie under its name, Secure too', () => {
    const line = setCookie(signIn.headers, 'auth_display_name');
    expect(line).toMatch(/; Secure/);
    expect(line).not.toMatch(/HttpOnly/);
  });

  it('accepts the session only under the prefixed name', async () => {
    const sessionToken = signIn.json().token as string;
    const prefixed = await server.app.inject({ url: '/v3/sso/me', cookies: { '__Host-auth_token': sessionToken } });
    expect(prefixed.statusCode).toBe(200);
    const planted = await server.app.inject({ url: '/v3/sso/me', cookies: { auth_token: sessionToken } });
    expect(planted.statusCode).toBe(401);
  });

  it('marks every authenticated answer and the sign-in no-store', async () => {
    expect(signIn.headers['cache-control']).toBe('no-store');
    const me = await server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.headers['cache-control']).toBe('no-store');
    const notifications = await server.app.inject({ url: '/v3/notifications', headers: { authorization: `Bearer ${token}` } });
    expect(notifications.headers['cache-control']).toBe('no-store');
  });
});

describe('session cookies with a shared cookie domain or plain http (HTTP)', () => {
  it('keeps the plain name with a cookie domain, still Secure on https', async () => {
    const server = await startTestServer({ env: { PLATFORM_ORIGIN: 'https://localhost', COOKIE_DOMAIN: 'localhost' } });
    try {
      const client = identityClient(server.app, server.database);
      await client.registeredUser('cookie-domain@example.com', PASSWORD);
      const line = setCookie((await client.signIn('cookie-domain@example.com', PASSWORD)).headers, 'auth_token');
      expect(line).toMatch(/Domain=localhost/);
      expect(line).toMatch(/; Secure/);
    } finally {
      await server.close();
    }
  });

  it('sets no Secure flag and no prefix on a plain-http development URL', async () => {
    const server = await startTestServer();
    try {
      const client = identityClient(server.app, server.database);
      await client.registeredUser('cookie-http@example.com', PASSWORD);
      const line = setCookie((await client.signIn('cookie-http@example.com', PASSWORD)).headers, 'auth_token');
      expect(line).toBeDefined();
      expect(line).not.toMatch(/Secure/);
    } finally {
      await server.close();
    }
  });
});

describe('idle timeout (HTTP)', () => {
  const clock = manualClock();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { SESSION_IDLE_TIMEOUT_SECONDS: '3600' } });
  });
  afterAll(() => server.close());

  const me = (token: string) => server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });

  it('keeps a session in use alive and refuses one left idle past the timeout', async () => {
    const client = identityClient(server.app, server.database);
    const token = await client.registeredUser('idle@example.com', PASSWORD);
    clock.advance(50 * 60_000);
    expect((await me(token)).statusCode).toBe(200);
    clock.advance(50 * 60_000);
    expect((await me(token)).statusCode).toBe(200);
    clock.advance(61 * 60_000);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('is read from the environment with a documented default', async () => {
    const { loadConfig } = await import('../../config');
    expect(loadConfig({ NODE_ENV: 'development' }).SESSION_IDLE_TIMEOUT_SECONDS).toBe(604_800);
    expect(() => loadConfig({ NODE_ENV: 'development', SESSION_IDLE_TIMEOUT_SECONDS: '5' })).toThrow(/SESSION_IDLE_TIMEOUT_SECONDS/);
  });
});
