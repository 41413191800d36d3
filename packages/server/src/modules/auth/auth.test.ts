import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { fileServerWithClient } from '../../../test/server-with-client';
import { solveCaptcha } from '../../../test/captcha';

const clock = manualClock();
const PASSWORD = 'plum-orbit-cactus-917';

const { server, client } = fileServerWithClient({ clock });

const me = (token: string) => server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });

describe('sign-up and activation', () => {
  it('creates an inactive account, mails an activation link, and activates once', async () => {
    const response = await client.signUp('alice@example.com');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ email: 'alice@example.com' });

    const early = await client.signIn('alice@example.com', PASSWORD);
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('auth.not_activated');

    const [, token] = await client.mailTo('alice@example.com', /\/confirmation\/([\w-]+)/);
    const activated = await client.post('/v3/sso/users/activate', { token });
    expect(activated.json()).toEqual({ email: 'alice@example.com', needs_password: false });
    const again = await client.post('/v3/sso/users/activate', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('auth.activation_link_invalid');

    const signIn = await client.signIn('ALICE@example.com', PASSWORD);
    expect(signIn.statusCode).toBe(200);
    const { token: session } = signIn.json();
    expect(session).toMatch(/^[\w-]{43}$/);
    const cookie = signIn.cookies.find((c) => c.name === 'auth_token');
    expect(cookie).toMatchObject({ httpOnly: true, maxAge: 2592000, sameSite: 'Lax' });
    expect(signIn.cookies.find((c) => c.name === 'auth_display_name')?.value).toBe('Test%20Person');
    expect((await me(session)).json()).toMatchObject({ email: 'alice@example.com', full_name: 'Test Person', is_activated: true });
  });

  it('refuses an activation link once it has expired', async () => {
    await client.signUp('late@example.com');
    const [, token] = await client.mailTo('late@example.com', /\/confirmation\/([\w-]+)/);
    clock.advance(25 * 60 * 60 * 1000);
    const response = await client.post('/v3/sso/users/activate', { token });
    expect(response.json().code).toBe('auth.activation_link_invalid');
    const resend = await client.post('/v3/sso/users/activation/resend', { email: 'late@example.com', captcha: await solveCaptcha(server.app) });
    expect(resend.statusCode).toBe(200);
    expect((await client.activate('late@example.com', [token!])).statusCode).toBe(200);
  });

  it('answers a taken email exactly like a new one and mails the owner instead', async () => {
    await client.registeredUser('owner@example.com');
    const taken = await client.signUp('owner@example.com', 'another-strong-pass-1');
    const fresh = await client.signUp('nobody-yet@example.com', 'another-strong-pass-1');
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(taken.json())).toEqual(Object.keys(fresh.json()));
    await client.mailTo('owner@example.com', /already has an account|đã có tài khoản/i);
  });

  it('validates every field with the spec words', async () => {
    const bad = await client.post('/v3/sso/users', { full_name: '', email: 'nope', password: 'short', accept_terms: false });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().details.fields;
    expect(fields.email).toEqual({ code: 'validation.emailInvalid', message: 'Email address is not valid' });
    expect(fields.full_name).toEqual({ code: 'validation.blank', message: 'This field may not be blank.' });
    expect(fields.password).toEqual({ code: 'validation.passwordTooShort', message: expect.stringMatching(/at least 8/) });
    expect(fields.accept_terms).toEqual({ code: 'validation.termsRequired', message: expect.stringMatching(/Terms/) });
    const missing = await client.post('/v3/sso/users', { full_name: 'A', password: 'x'.repeat(10), accept_terms: true });
    expect(missing.json().details.fields.email).toEqual({ code: 'validation.emailRequired', message: 'The email field is required' });
  });

  it('refuses common passwords and a missing captcha', async () => {
    const common = await client.signUp('common@example.com', 'password123');
    expect(common.json().code).toBe('auth.password_too_common');
    const noCaptcha = await client.post('/v3/sso/users', { full_name: 'A', email: 'a@example.com', password: PASSWORD, accept_terms: true });
    expect(noCaptcha.json().code).toBe('auth.captcha_required');
  });
});

describe('sign-in', () => {
  it('signs in by username too, and answers unknown and wrong alike', async () => {
    await client.registeredUser('bob@example.com');
    const wrong = await client.signIn('bob@example.com', 'not-the-password');
    const unknown = await client.signIn('ghost@example.com', 'not-the-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Email or password not valid');
  });

  it('asks for a captcha after repeated failures, then throttles', async () => {
    await client.registeredUser('carol@example.com');
    let last;
    for (let attempt = 0; attempt < 3; attempt += 1) last = await client.signIn('carol@example.com', 'wrong-password');
    expect(last?.json().details.captcha_required).toBe(true);
    const withoutCaptcha = await client.signIn('carol@example.com', PASSWORD);
    expect(withoutCaptcha.json().code).toBe('auth.captcha_required');
    const withCaptcha = await client.signIn('carol@example.com', PASSWORD, { captcha: await solveCaptcha(server.app) });
    expect(withCaptcha.statusCode).toBe(200);
  });

  it('sign-out revokes the session on the server', async () => {
    const token = await client.registeredUser('dave@example.com');
    expect((await me(token)).statusCode).toBe(200);
    const out = await server.app.inject({ method: 'POST', url: '/v3/sso/logout', headers: { authorization: `Bearer ${token}` } });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'auth_display_name')?.value).toBe('');
    const after = await me(token);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized');
  });

  it('expires sessions after 30 days', async () => {
    const token = await client.registeredUser('erin@example.com');
    clock.advance(30 * 24 * 60 * 60 * 1000 + 1000);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('PUT /sso/me', () => {
  it('updates name and language and stores the lang cookie', async () => {
    const token = await client.registeredUser('frank@example.com');
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v3/sso/me',
      headers: { authorization: `Bearer ${token}` },
      payload: { full_name: 'Frank V', username: 'frank1', language: 'vi', customer_language: 'vi', email: 'ignored@x.io' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ full_name: 'Frank V', username: 'frank1', language: 'vi', email: 'frank@example.com' });
    expect(response.cookies.find((c) => c.name === 'lang')).toMatchObject({ value: 'vi', maxAge: 604800 });
    expect((await client.signIn('FRANK1', PASSWORD)).statusCode).toBe(200);
  });

  it('refuses signed-out callers and bad values', async () => {
    const anonymous = await server.app.inject({ method: 'PUT', url: '/v3/sso/me', payload: { full_name: 'x', language: 'en' } });
    expect(anonymous.statusCode).toBe(401);
    const token = await client.registeredUser('gina@example.com');
    const bad = await server.app.inject({
      method: 'PUT',
      url: '/v3/sso/me',
      headers: { authorization: `Bearer ${token}` },
      payload: { full_name: ' ', username: 'bad name!', language: 'fr' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details.fields).sort()).toEqual(['full_name', 'language', 'username']);
  });
});

describe('sign-in throttling', () => {
  it('counts failures per account whatever identifier is typed, and locks only the guessing address', async () => {
    await client.registeredUser('lock@example.com');
    await server.app.inject({ method: 'PUT', url: '/v3/sso/me', headers: { authorization: `Bearer ${(await client.signIn('lock@example.com', PASSWORD)).json().token}` }, payload: { full_name: 'Lock', username: 'lockuser', language: 'en' } });
    await client.signIn('lock@example.com', 'wrong-password-1');
    await client.signIn('lockuser', 'wrong-password-2');
    const third = await client.signIn('LOCK@example.com', 'wrong-password-3');
    expect(third.json().details.captcha_required).toBe(true);

    const guess = async (remoteAddress: string) =>
      server.app.inject({ method: 'POST', url: '/v3/sso/auth', remoteAddress, payload: { email: 'lock@example.com', password: 'wrong-again', captcha: await solveCaptcha(server.app) } });
    let last;
    for (let attempt = 0; attempt < 11; attempt += 1) last = await guess('127.9.9.9');
    expect(last?.statusCode).toBe(429);
    expect(last?.json().details.retry_after_seconds).toBeGreaterThan(0);
    // The account's budget is spent: from anywhere, the next try waits the delay it is told.
    const owner = await server.app.inject({ method: 'POST', url: '/v3/sso/auth', remoteAddress: '127.8.8.8', payload: { email: 'lock@example.com', password: PASSWORD, captcha: await solveCaptcha(server.app) } });
    expect(owner.statusCode).toBe(429);
    expect(owner.json().message).toMatch(/Try again in \d+ seconds/);
  });

  it('a completed reset ends the lockout of that account at once, and of no other', async () => {
    await client.registeredUser('reset-lock@example.com');
    await client.registeredUser('other-lock@example.com');
    const guess = async (email: string, password: string) =>
      server.app.inject({ method: 'POST', url: '/v3/sso/auth', remoteAddress: '127.7.7.7', payload: { email, password, captcha: await solveCaptcha(server.app) } });
    for (let attempt = 0; attempt < 10; attempt += 1) await guess('reset-lock@example.com', 'wrong-password');
    for (let attempt = 0; attempt < 10; attempt += 1) await guess('other-lock@example.com', 'wrong-password');
    expect((await guess('reset-lock@example.com', PASSWORD)).statusCode).toBe(429);

    const forgot = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'reset-lock@example.com', email: 'reset-lock@example.com' }, {}, '127.7.7.7');
    expect(forgot.statusCode).toBe(204);
    const [, code] = await client.mailTo('reset-lock@example.com', /\b(\d{6})\b/);
    const verified = await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'reset-lock@example.com', code }, {}, '127.7.7.7');
    const newPassword = 'fresh-orbit-lantern-42';
    const reset = await client.post('/v3/sso/password/reset', { token: verified.json().reset_token, new_password: newPassword, confirm_password: newPassword }, {}, '127.7.7.7');
    expect(reset.statusCode).toBe(204);

    // Same network, at once, with the new password.
    const after = await guess('reset-lock@example.com', newPassword);
    expect(after.statusCode).toBe(200);
    // The other account's lockout (from the same address) stands.
    expect((await guess('other-lock@example.com', PASSWORD)).statusCode).toBe(429);
  });

  it('counts failures per address, not successes: a crowd behind one address signs in', async () => {
    const emails = Array.from({ length: 6 }, (_, index) => `crowd${index}@example.com`);
    for (const email of emails) await client.registeredUser(email);
    const from = (email: string, password: string) =>
      server.app.inject({ method: 'POST', url: '/v3/sso/auth', remoteAddress: '127.6.6.6', payload: { email, password } });
    // signin:ip is 50 per 10 minutes: 60 successful sign-ins from one address all pass.
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(emails.map((email) => from(email, PASSWORD)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(emails.map(() => 200));
    }
  });
});
