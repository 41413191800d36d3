import { describe, expect, it } from 'vitest';
import { CODE_MAIL, PASSWORD, twoStepTestServer } from '../../../test/two-step';

const h = twoStepTestServer();
const { clock, call, totpCode, nextStep, me, totpUser } = h;

describe('email-code sign-in', () => {
  it('mails a single-use code that signs in, with the same answer for unknown emails', async () => {
    const email = 'code-login@example.com';
    await h.client.registeredUser(email, PASSWORD);
    const known = await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const unknown = await call('POST', '/v3/sso/auth/code/send', { body: { email: 'nobody-here@example.com' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ email });
    expect(unknown.json()).toEqual({ email: 'nobody-here@example.com' });

    const [, code] = await h.client.mailTo(email, CODE_MAIL);
    const signedIn = await call('POST', '/v3/sso/auth/code', { body: { email: 'Code-Login@example.com', code } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe(signedIn.json().token);
    expect((await me(signedIn.json().token)).json().email).toBe(email);

    const reused = await call('POST', '/v3/sso/auth/code', { body: { email, code } });
    expect(reused.json()).toEqual({ code: 'auth.code_invalid', message: 'Verification code incorrect or expired' });
    const nobody = await call('POST', '/v3/sso/auth/code', { body: { email: 'nobody-here@example.com', code } });
    expect(nobody.json()).toEqual(reused.json());
  });

  it('limits sends: one every 30 seconds, with the seconds to wait', async () => {
    for (const email of ['limit-known@example.com', 'limit-unknown@example.com']) {
      if (email.startsWith('limit-known')) await h.client.registeredUser(email, PASSWORD);
      expect((await call('POST', '/v3/sso/auth/code/send', { body: { email } })).statusCode).toBe(200);
      const soon = await call('POST', '/v3/sso/auth/code/send', { body: { email } });
      expect(soon.statusCode).toBe(429);
      expect(soon.headers['retry-after']).toBeDefined();
      expect(soon.json().details.retry_after_seconds).toBeGreaterThan(0);
      expect(soon.json().details.retry_after_seconds).toBeLessThanOrEqual(30);
    }
  });

  it('limits sends per IP across addresses', async () => {
    const ip = '10.77.0.1';
    let last = 0;
    for (let index = 0; index < 31; index += 1) last = (await call('POST', '/v3/sso/auth/code/send', { ip, body: { email: `ip-spray-${index}@example.com` } })).statusCode;
    expect(last).toBe(429);
  });

  it('kills a code after 5 wrong guesses', async () => {
    const email = 'code-guess@example.com';
    await h.client.registeredUser(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await h.client.mailTo(email, CODE_MAIL);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await call('POST', '/v3/sso/auth/code', { body: { email, code: wrongCode } })).json().code).toBe('auth.code_invalid');
    }
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.code_invalid');
  });

  it('lets a code expire after 10 minutes', async () => {
    const email = 'code-late@example.com';
    await h.client.registeredUser(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await h.client.mailTo(email, CODE_MAIL);
    clock.advance(10 * 60_000 + 1000);
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.code_invalid');
  });

  it('answers the second-factor step when two-step is on', async () => {
    const email = 'code-2fa@example.com';
    const { secret } = await totpUser(email);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await h.client.mailTo(email, CODE_MAIL);
    const first = await call('POST', '/v3/sso/auth/code', { body: { email, code } });
    expect(first.json()).toMatchObject({ mfa_required: true, method: 'totp' });
    expect(first.json().token).toBeUndefined();
    nextStep();
    const done = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: first.json().mfa_token, code: await totpCode(secret) } });
    expect(done.statusCode).toBe(200);
  });

  it('refuses an account that is not activated yet, after the right code', async () => {
    const email = 'code-inactive@example.com';
    await h.client.signUp(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await h.client.mailTo(email, CODE_MAIL);
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.not_activated');
  });
});