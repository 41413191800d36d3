import { describe, expect, it } from 'vitest';
import { fileServerWithClient } from '../../../test/server-with-client';
import { visitorCalls } from '../../../test/visitor-calls';

const PASSWORD = 'plum-orbit-cactus-917';
const NEW_PASSWORD = 'lantern-gravel-heron-42';
const { server, client } = fileServerWithClient();

const call = visitorCalls(() => server, '10.7');

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** A user signed in on three browsers; returns the three session tokens. */
async function userOnThreeBrowsers(email: string): Promise<[string, string, string]> {
  const first = await client.registeredUser(email, PASSWORD);
  const second = (await call('POST', '/v3/sso/auth', { body: { email, password: PASSWORD }, userAgent: FIREFOX })).json().token;
  const third = (await call('POST', '/v3/sso/auth', { body: { email, password: PASSWORD } })).json().token;
  return [first, second, third];
}

describe('sessions (device activity)', () => {
  it('lists live sessions with the current one marked', async () => {
    const [first, second] = await userOnThreeBrowsers('sessions-list@example.com');
    const list = await call('GET', '/v3/sso/me/sessions', { token: second });
    expect(list.statusCode).toBe(200);
    const sessions = list.json() as Array<Record<string, unknown>>;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    const current = sessions.find((session) => session.current)!;
    expect(current).toMatchObject({ browser: 'Firefox 128', device: 'Linux', ip: expect.any(String), created_at: expect.any(String), last_active_at: expect.any(String) });
    const fromFirst = (await call('GET', '/v3/sso/me/sessions', { token: first })).json() as Array<Record<string, unknown>>;
    expect(fromFirst.find((session) => session.current)!.id).not.toBe(current.id);
  });

  it('revokes one session: its token is refused at once', async () => {
    const [first, second] = await userOnThreeBrowsers('sessions-revoke@example.com');
    const sessions = (await call('GET', '/v3/sso/me/sessions', { token: second })).json() as Array<{ id: string; current: boolean }>;
    const secondId = sessions.find((session) => session.current)!.id;
    expect((await call('GET', '/v3/sso/me', { token: second })).statusCode).toBe(200);
    expect((await call('DELETE', `/v3/sso/me/sessions/${secondId}`, { token: first })).statusCode).toBe(204);
    expect((await call('GET', '/v3/sso/me', { token: second })).statusCode).toBe(401);
    expect((await call('GET', '/v3/sso/me', { token: first })).statusCode).toBe(200);
    expect((await call('GET', '/v3/sso/me/sessions', { token: first })).json()).toHaveLength(2);
    expect((await call('DELETE', `/v3/sso/me/sessions/${secondId}`, { token: first })).json().code).toBe('auth.session_not_found');
  });

  it("cannot revoke another user's session", async () => {
    const [mine] = await userOnThreeBrowsers('sessions-mine@example.com');
    const theirs = await client.registeredUser('sessions-theirs@example.com', PASSWORD);
    const theirId = ((await call('GET', '/v3/sso/me/sessions', { token: theirs })).json() as Array<{ id: string }>)[0]!.id;
    const attempt = await call('DELETE', `/v3/sso/me/sessions/${theirId}`, { token: mine });
    expect(attempt.statusCode).toBe(404);
    expect(attempt.json().code).toBe('auth.session_not_found');
    expect((await call('DELETE', '/v3/sso/me/sessions/not-a-uuid', { token: mine })).json().code).toBe('auth.session_not_found');
    expect((await call('GET', '/v3/sso/me', { token: theirs })).statusCode).toBe(200);
  });

  it('signs out every other session', async () => {
    const [first, second, third] = await userOnThreeBrowsers('sessions-others@example.com');
    const revoked = await call('POST', '/v3/sso/me/sessions/revoke-others', { token: third });
    expect(revoked.json()).toEqual({ revoked: 2 });
    expect((await call('GET', '/v3/sso/me', { token: first })).statusCode).toBe(401);
    expect((await call('GET', '/v3/sso/me', { token: second })).statusCode).toBe(401);
    expect((await call('GET', '/v3/sso/me', { token: third })).statusCode).toBe(200);
  });

  it('revoking the current session clears its cookies', async () => {
    const token = await client.registeredUser('sessions-self@example.com', PASSWORD);
    const [current] = (await call('GET', '/v3/sso/me/sessions', { token })).json() as Array<{ id: string }>;
    const response = await call('DELETE', `/v3/sso/me/sessions/${current!.id}`, { token });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe('');
    expect((await call('GET', '/v3/sso/me', { token })).statusCode).toBe(401);
  });

  it('needs a session', async () => {
    expect((await call('GET', '/v3/sso/me/sessions')).statusCode).toBe(401);
    expect((await call('POST', '/v3/sso/me/sessions/revoke-others')).statusCode).toBe(401);
    expect((await call('GET', '/v3/sso/me/security')).statusCode).toBe(401);
    expect((await call('PUT', '/v3/sso/me/password', { body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD } })).statusCode).toBe(401);
  });
});

describe('password change', () => {
  const change = (token: string, body: Record<string, string>) => call('PUT', '/v3/sso/me/password', { token, body });

  it('refuses a wrong or missing current password, the same password, a mismatch and a common one', async () => {
    const token = await client.registeredUser('pw-rules@example.com', PASSWORD);
    const missing = await change(token, { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(missing.json().code).toBe('auth.current_password_required');
    const wrong = await change(token, { current_password: 'not-the-password', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth.password_not_valid', details: { fields: { current_password: { code: 'auth.password_not_valid', message: 'Password not valid' } } } });
    const same = await change(token, { current_password: PASSWORD, new_password: PASSWORD, confirm_password: PASSWORD });
    expect(same.json()).toMatchObject({ code: 'auth.password_same_as_old', message: 'Choose a new password different from the old one' });
    const mismatch = await change(token, { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: `${NEW_PASSWORD}x` });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().details.fields.confirm_password).toEqual({ code: 'validation.confirmMismatch', message: 'Confirm password is not match!' });
    const common = await change(token, { current_password: PASSWORD, new_password: 'password123', confirm_password: 'password123' });
    expect(common.json().code).toBe('auth.password_too_common');
    const short = await change(token, { current_password: PASSWORD, new_password: 'short', confirm_password: 'short' });
    expect(short.json().details.fields.new_password).toEqual({ code: 'validation.passwordTooShort', message: expect.stringMatching(/at least 8/) });
    expect((await client.signIn('pw-rules@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('changes the password, signs out every other session, and mails the owner', async () => {
    const email = 'pw-change@example.com';
    const [first, second, third] = await userOnThreeBrowsers(email);
    const changed = await change(second, { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(changed.statusCode).toBe(204);
    expect((await call('GET', '/v3/sso/me', { token: second })).statusCode).toBe(200);
    expect((await call('GET', '/v3/sso/me', { token: first })).statusCode).toBe(401);
    expect((await call('GET', '/v3/sso/me', { token: third })).statusCode).toBe(401);
    expect((await client.signIn(email, PASSWORD)).statusCode).toBe(400);
    expect((await client.signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
    await client.mailTo(email, /password of your CyStack ID account was just changed/);
    const overview = (await call('GET', '/v3/sso/me/security', { token: second })).json();
    expect(overview.password_changed_at).toEqual(expect.any(String));
  });

  it('throttles wrong current passwords like sign-in', async () => {
    const token = await client.registeredUser('pw-guess@example.com', PASSWORD);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await change(token, { current_password: `guess-${attempt}-wrong`, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD })).statusCode).toBe(400);
    }
    const blocked = await change(token, { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(blocked.statusCode).toBe(429);
  });
});

describe('security overview', () => {
  it('summarises password, two-step, passkeys and recent sessions', async () => {
    const [, , token] = await userOnThreeBrowsers('overview@example.com');
    const overview = await call('GET', '/v3/sso/me/security', { token });
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({
      has_password: true,
      password_changed_at: null,
      two_factor: { method: null, recovery_codes_remaining: 0 },
      passkeys: 0,
    });
    expect(overview.json().recent_sessions).toHaveLength(3);
    expect(overview.json().recent_sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
  });
});
