import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { solveCaptcha } from '../../../test/captcha';
import { startTestServer, type TestServer } from '../../../test/harness';

// The middle of a 30-second step, so "one step of drift" is unambiguous.
const clock = manualClock(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const PASSWORD = 'plum-orbit-cactus-917';
const CODE_MAIL = /\n {4}(\d{6})\n/;

beforeAll(async () => {
  server = await startTestServer({ clock });
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

let visitors = 0;
/** Each call from its own address, so per-IP limits stay out of the way unless a test wants them. */
function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: unknown; ip?: string } = {}) {
  visitors += 1;
  return server.app.inject({
    method,
    url,
    payload: options.body as object | undefined,
    remoteAddress: options.ip ?? `10.9.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}`,
    headers: { 'user-agent': 'vitest', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
  });
}

const epoch = () => Math.floor(clock.now().getTime() / 1000);
const totpCode = (secret: string, steps = 0) => generate({ secret, epoch: epoch() + steps * 30 });
const nextStep = () => clock.advance(30_000);
const signIn = (email: string, password = PASSWORD) => call('POST', '/v3/sso/auth', { body: { email, password } });
const me = (token: string) => call('GET', '/v3/sso/me', { token });

/** A signed-in user with TOTP turned on: the session, the secret and the recovery codes. */
async function totpUser(email: string) {
  const token = await client.registeredUser(email, PASSWORD);
  const setup = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } });
  expect(enabled.statusCode).toBe(200);
  return { token, secret: secret as string, recovery: enabled.json().recovery_codes as string[] };
}

async function challenge(email: string) {
  const response = await signIn(email);
  expect(response.statusCode).toBe(200);
  return response.json().mfa_token as string;
}

describe('TOTP setup', () => {
  it('hands out a pending secret with its otpauth URL and QR code, and turns on only with a valid code', async () => {
    const token = await client.registeredUser('totp-setup@example.com', PASSWORD);
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
    expect(badFormat.json().details.fields.code).toEqual({ code: 'validation.codeFormat', message: 'The code is 6 digits' });

    const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } });
    expect(enabled.statusCode).toBe(200);
    const codes: string[] = enabled.json().recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json()).toEqual({ method: 'totp', recovery_codes_remaining: 10 });
    expect((await me(token)).json().two_factor_method).toBe('totp');
    await client.mailTo('totp-setup@example.com', /Two-step verification was turned on/);

    const again = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
    expect(again.json().code).toBe('auth.two_factor_already_enabled');
    expect((await call('POST', '/v3/sso/me/2fa/email/send', { token })).json().code).toBe('auth.two_factor_already_enabled');
  });

  it('lets a pending secret expire after 10 minutes', async () => {
    const token = await client.registeredUser('totp-late@example.com', PASSWORD);
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

describe('sign-in with two-step verification', () => {
  it('answers the challenge instead of a session, and /sso/auth/mfa completes it once', async () => {
    const { secret } = await totpUser('two-step@example.com');
    nextStep();
    const first = await signIn('two-step@example.com');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toEqual({ mfa_required: true, mfa_token: expect.any(String), method: 'totp' });
    expect(body.token).toBeUndefined();
    expect(first.cookies.find((cookie) => cookie.name === 'auth_token')).toBeUndefined();

    const done = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: body.mfa_token, code: await totpCode(secret) } });
    expect(done.statusCode).toBe(200);
    const { token } = done.json();
    expect(done.cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe(token);
    expect((await me(token)).statusCode).toBe(200);

    // The mfa_token is single use.
    nextStep();
    const reused = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: body.mfa_token, code: await totpCode(secret) } });
    expect(reused.json().code).toBe('auth.mfa_token_invalid');
    const unknown = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: 'nope', code: '123456' } });
    expect(unknown.json().code).toBe('auth.mfa_token_invalid');
    const both = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: 'nope', code: '123456', recovery_code: 'AAAAA-BBBBB' } });
    expect(both.statusCode).toBe(400);
    expect(both.json().code).toBe('validation_error');
  });

  it('accepts a TOTP code once only, even within its own step', async () => {
    const { secret } = await totpUser('replay@example.com');
    // The code that turned TOTP on cannot sign in within the same step.
    const enablingStep = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('replay@example.com'), code: await totpCode(secret) } });
    expect(enablingStep.json().code).toBe('auth.code_invalid');

    nextStep();
    const code = await totpCode(secret);
    const used = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('replay@example.com'), code } });
    expect(used.statusCode).toBe(200);
    const replay = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('replay@example.com'), code } });
    expect(replay.json().code).toBe('auth.code_invalid');
    // A code of an earlier step than the last accepted one is refused too.
    const older = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('replay@example.com'), code: await totpCode(secret, -1) } });
    expect(older.json().code).toBe('auth.code_invalid');
  });

  it('lets exactly one of two concurrent requests with the same code win', async () => {
    const { secret } = await totpUser('race@example.com');
    nextStep();
    const code = await totpCode(secret);
    const [a, b] = [await challenge('race@example.com'), await challenge('race@example.com')];
    const results = await Promise.all([a, b].map((mfa_token) => call('POST', '/v3/sso/auth/mfa', { body: { mfa_token, code } })));
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 400]);
  });

  it('accepts one step of clock drift either way, not two', async () => {
    const { secret } = await totpUser('drift@example.com');
    nextStep();
    nextStep();
    nextStep();
    // Refusals first, oldest accepted step next: an accepted step blocks every step at or before it.
    const twoBehind = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('drift@example.com'), code: await totpCode(secret, -2) } });
    expect(twoBehind.json().code).toBe('auth.code_invalid');
    const twoAhead = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('drift@example.com'), code: await totpCode(secret, 2) } });
    expect(twoAhead.json().code).toBe('auth.code_invalid');
    const behind = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('drift@example.com'), code: await totpCode(secret, -1) } });
    expect(behind.statusCode).toBe(200);
    const oneAhead = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: await challenge('drift@example.com'), code: await totpCode(secret, 1) } });
    expect(oneAhead.statusCode).toBe(200);
  });

  it('lets an mfa_token expire after 5 minutes', async () => {
    const { secret } = await totpUser('slow@example.com');
    const mfaToken = await challenge('slow@example.com');
    clock.advance(5 * 60_000 + 1000);
    const late = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: await totpCode(secret) } });
    expect(late.json().code).toBe('auth.mfa_token_invalid');
  });

  it('throttles wrong codes: 5 per challenge, then 10 per account like passwords', async () => {
    const { secret } = await totpUser('guesser@example.com');
    nextStep();
    const wrongCode = async () => (Number(await totpCode(secret)) + 500_000) % 1_000_000;
    const wrong = async (mfaToken: string) =>
      call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: String(await wrongCode()).padStart(6, '0') } });
    const first = await challenge('guesser@example.com');
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await wrong(first)).json().code).toBe('auth.code_invalid');
    // That challenge is dead, even for the right code.
    const dead = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: first, code: await totpCode(secret) } });
    expect(dead.json().code).toBe('auth.mfa_token_invalid');
    const second = await challenge('guesser@example.com');
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await wrong(second)).json()).toMatchObject({ code: 'auth.code_invalid' });
    // The tenth failure spends the budget, and says the next try needs the captcha, as passwords do.
    expect((await wrong(second)).json()).toMatchObject({ code: 'auth.code_invalid', details: { captcha_required: true } });
    const third = await challenge('guesser@example.com');
    const noCaptcha = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: third, code: await totpCode(secret) } });
    expect(noCaptcha.json().code).toBe('auth.captcha_required');
    const badCaptcha = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: third, code: await totpCode(secret), captcha: 'not-an-answer' } });
    expect(badCaptcha.json().code).toBe('auth.captcha_invalid');
    // With the captcha, the try still waits the growing delay it is told.
    const blocked = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: third, code: await totpCode(secret), captcha: await solveCaptcha(server.app) } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().details.retry_after_seconds).toBeGreaterThan(0);
    expect(blocked.json().message).toMatch(/Try again in \d+ seconds/);
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
    await client.mailTo('disable@example.com', /Two-step verification was turned off/);
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
    const token = await client.registeredUser(email, PASSWORD);
    expect((await call('POST', '/v3/sso/me/2fa/email/send', { token })).statusCode).toBe(204);
    const [, enableCode] = await client.mailTo(email, CODE_MAIL);
    const wrong = await call('POST', '/v3/sso/me/2fa/email/enable', { token, body: { code: String((Number(enableCode) + 1) % 1_000_000).padStart(6, '0') } });
    expect(wrong.json().code).toBe('auth.code_invalid');
    const enabled = await call('POST', '/v3/sso/me/2fa/email/enable', { token, body: { code: enableCode } });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().recovery_codes).toHaveLength(10);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json().method).toBe('email');

    const started = await signIn(email);
    expect(started.json()).toMatchObject({ mfa_required: true, method: 'email' });
    const [, signInCode] = await client.mailTo(email, CODE_MAIL, [enableCode!]);
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

describe('one mailbox is not two factors', () => {
  it('asks an email-method account that signed in with a mailed code for its password, not another mailed code', async () => {
    const email = 'mailbox-only@example.com';
    await client.registeredUser(email, PASSWORD);
    await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await client.mailTo(email, CODE_MAIL);
    const started = await call('POST', '/v3/sso/auth/code', { body: { email, code } });
    expect(started.json()).toMatchObject({ mfa_required: true, method: 'password' });
    const mfaToken = started.json().mfa_token;
    // No second code goes out, and none would do: the mailbox has been proved already.
    expect((await call('POST', '/v3/sso/auth/mfa/resend', { body: { mfa_token: mfaToken } })).statusCode).toBe(400);
    expect((await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: '123456' } })).json().code).toBe('auth.invalid_credentials');
    expect((await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, password: 'wrong-password-1' } })).json().code).toBe('auth.invalid_credentials');
    const done = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, password: PASSWORD } });
    expect(done.statusCode).toBe(200);
    expect((await me(done.json().token)).statusCode).toBe(200);
  });
});

describe('the email method, turning off', () => {
  it('takes the password and a freshly mailed code', async () => {
    const email = 'email-off@example.com';
    const token = await client.registeredUser(email, PASSWORD);
    // Set up directly: enabling through the API would mail a code of the same kind, and the
    // next one may only follow 30 seconds later (the limiter keeps real time).
    await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
    expect((await call('POST', '/v3/sso/me/2fa/email/send', { token })).statusCode).toBe(204);
    const [, code] = await client.mailTo(email, CODE_MAIL);
    const wrongPassword = await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: 'wrong-password-2', code } });
    expect(wrongPassword.json().code).toBe('auth.password_not_valid');
    expect((await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code } })).statusCode).toBe(204);
    expect((await call('GET', '/v3/sso/me/2fa', { token })).json().method).toBeNull();
    await client.mailTo(email, /Two-step verification was turned off/);
  });
});

describe('email-code sign-in', () => {
  it('mails a single-use code that signs in, with the same answer for unknown emails', async () => {
    const email = 'code-login@example.com';
    await client.registeredUser(email, PASSWORD);
    const known = await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const unknown = await call('POST', '/v3/sso/auth/code/send', { body: { email: 'nobody-here@example.com' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ email });
    expect(unknown.json()).toEqual({ email: 'nobody-here@example.com' });

    const [, code] = await client.mailTo(email, CODE_MAIL);
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
      if (email.startsWith('limit-known')) await client.registeredUser(email, PASSWORD);
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
    await client.registeredUser(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await client.mailTo(email, CODE_MAIL);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await call('POST', '/v3/sso/auth/code', { body: { email, code: wrongCode } })).json().code).toBe('auth.code_invalid');
    }
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.code_invalid');
  });

  it('lets a code expire after 10 minutes', async () => {
    const email = 'code-late@example.com';
    await client.registeredUser(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await client.mailTo(email, CODE_MAIL);
    clock.advance(10 * 60_000 + 1000);
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.code_invalid');
  });

  it('answers the second-factor step when two-step is on', async () => {
    const email = 'code-2fa@example.com';
    const { secret } = await totpUser(email);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await client.mailTo(email, CODE_MAIL);
    const first = await call('POST', '/v3/sso/auth/code', { body: { email, code } });
    expect(first.json()).toMatchObject({ mfa_required: true, method: 'totp' });
    expect(first.json().token).toBeUndefined();
    nextStep();
    const done = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: first.json().mfa_token, code: await totpCode(secret) } });
    expect(done.statusCode).toBe(200);
  });

  it('refuses an account that is not activated yet, after the right code', async () => {
    const email = 'code-inactive@example.com';
    await client.signUp(email, PASSWORD);
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await client.mailTo(email, CODE_MAIL);
    expect((await call('POST', '/v3/sso/auth/code', { body: { email, code } })).json().code).toBe('auth.not_activated');
  });
});
