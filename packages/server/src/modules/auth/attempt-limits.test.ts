import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeTokens, users } from '../../db/schema';
import { applyLimitOverrides, limits } from '../../platform/rate-limit/rules';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { solveCaptcha } from '../../../test/captcha';
import { startTestServer, type TestServer } from '../../../test/harness';

/**
 * Attempt limits that hold under parallel guessing (one atomic step each), a
 * per-account budget across mailed codes, failures-only per-address limits, and the per-address
 * limit of the second step. This file lowers two allowances (restored after):
 * `signin:ip` to 4, so "failures only" shows in a few sign-ins, and `code:gap`, so new codes
 * can be mailed at once.
 */
const clock = manualClock(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const PASSWORD = 'plum-orbit-cactus-917';
const CODE_MAIL = /\n {4}(\d{6})\n/;
const saved = { ip: { ...limits.signInPerIp }, gap: { ...limits.codeSendInterval } };

beforeAll(async () => {
  applyLimitOverrides({ 'signin:ip': { limit: 4, windowSeconds: 600 }, 'code:gap': { limit: 1000, windowSeconds: 30 } });
  server = await startTestServer({ clock });
  client = identityClient(server.app, server.database);
});
afterAll(async () => {
  applyLimitOverrides({ 'signin:ip': saved.ip, 'code:gap': saved.gap });
  await server.close();
});

let visitors = 0;
/** A call from its own address unless `ip` says otherwise. */
function call(url: string, body: unknown, options: { token?: string; ip?: string } = {}) {
  visitors += 1;
  return server.app.inject({
    method: 'POST',
    url,
    payload: body as object,
    remoteAddress: options.ip ?? `10.${20 + Math.floor(visitors / 62500)}.${Math.floor(visitors / 250) % 250}.${(visitors % 250) + 1}`,
    headers: { 'user-agent': 'vitest', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
  });
}

const codeOf = async (email: string, exclude: string[] = []) => (await client.mailTo(email, CODE_MAIL, exclude))[1]!;
const wrong = (code: string, by = 1) => String((Number(code) + by) % 1_000_000).padStart(6, '0');
const sendLoginCode = (email: string) => call('/v3/sso/auth/code/send', { email });

async function loginCodeRow(email: string) {
  const [user] = await server.database.db.select().from(users).where(eq(users.email, email));
  const rows = await server.database.db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, user!.id), eq(oneTimeTokens.purpose, 'login_code')));
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
}

describe('mailed codes', () => {
  it('checks at most 5 of 200 parallel guesses at one code from 200 addresses, even the right one last', async () => {
    const email = 'parallel-code@example.com';
    await client.registeredUser(email, PASSWORD);
    expect((await sendLoginCode(email)).statusCode).toBe(200);
    const code = await codeOf(email);
    const guesses = Array.from({ length: 199 }, (_, index) => wrong(code, index + 1));
    const answers = await Promise.all([...guesses, code].map((guess) => call('/v3/sso/auth/code', { email, code: guess })));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(0);
    expect((await loginCodeRow(email)).attempts).toBe(5);
  });

  it('keeps the account budget across codes: a new code does not renew it', async () => {
    const email = 'code-budget@example.com';
    await client.registeredUser(email, PASSWORD);
    const seen: string[] = [];
    // Two codes, five wrong guesses each: the account's 10 are spent.
    for (let round = 0; round < 2; round += 1) {
      await sendLoginCode(email);
      const code = await codeOf(email, seen);
      seen.push(code);
      for (let attempt = 0; attempt < 5; attempt += 1) expect((await call('/v3/sso/auth/code', { email, code: wrong(code) })).json().code).toBe('auth.code_invalid');
    }
    await sendLoginCode(email);
    const fresh = await codeOf(email, seen);
    const refused = await call('/v3/sso/auth/code', { email, code: fresh });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Try again in \d+ seconds/);
    // An unknown email answers the same way once as many guesses were made.
    for (let attempt = 0; attempt < 10; attempt += 1) await call('/v3/sso/auth/code', { email: 'nobody-budget@example.com', code: '123456' });
    expect((await call('/v3/sso/auth/code', { email: 'nobody-budget@example.com', code: '123456' })).statusCode).toBe(429);
  });
});

describe('per-address limits count failures, not successes', () => {
  it('lets more people sign in from one address than the limit allows failures', async () => {
    const emails = Array.from({ length: 6 }, (_, index) => `office${index}@example.com`);
    for (const email of emails) await client.registeredUser(email, PASSWORD);
    for (const email of emails) {
      await sendLoginCode(email);
      const signedIn = await call('/v3/sso/auth/code', { email, code: await codeOf(email) }, { ip: '10.200.0.1' });
      expect(signedIn.statusCode).toBe(200);
    }
    // Failures from that address still count: the limit (4 here) refuses the fifth.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await call('/v3/sso/auth', { email: emails[attempt], password: 'wrong-password' }, { ip: '10.200.0.1' })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });
});

describe('password and second-step lockouts', () => {
  it('checks no more than the account budget of 100 parallel password guesses', async () => {
    const email = 'parallel-password@example.com';
    await client.registeredUser(email, PASSWORD);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => call('/v3/sso/auth', { email, password: `wrong-password-${index}` })));
    const checked = answers.filter((answer) => answer.json().code === 'auth.invalid_credentials');
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(limits.signInFailuresPerAccount.limit);
    // Tries the burst left (some were refused for want of a captcha) run one by one, up to the budget.
    let total = checked.length;
    for (;;) {
      const answer = await call('/v3/sso/auth', { email, password: 'wrong-again', captcha: await solveCaptcha(server.app) });
      if (answer.statusCode === 429) break;
      expect(answer.json().code).toBe('auth.invalid_credentials');
      total += 1;
    }
    expect(total).toBe(limits.signInFailuresPerAccount.limit);
    // Past the budget a try waits a delay it is told, from any address, right password or not.
    const next = await call('/v3/sso/auth', { email, password: PASSWORD, captcha: await solveCaptcha(server.app) });
    expect(next.statusCode).toBe(429);
    expect(next.json().details.retry_after_seconds).toBeGreaterThan(0);
    expect(next.json().details.retry_after_seconds).toBeLessThanOrEqual(limits.failureDelay.limit);
  });

  it('checks no more than the account budget of 100 parallel second-step guesses, and limits the step per address', async () => {
    const email = 'parallel-totp@example.com';
    const token = await client.registeredUser(email, PASSWORD);
    const { secret } = (await call('/v3/sso/me/2fa/totp/setup', {}, { token })).json();
    const epoch = () => Math.floor(clock.now().getTime() / 1000);
    expect((await call('/v3/sso/me/2fa/totp/enable', { code: await generate({ secret, epoch: epoch() }) }, { token })).statusCode).toBe(200);
    clock.advance(30_000);
    const right = await generate({ secret, epoch: epoch() });
    const mfaTokens: string[] = [];
    for (let index = 0; index < 25; index += 1) mfaTokens.push((await call('/v3/sso/auth', { email, password: PASSWORD })).json().mfa_token);
    const guesses = mfaTokens.flatMap((mfaToken, index) => Array.from({ length: 4 }, (_, turn) => ({ mfa_token: mfaToken, code: wrong(right, 1 + index * 4 + turn) })));
    const answers = await Promise.all(guesses.map((body) => call('/v3/sso/auth/mfa', body)));
    const checked = answers.filter((answer) => answer.json().code === 'auth.code_invalid');
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(limits.signInFailuresPerAccount.limit);
    // Once the budget is spent a try needs the captcha first, then waits the delay, right code or not.
    const nextToken = (await call('/v3/sso/auth', { email, password: PASSWORD })).json().mfa_token;
    expect((await call('/v3/sso/auth/mfa', { mfa_token: nextToken, code: right })).json().code).toBe('auth.captcha_required');
    const next = await call('/v3/sso/auth/mfa', { mfa_token: nextToken, code: right, captcha: await solveCaptcha(server.app) });
    expect(next.statusCode).toBe(429);

    // Per address: wrong second steps from one address stop at its limit (4 here), whatever the account.
    const other = 'mfa-address@example.com';
    const otherToken = await client.registeredUser(other, PASSWORD);
    const otherSecret = (await call('/v3/sso/me/2fa/totp/setup', {}, { token: otherToken })).json().secret;
    expect((await call('/v3/sso/me/2fa/totp/enable', { code: await generate({ secret: otherSecret, epoch: epoch() }) }, { token: otherToken })).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const mfaToken = (await call('/v3/sso/auth', { email: other, password: PASSWORD })).json().mfa_token;
      statuses.push((await call('/v3/sso/auth/mfa', { mfa_token: mfaToken, code: '000000' }, { ip: '10.201.0.1' })).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });
});
