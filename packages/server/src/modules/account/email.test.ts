import { eq } from 'drizzle-orm';
import { generate, generateSecret } from 'otplib';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { listOutbox } from '../../platform/mail';
import { fileServerWithClient } from '../../../test/server-with-client';

const PASSWORD = 'plum-orbit-cactus-917';
const clock = manualClock();
const { server, client } = fileServerWithClient({ clock });

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const CODE = /^ {4}(\d{6})$/m;

describe('changing the primary email', () => {
  it('sends a code to the new address and a notice to the old, and switches on the code', async () => {
    const token = await client.registeredUser('old-address@example.com');
    const asked = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'New-Address@Example.com', password: PASSWORD });
    expect(asked.statusCode).toBe(204);

    const [, code] = await client.mailTo('new-address@example.com', CODE);
    await client.mailTo('old-address@example.com', /asked to change its email address to new-address@example\.com/);

    const wrong = await call(token, 'POST', '/v3/sso/me/email/change/confirm', { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.json().code).toBe('auth.code_invalid');

    const confirmed = await call(token, 'POST', '/v3/sso/me/email/change/confirm', { code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().email).toBe('new-address@example.com');
    // The old address is told it happened; the code is used up; sign-in works with the new address.
    await client.mailTo('old-address@example.com', /is now new-address@example\.com/);
    expect((await call(token, 'POST', '/v3/sso/me/email/change/confirm', { code })).json().code).toBe('auth.code_invalid');
    expect((await client.signIn('new-address@example.com', PASSWORD)).statusCode).toBe(200);
    expect((await client.signIn('old-address@example.com', PASSWORD)).json().code).toBe('auth.invalid_credentials');
  });

  it('answers a taken address exactly like a free one: no code goes out, the owner is told', async () => {
    await client.registeredUser('taken@example.com');
    const token = await client.registeredUser('asker@example.com');
    const taken = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'taken@example.com', password: PASSWORD });
    const free = await call(await client.registeredUser('asker2@example.com'), 'POST', '/v3/sso/me/email/change', { new_email: 'free@example.com', password: PASSWORD });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.body).toBe(free.body);

    await client.mailTo('taken@example.com', /Someone tried to make this address the email of another/);
    await client.mailTo('asker@example.com', /asked to change its email address to taken@example\.com/);
    const toTaken = await listOutbox(server.database, { to: 'taken@example.com' });
    expect(toTaken.some((mail) => CODE.test(mail.text))).toBe(false);
    // No code guess can take the address.
    for (const guess of ['000000', '123456']) {
      expect((await call(token, 'POST', '/v3/sso/me/email/change/confirm', { code: guess })).json().code).toBe('auth.code_invalid');
    }
    const [row] = await server.database.db.select().from(users).where(eq(users.email, 'taken@example.com'));
    expect(row).toBeDefined();
  });

  it('requires the password, and a valid new address', async () => {
    const token = await client.registeredUser('pw-check@example.com');
    const wrong = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'x@example.com', password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('auth.password_not_valid');
    const invalid = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'nope', password: PASSWORD });
    expect(invalid.json().details.fields.new_email).toEqual({ code: 'validation.emailInvalid', message: 'Email address is not valid' });
    const same = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'pw-check@example.com', password: PASSWORD });
    expect(same.json().details.fields.new_email).toEqual({ code: 'account.same_email', message: 'This is already your email address' });
  });

  it('requires the second factor when two-step verification is on', async () => {
    const token = await client.registeredUser('two-step@example.com');
    const secret = generateSecret({ length: 20 });
    await server.database.db.update(users).set({ twoFactorMethod: 'totp', totpSecret: secret }).where(eq(users.email, 'two-step@example.com'));

    const missing = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'two-step-new@example.com', password: PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'auth.code_invalid', details: { second_factor_required: true, method: 'totp' } });
    const wrongCode = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'two-step-new@example.com', password: PASSWORD, code: '000000' });
    expect(wrongCode.json().code).toBe('auth.code_invalid');

    const code = await generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    const ok = await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'two-step-new@example.com', password: PASSWORD, code });
    expect(ok.statusCode).toBe(204);
    await client.mailTo('two-step-new@example.com', CODE);
  });

  it('refuses a code after 10 minutes', async () => {
    const token = await client.registeredUser('slow@example.com');
    await call(token, 'POST', '/v3/sso/me/email/change', { new_email: 'slow-new@example.com', password: PASSWORD });
    const [, code] = await client.mailTo('slow-new@example.com', CODE);
    clock.advance(11 * 60 * 1000);
    expect((await call(token, 'POST', '/v3/sso/me/email/change/confirm', { code })).json().code).toBe('auth.code_invalid');
  });

  it('is for sessions only', async () => {
    expect((await server.app.inject({ method: 'POST', url: '/v3/sso/me/email/change', payload: { new_email: 'a@b.co', password: 'x' } })).statusCode).toBe(401);
  });
});

describe('recovery email', () => {
  it('is set with the password, verified with its code, and removed', async () => {
    const token = await client.registeredUser('has-recovery@example.com');
    const wrong = await call(token, 'PUT', '/v3/sso/me/recovery-email', { email: 'backup@example.com', password: 'wrong-password-1' });
    expect(wrong.json().code).toBe('auth.password_not_valid');

    expect((await call(token, 'PUT', '/v3/sso/me/recovery-email', { email: 'Backup@Example.com', password: PASSWORD })).statusCode).toBe(204);
    const pending = (await call(token, 'GET', '/v3/sso/me')).json();
    expect(pending).toMatchObject({ recovery_email: 'backup@example.com', recovery_email_verified: false });

    const [, code] = await client.mailTo('backup@example.com', /^(\d{6})$/m);
    const verified = await call(token, 'POST', '/v3/sso/me/recovery-email/verify', { code });
    expect(verified.json()).toMatchObject({ recovery_email: 'backup@example.com', recovery_email_verified: true });
    expect((await call(token, 'POST', '/v3/sso/me/recovery-email/verify', { code })).json().code).toBe('auth.code_invalid');

    // An old session (a stolen one) cannot take the owner's way back in away: it proves itself first.
    clock.advance(6 * 60 * 1000);
    const stale = await call(token, 'DELETE', '/v3/sso/me/recovery-email');
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('auth.reauth_required');
    expect((await call(token, 'GET', '/v3/sso/me')).json()).toMatchObject({ recovery_email: 'backup@example.com', recovery_email_verified: true });
    expect((await call(token, 'POST', '/v3/sso/me/reauth', { password: PASSWORD })).statusCode).toBe(204);

    const removed = await call(token, 'DELETE', '/v3/sso/me/recovery-email');
    expect(removed.json()).toMatchObject({ recovery_email: null, recovery_email_verified: false });
  });

  it('must differ from the primary email', async () => {
    const token = await client.registeredUser('same-recovery@example.com');
    const same = await call(token, 'PUT', '/v3/sso/me/recovery-email', { email: 'same-recovery@example.com', password: PASSWORD });
    expect(same.json().details.fields.email).toEqual({ code: 'account.recovery_same_as_email', message: 'Enter a recovery email other than your email address' });
  });
});

describe('education email', () => {
  const LINK = /\/confirmation\/education-email\/([\w-]+)/;

  it('mails a link that confirms the address once', async () => {
    const token = await client.registeredUser('student@example.com');
    expect((await call(token, 'POST', '/v3/sso/me/education-email', { email: 'student@uni.edu.vn' })).statusCode).toBe(204);
    expect((await call(token, 'GET', '/v3/sso/me')).json().education_email).toBeNull();

    const [link, linkToken] = await client.mailTo('student@uni.edu.vn', LINK);
    expect(link).toMatch(/^\/confirmation\/education-email\//);
    const confirmed = await client.post('/v3/sso/users/education-email/confirm', { token: linkToken });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ email: 'student@uni.edu.vn' });
    expect((await call(token, 'GET', '/v3/sso/me')).json().education_email).toBe('student@uni.edu.vn');

    const used = await client.post('/v3/sso/users/education-email/confirm', { token: linkToken });
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({ code: 'account.email_link_invalid', message: 'This confirmation link has expired or has already been used' });
  });

  it('refuses an expired link, and any link but the newest', async () => {
    const token = await client.registeredUser('late-student@example.com');
    await call(token, 'POST', '/v3/sso/me/education-email', { email: 'late@uni.edu' });
    const [, first] = await client.mailTo('late@uni.edu', LINK);
    clock.advance(25 * 60 * 60 * 1000);
    expect((await client.post('/v3/sso/users/education-email/confirm', { token: first })).json().code).toBe('account.email_link_invalid');

    await call(token, 'POST', '/v3/sso/me/education-email', { email: 'late@uni.edu' });
    const [, second] = await client.mailTo('late@uni.edu', LINK, [first!]);
    await call(token, 'POST', '/v3/sso/me/education-email', { email: 'late@uni.edu' });
    const [, third] = await client.mailTo('late@uni.edu', LINK, [first!, second!]);
    expect((await client.post('/v3/sso/users/education-email/confirm', { token: second })).json().code).toBe('account.email_link_invalid');
    expect((await client.post('/v3/sso/users/education-email/confirm', { token: third })).statusCode).toBe(200);
    expect((await client.post('/v3/sso/users/education-email/confirm', { token: 'made-up' })).json().code).toBe('account.email_link_invalid');
  });
});
