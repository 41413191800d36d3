import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { solveCaptcha } from '../../../test/captcha';
import { CODE_MAIL, PASSWORD, twoStepTestServer } from '../../../test/two-step';

const h = twoStepTestServer();
const { clock, call, totpCode, nextStep, signIn, me, totpUser, challenge } = h;

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
    const blocked = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: third, code: await totpCode(secret), captcha: await solveCaptcha(h.server.app) } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().details.retry_after_seconds).toBeGreaterThan(0);
    expect(blocked.json().message).toMatch(/Try again in \d+ seconds/);
  });
});

describe('one mailbox is not two factors', () => {
  it('asks an email-method account that signed in with a mailed code for its password, not another mailed code', async () => {
    const email = 'mailbox-only@example.com';
    await h.client.registeredUser(email, PASSWORD);
    await h.server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
    await call('POST', '/v3/sso/auth/code/send', { body: { email } });
    const [, code] = await h.client.mailTo(email, CODE_MAIL);
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