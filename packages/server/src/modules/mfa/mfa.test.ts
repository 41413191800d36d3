import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { CODE_MAIL, PASSWORD, twoStepTestServer } from '../../../test/two-step';

const h = twoStepTestServer();
const { clock, call, totpCode, nextStep, signIn, me, totpUser, challenge } = h;

describe('TOTP setup', () => {
  it('hands out a pending secret with its otpauth URL and QR code, and turns on only with a valid code', async () => {
    const token = await h.client.registeredUser('totp-setup@example.com', PASSWORD);
    const setup = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_code } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_url);
    expect(uri.searchParams.get('issuer')).toBe('CyStack ID');
    expect(decodeURIComponent(uri.pathname)).toBe('/CyStack ID:totp-setup@example.com');
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(',')[1], 'base64').toString()).toContain('<svg');

    // Still off until a code proves the app has the secret.
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json()).toEqual({ method: null, recovery_codes_remaining: 0 });
    expect((await signIn('totp-setup@example.com')).json().token).toBeDefined();

    const wrong = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: (Number(await totpCode(secret)) ^ 1).toString().padStart(6, '0') } });
    expect(wrong.json().code).toBe('auth.code_invalid');
    const badFormat = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: '12ab' } });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().details.fields.code).toEqual({ code: 'validation.codeFormat', message: 'Enter the 6-digit code' });

    const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } });
    expect(enabled.statusCode).toBe(200);
    const codes: string[] = enabled.json().recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json()).toEqual({ method: 'totp', recovery_codes_remaining: 10 });
    expect((await me(token)).json().two_factor_method).toBe('totp');
    await h.client.mailTo('totp-setup@example.com', /Two-step verification was turned on/);

    const again = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
    expect(again.json().code).toBe('auth.two_factor_already_enabled');
    expect((await call('POST', '/v3/sso/me/2fa/email/send', { token })).json().code).toBe('auth.two_factor_already_enabled');
  });

  it('lets a pending secret expire after 10 minutes', async () => {
    const token = await h.client.registeredUser('totp-late@example.com', PASSWORD);
    const { secret } = (await call('POST', '/v3/sso/me/2fa/totp/setup', { token })).json();
    clock.advance(11 * 60_000);
    // The sign-in is older than a sensitive change allows: prove it again first.
    expect((await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } })).json().code).toBe('auth.reauth_required');
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { password: PASSWORD } })).statusCode).toBe(204);
    const late = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } });
    expect(late.json().code).toBe('auth.code_invalid');
  });

  it('needs a session, never reaches anonymous callers', async () => {
    expect((await call('POST', '/v3/sso/me/2fa/totp/setup')).statusCode).toBe(401);
    expect((await call('GET', '/v3/sso/me/2fa')).statusCode).toBe(401);
  });
});

describe('recovery codes', () => {
  it('each signs in once, and regenerating replaces them all', async () => {
    const { token, secret, recovery } = await totpUser('recovery@example.com');
    const [first, second] = recovery as [string, string];
    const used = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('recovery@example.com'), recovery_code: first.toLowerCase() } });
    expect(used.statusCode).toBe(200);
    const again = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('recovery@example.com'), recovery_code: first } });
    expect(again.json().code).toBe('auth.recovery_code_invalid');
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json().recovery_codes_remaining).toBe(9);

    nextStep();
    const refused = await call('POST', '/v3/sso/me/2fa/recovery-codes', { token, body: { password: 'wrong-password-1', code: await totpCode(secret) } });
    expect(refused.json().code).toBe('auth.password_not_valid');
    const regenerated = await call('POST', '/v3/sso/me/2fa/recovery-codes', { token, body: { password: PASSWORD, code: await totpCode(secret) } });
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json().recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(second);
    const old = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('recovery@example.com'), recovery_code: second } });
    expect(old.json().code).toBe('auth.recovery_code_invalid');
    const works = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('recovery@example.com'), recovery_code: fresh[3] } });
    expect(works.statusCode).toBe(200);
  });
});

describe('turning two-step off', () => {
  it('needs the password and a current code, then mails the owner', async () => {
    const { token, secret } = await totpUser('disable@example.com');
    nextStep();
    const noCode = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD } });
    expect(noCode.statusCode).toBe(400);
    const wrongPassword = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: 'not-my-password', code: await totpCode(secret) } });
    expect(wrongPassword.json().code).toBe('auth.password_not_valid');
    expect(wrongPassword.json().details.fields.password).toEqual({ code: 'auth.password_not_valid', message: 'Password not valid' });
    const wrongCode = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code: String((Number(await totpCode(secret)) + 1) % 1_000_000).padStart(6, '0') } });
    expect(wrongCode.json().code).toBe('auth.code_invalid');
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json().method).toBe('totp');

    const off = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code: await totpCode(secret) } });
    expect(off.statusCode).toBe(204);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json()).toEqual({ method: null, recovery_codes_remaining: 0 });
    await h.client.mailTo('disable@example.com', /Two-step verification was turned off/);
    expect((await signIn('disable@example.com')).json().token).toBeDefined();
    const offAgain = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code: '123456' } });
    expect(offAgain.json().code).toBe('auth.two_factor_not_enabled');
  });

  it('takes a recovery code instead of the current code', async () => {
    const { token, recovery } = await totpUser('disable-recovery@example.com');
    const off = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, recovery_code: recovery[9] } });
    expect(off.statusCode).toBe(204);
  });
});

describe('the email method', () => {
  it('turns on with a mailed code, mails a code at each sign-in, and completes with it', async () => {
    const email = 'email-method@example.com';
    const token = await h.client.registeredUser(email, PASSWORD);
    expect((await call('POST', '/v3/sso/me/2fa/email/send', { token })).statusCode).toBe(204);
    const [, enableCode] = await h.client.mailTo(email, CODE_MAIL);
    const wrong = await call('POST', '/v3/sso/me/2fa/email/enable', { token, body: { code: String((Number(enableCode) + 1) % 1_000_000).padStart(6, '0') } });
    expect(wrong.json().code).toBe('auth.code_invalid');
    const enabled = await call('POST', '/v3/sso/me/2fa/email/enable', { token, body: { code: enableCode } });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().recovery_codes).toHaveLength(10);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json().method).toBe('email');

    const started = await signIn(email);
    expect(started.json()).toMatchObject({ mfa_required: true, method: 'email' });
    const [, signInCode] = await h.client.mailTo(email, CODE_MAIL, [enableCode!]);
    // The code that turned the method on is not a sign-in code.
    const crossUse = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: started.json().mfa_token, code: enableCode } });
    expect(crossUse.json().code).toBe('auth.code_invalid');
    // Resend right away: told how long to wait.
    const resend = await call('POST', '/v3/sso/auth/mfa/resend', { body: { mfa_token: started.json().mfa_token } });
    expect(resend.statusCode).toBe(429);
    expect(resend.json().details.retry_after_seconds).toBeGreaterThan(0);

    const done = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: started.json().mfa_token, code: signInCode } });
    expect(done.statusCode).toBe(200);
    expect((await me(done.json().token)).statusCode).toBe(200);
  });
});

describe('the email method, turning off', () => {
  it('takes the password and a freshly mailed code', async () => {
    const email = 'email-off@example.com';
    const token = await h.client.registeredUser(email, PASSWORD);
    // Set up directly: enabling through the API would mail a code of the same kind, and the
    // next one may only follow 30 seconds later (the limiter keeps real time).
    await h.server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
    expect((await call('POST', '/v3/sso/me/2fa/email/send', { token })).statusCode).toBe(204);
    const [, code] = await h.client.mailTo(email, CODE_MAIL);
    const wrongPassword = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: 'wrong-password-2', code } });
    expect(wrongPassword.json().code).toBe('auth.password_not_valid');
    expect((await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code } })).statusCode).toBe(204);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json().method).toBeNull();
    await h.client.mailTo(email, /Two-step verification was turned off/);
  });
});