import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha } from '../../../test/captcha';
import { startTestServer, type TestServer } from '../../../test/harness';

/** Every way to create an account or have one mailed takes the captcha, not only the password sign-up. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let visitors = 0;
const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, payload, remoteAddress: `10.77.0.${++visitors}` });

describe('captcha on the other sign-up doors (HTTP)', () => {
  it('passkey sign-up asks for it, refuses a bad one, and goes on with a good one', async () => {
    const body = { algorithms: ['es256'], email: 'passkey-bot@example.com', full_name: 'Bot' };
    const missing = await post('/v3/sso/users/webauthn/register/options', body);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('auth.captcha_required');
    const forged = await post('/v3/sso/users/webauthn/register/options', { ...body, captcha: 'bm90LWEtc29sdXRpb24=' });
    expect(forged.json().code).toBe('auth.captcha_invalid');
    const solved = await post('/v3/sso/users/webauthn/register/options', { ...body, captcha: await solveCaptcha(server.app) });
    expect(solved.statusCode).toBe(200);
    expect(solved.json().challenge).toBeDefined();
  });

  it('"resend activation" asks for it before mailing anyone', async () => {
    const missing = await post('/v3/sso/users/activation/resend', { email: 'resend-bot@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('auth.captcha_required');
    const solved = await post('/v3/sso/users/activation/resend', { email: 'resend-bot@example.com', captcha: await solveCaptcha(server.app) });
    expect(solved.statusCode).toBe(200);
  });
});
