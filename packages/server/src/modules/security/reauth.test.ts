import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { fileServerWithClient } from '../../../test/server-with-client';
import { visitorCalls } from '../../../test/visitor-calls';

/** Sensitive changes need a recent proof; a password change ends what sign-ins left pending. */
const clock = manualClock();
const PASSWORD = 'plum-orbit-cactus-917';
const NEW_PASSWORD = 'lantern-gravel-heron-42';
const CODE_MAIL = /\n {4}(\d{6})\n/;
const { server, client } = fileServerWithClient({ clock });

const call = visitorCalls(() => server, '10.6');

const SIX_MINUTES = 6 * 60_000;

describe('re-authentication for sensitive changes', () => {
  it('asks a session signed in minutes ago to prove it again before adding an API key, a passkey or an authenticator app', async () => {
    const token = await client.registeredUser('stale-session@example.com', PASSWORD);
    // Fresh from sign-in: allowed.
    expect((await call('POST', '/v3/sso/me/api-keys', { token, body: { name: 'fresh', scopes: ['me:read'] } })).statusCode).toBe(201);

    clock.advance(SIX_MINUTES);
    for (const [url, body] of [
      ['/v3/sso/me/api-keys', { name: 'stale', scopes: ['me:read'] }],
      ['/v3/sso/users/me/webauthn/enable/options', { algorithms: ['es256'] }],
      ['/v3/sso/me/2fa/totp/setup', {}],
    ] as const) {
      const refused = await call('POST', url, { token, body });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'auth.reauth_required', message: 'Confirm it is you to continue' });
    }

    const wrong = await call('POST', '/v3/sso/me/reauth', { token, body: { password: 'not-my-password' } });
    expect(wrong.json().code).toBe('auth.password_not_valid');
    expect((await call('POST', '/v3/sso/me/api-keys', { token, body: { name: 'stale', scopes: ['me:read'] } })).statusCode).toBe(403);
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { password: PASSWORD } })).statusCode).toBe(204);
    expect((await call('POST', '/v3/sso/me/api-keys', { token, body: { name: 'proved', scopes: ['me:read'] } })).statusCode).toBe(201);
    expect((await call('POST', '/v3/sso/me/2fa/totp/setup', { token })).statusCode).toBe(200);

    // The proof ages like a sign-in.
    clock.advance(SIX_MINUTES);
    expect((await call('POST', '/v3/sso/me/api-keys', { token, body: { name: 'again', scopes: ['me:read'] } })).json().code).toBe('auth.reauth_required');
  });

  it('asks again before turning two-step off, replacing the recovery codes or changing the email, besides what the request itself asks', async () => {
    const email = 'stale-two-step@example.com';
    const token = await client.registeredUser(email, PASSWORD);
    const setup = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
    const { secret } = setup.json();
    const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) }) } });
    expect(enabled.statusCode).toBe(200);
    let recovery = enabled.json().recovery_codes as string[];

    // Fresh from sign-in: the request's own password and code are enough.
    const fresh = await call('POST', '/v3/sso/me/2fa/recovery-codes', { token, body: { password: PASSWORD, recovery_code: recovery[0] } });
    expect(fresh.statusCode).toBe(200);
    recovery = fresh.json().recovery_codes;

    clock.advance(SIX_MINUTES);
    for (const [url, body] of [
      ['/v3/sso/me/2fa/recovery-codes', { password: PASSWORD, recovery_code: recovery[0] }],
      ['/v3/sso/me/2fa/disable', { password: PASSWORD, recovery_code: recovery[1] }],
      ['/v3/sso/me/email/change', { new_email: 'stale-two-step-new@example.com', password: PASSWORD, recovery_code: recovery[2] }],
    ] as const) {
      const refused = await call('POST', url, { token, body });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'auth.reauth_required', message: 'Confirm it is you to continue' });
    }

    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { password: PASSWORD } })).statusCode).toBe(204);
    const regenerated = await call('POST', '/v3/sso/me/2fa/recovery-codes', { token, body: { password: PASSWORD, recovery_code: recovery[0] } });
    expect(regenerated.statusCode).toBe(200);
    recovery = regenerated.json().recovery_codes;
    // The request still asks for its own proof: a recent session alone is not enough.
    expect((await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: 'not-my-password', recovery_code: recovery[0] } })).json().code).toBe('auth.password_not_valid');
    expect((await call('POST', '/v3/sso/me/email/change', { token, body: { new_email: 'stale-two-step-new@example.com', password: PASSWORD, recovery_code: recovery[1] } })).statusCode).toBe(204);
    expect((await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, recovery_code: recovery[2] } })).statusCode).toBe(204);

    clock.advance(SIX_MINUTES);
    expect((await call('POST', '/v3/sso/me/email/change', { token, body: { new_email: 'stale-again@example.com', password: PASSWORD } })).json().code).toBe('auth.reauth_required');
  });

  it('needs a recent proof to set the first password of a passkey-only account', async () => {
    const token = await client.registeredUser('first-password@example.com', PASSWORD);
    await server.database.db.update(users).set({ passwordHash: null }).where(eq(users.email, 'first-password@example.com'));
    clock.advance(SIX_MINUTES);
    const refused = await call('PUT', '/v3/sso/me/password', { token, body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD } });
    expect(refused.json().code).toBe('auth.reauth_required');
  });

  it('validates the proof: exactly one of password, code or recovery code', async () => {
    const token = await client.registeredUser('reauth-input@example.com', PASSWORD);
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: {} })).statusCode).toBe(400);
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { password: PASSWORD, code: '123456' } })).statusCode).toBe(400);
    expect((await call('POST', '/v3/sso/me/reauth', { token, body: { code: '123456' } })).json().code).toBe('auth.two_factor_not_enabled');
    expect((await call('POST', '/v3/sso/me/reauth', { body: { password: PASSWORD } })).statusCode).toBe(401);
  });
});

describe('a password change ends what sign-ins left pending', () => {
  it('kills a mailed sign-in code issued before the change', async () => {
    const email = 'pending-code@example.com';
    const token = await client.registeredUser(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await client.mailTo(email, CODE_MAIL);
    expect((await call('PUT', '/v3/sso/me/password', { token, body: { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD } })).statusCode).toBe(204);
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.code_invalid');
  });

  it('kills a pending second step started with the old password', async () => {
    const email = 'pending-mfa@example.com';
    const token = await client.registeredUser(email, PASSWORD);
    await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
    const started = await call('POST', '/v3/sso/auth', { body: { email, password: PASSWORD } });
    expect(started.json().mfa_required).toBe(true);
    const [, code] = await client.mailTo(email, CODE_MAIL);
    expect((await call('PUT', '/v3/sso/me/password', { token, body: { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD } })).statusCode).toBe(204);
    const finish = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: started.json().mfa_token, code } });
    expect(finish.json().code).toBe('auth.mfa_token_invalid');
  });

  it("lists the account's passkeys and API keys, with where to review them, in the security mail", async () => {
    const email = 'inventory@example.com';
    const token = await client.registeredUser(email, PASSWORD);
    expect((await call('POST', '/v3/sso/me/api-keys', { token, body: { name: 'deploy bot', scopes: ['me:read'] } })).statusCode).toBe(201);
    expect((await call('PUT', '/v3/sso/me/password', { token, body: { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD } })).statusCode).toBe(204);
    const [text] = await client.mailTo(email, /password was changed[\s\S]*API keys on your account: deploy bot \([^)]+…\)\. Review them at \S+\/api-keys/i);
    expect(text).toMatch(/Passkeys on your account: none\. Review them at \S+\/security\/webauthn/);
  });
});
