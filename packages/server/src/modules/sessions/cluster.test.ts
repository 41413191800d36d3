import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';

/**
 * Two API nodes on one database (and one Redis when REDIS_URL is set), as a scaled-out
 * deployment runs them: a session revoked through one is refused by the other, a rate
 * limit counts across both, and a sign-in started on one (password, then the two-step
 * challenge) finishes on the other, as a load balancer without sticky sessions sends it.
 */
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({ database: first.database, env: { REDIS_KEY_PREFIX: first.config.REDIS_KEY_PREFIX } });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

describe('two nodes, one database', () => {
  it('refuses on one node a session revoked through the other', async () => {
    const token = await identityClient(first.app, first.database).registeredUser('multi@example.com');
    const headers = { authorization: `Bearer ${token}` };
    expect((await second.app.inject({ url: '/v3/sso/me', headers })).statusCode).toBe(200);
    await first.app.inject({ method: 'POST', url: '/v3/sso/logout', headers });
    // The second node serves reads from memory; the database tells it of the revocation
    // (at once on PGlite, within milliseconds over PostgreSQL's LISTEN connection).
    await expect.poll(async () => (await second.app.inject({ url: '/v3/sso/me', headers })).statusCode, { timeout: 2000 }).toBe(401);
    // Writes read the database: refused on the second node with no wait at all.
    expect((await second.app.inject({ method: 'POST', url: '/v3/sso/me/last_active', headers })).statusCode).toBe(401);
  });

  it.runIf(process.env.REDIS_URL)('shares one sign-in failure limit through Redis', async () => {
    const one = identityClient(first.app, first.database);
    const two = identityClient(second.app, second.database);
    await one.registeredUser('shared@example.com');
    // Alternate nodes: the third failure, wherever it lands, must ask for a captcha.
    await one.signIn('shared@example.com', 'wrong-1-password');
    await two.signIn('shared@example.com', 'wrong-2-password');
    const third = await one.signIn('shared@example.com', 'wrong-3-password');
    expect(third.json().details.captcha_required).toBe(true);
    const fourth = await two.signIn('shared@example.com', 'plum-orbit-cactus-917');
    expect(fourth.json().code).toBe('auth.captcha_required');
  });

  it('finishes on one node a sign-in started on the other (password there, two-step code here)', async () => {
    const one = identityClient(first.app, first.database);
    const token = await one.registeredUser('roaming@example.com');
    const auth = { authorization: `Bearer ${token}` };
    const { secret } = (await first.app.inject({ method: 'POST', url: '/v3/sso/me/2fa/totp/setup', headers: auth })).json();
    const now = Math.floor(Date.now() / 1000);
    const enabled = await second.app.inject({ method: 'POST', url: '/v3/sso/me/2fa/totp/enable', headers: auth, payload: { code: await generate({ secret, epoch: now }) } });
    expect(enabled.statusCode).toBe(200);

    const started = await one.signIn('roaming@example.com', 'plum-orbit-cactus-917');
    expect(started.json()).toMatchObject({ mfa_required: true, method: 'totp' });
    const finished = await second.app.inject({
      method: 'POST',
      url: '/v3/sso/auth/mfa',
      payload: { mfa_token: started.json().mfa_token, code: await generate({ secret, epoch: now + 30 }) },
    });
    expect(finished.statusCode, finished.body).toBe(200);
    const session = { authorization: `Bearer ${finished.json().token}` };
    expect((await first.app.inject({ url: '/v3/sso/me', headers: session })).json().email).toBe('roaming@example.com');
  });
});
