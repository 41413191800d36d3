import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard, DashboardPoint } from '@portal/contracts';
import { manualClock } from '../../../test/clock';
import { solveCaptcha } from '../../../test/captcha';
import { identityClient } from '../../../test/identity';
import { clientCredentialsToken, startProviderTestServer, type TestServer } from '../../../test/harness';
import { limits } from '../../platform/rate-limit';
import { visitorCalls } from '../../../test/visitor-calls';

/**
 * The operators' dashboard over HTTP against the real server: who may read it (operators with
 * two-step and a recent proof, or an operator key holding `admin:dashboard`), and figures that
 * follow real sign-ups, sign-ins, failures, lockouts and token grants, hour by hour.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/moderator-clients.json', import.meta.url));
const SECRET = 'vulnscan-secret-of-the-tests-0123456789';
const PASSWORD = 'plum-orbit-cactus-917';
const HOUR = 60 * 60 * 1000;

// Ten minutes into an hour, mid-way through a TOTP step: a few minutes of tests stay in it.
const clock = manualClock(new Date(Math.floor(Date.now() / HOUR) * HOUR + 10 * 60 * 1000 + 15_000));
let server: TestServer;
let identity: ReturnType<typeof identityClient>;
let people = 0;

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: { 'test-vulnscan': SECRET }, clock });
  identity = identityClient(server.app, server.database);
});
afterAll(() => server?.close());

const call = visitorCalls(() => server, '10.33');

const totpCode = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
const nextEmail = (name: string) => `${name}-${++people}@dashboard.test`;

/** A signed-in person; with `twoStep`, TOTP turned on (the session stays, its proof recent). */
async function person(name: string, twoStep = false) {
  const email = nextEmail(name);
  const token = await identity.registeredUser(email, PASSWORD);
  const id = (await call('GET', '/v3/sso/me', { token })).json().id as string;
  let secret = '';
  if (twoStep) {
    const setup = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
    secret = setup.json().secret;
    expect((await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } })).statusCode).toBe(200);
  }
  return { email, token, id, secret };
}

/** Roles are granted by the operators' command (or another owner): here, straight in the table. */
async function grant(userId: string, role: 'owner' | 'support' | 'finance') {
  await server.database.db.execute(sql`insert into operator_roles (user_id, role) values (${userId}, ${role}) on conflict do nothing`);
}

async function operator(role: 'owner' | 'support' | 'finance') {
  const who = await person(role, true);
  await grant(who.id, role);
  return who;
}

const dashboard = (token: string, range = '24h') => call('GET', `/v3/admin/dashboard?range=${range}`, { token });

async function figures(token: string, range = '24h'): Promise<Dashboard> {
  const response = await dashboard(token, range);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const last = (answer: Dashboard): DashboardPoint => answer.points.at(-1)!;

describe('who reads the dashboard', () => {
  it('refuses an anonymous caller, a person who is not an operator, an operator without two-step, and an old session', async () => {
    expect((await call('GET', '/v3/admin/dashboard')).statusCode).toBe(401);

    const someone = await person('someone', true);
    const notOperator = await dashboard(someone.token);
    expect([notOperator.statusCode, notOperator.json().code]).toEqual([403, 'admin.forbidden']);

    const withoutTwoStep = await person('no-two-step');
    await grant(withoutTwoStep.id, 'owner');
    const refused = await dashboard(withoutTwoStep.token);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'admin.two_factor_required']);

    const owner = await operator('owner');
    expect((await dashboard(owner.token)).statusCode).toBe(200);
    clock.advance(6 * 60 * 1000);
    const stale = await dashboard(owner.token);
    expect([stale.statusCode, stale.json().code]).toEqual([403, 'auth.reauth_required']);
  });

  it('lets every operator role read it, and an operator key only with admin:dashboard', async () => {
    for (const role of ['support', 'finance'] as const) {
      const who = await operator(role);
      expect((await dashboard(who.token)).statusCode).toBe(200);
    }

    const owner = await operator('owner');
    const key = async (scopes: string[]) => {
      const created = await call('POST', '/v3/admin/api-keys', { token: owner.token, body: { name: scopes.join(' '), scopes, reason: 'dashboard test key' } });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().key as string;
    };
    const withoutScope = await dashboard(await key(['admin:people']));
    expect([withoutScope.statusCode, withoutScope.json().code]).toEqual([403, 'admin.scope_missing']);
    const withScope = await dashboard(await key(['admin:dashboard']));
    expect(withScope.statusCode).toBe(200);
    expect(withScope.headers['cache-control']).toContain('no-store');
  });

  it('answers a range it does not know with a 400, never a 500', async () => {
    const owner = await operator('owner');
    for (const range of ['7d', '', '24h%00', 'x'.repeat(500)]) {
      const response = await dashboard(owner.token, range);
      expect([range, response.statusCode, response.json().code]).toEqual([range, 400, 'validation_error']);
    }
  });
});

describe('the figures', () => {
  it('count sign-ups, sign-ins, failed sign-ins, lockouts and token grants in their hour, and sessions alive at its end', async () => {
    const owner = await operator('owner');
    const before = await figures(owner.token);
    expect(before.points).toHaveLength(24);
    expect(before.bucket).toBe('hour');
    expect(Date.parse(last(before).at)).toBe(Math.floor(clock.now().getTime() / HOUR) * HOUR);

    // Two sign-ups, each activated and signed in (a session each).
    const first = nextEmail('counted');
    const second = nextEmail('counted');
    await identity.registeredUser(first, PASSWORD);
    await identity.registeredUser(second, PASSWORD);
    // Two wrong passwords, then an account whose failures run out: ten refused, then locked out.
    expect((await identity.signIn(first, 'wrong-password-1')).statusCode).toBe(400);
    expect((await identity.signIn(first, 'wrong-password-2')).statusCode).toBe(400);
    const locked = nextEmail('locked');
    await identity.registeredUser(locked, PASSWORD);
    let failures = 0;
    let lockedOut = false;
    while (!lockedOut && failures < 20) {
      const answer = await identity.signIn(locked, `wrong-${failures}`, { captcha: await solveCaptcha(server.app) });
      if (answer.statusCode === 429) lockedOut = true;
      else {
        expect(answer.statusCode).toBe(400);
        failures += 1;
      }
    }
    expect(lockedOut).toBe(true);
    // The lock refuses every further try: those are refusals, not more lockouts.
    for (let i = 0; i < 3; i++) expect((await identity.signIn(locked, `wrong-again-${i}`, { captcha: await solveCaptcha(server.app) })).statusCode).toBe(429);
    // A product's back end gets a token (client credentials, over real HTTP).
    await clientCredentialsToken(server, 'test-vulnscan', SECRET);

    const after = await figures(owner.token);
    const delta = (figure: keyof Omit<DashboardPoint, 'at'>) => last(after)[figure] - last(before)[figure];
    expect({
      sign_ups: delta('sign_ups'),
      sign_ins: delta('sign_ins'),
      failed_sign_ins: delta('failed_sign_ins'),
      lockouts: delta('lockouts'),
      token_grants: delta('token_grants'),
      active_sessions: delta('active_sessions'),
    }).toEqual({ sign_ups: 3, sign_ins: 3, failed_sign_ins: 2 + failures, lockouts: 1, token_grants: 1, active_sessions: 3 });
    expect(after.totals.sign_ups - before.totals.sign_ups).toBe(3);
    expect(after.totals.active_sessions).toBe(last(after).active_sessions);

    // An hour later the same events sit in the previous bucket; signing out ends a session there and after.
    const signedOut = await identity.signIn(second, PASSWORD);
    expect((await call('POST', '/v3/sso/logout', { token: signedOut.json().token })).statusCode).toBeLessThan(300);
    clock.advance(HOUR);
    const again = await identity.signIn(owner.email, PASSWORD);
    const mfaToken = again.json().mfa_token as string;
    const proved = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: await totpCode(owner.secret) } });
    expect(proved.statusCode, proved.body).toBe(200);
    const later = await figures(proved.json().token);
    const previous = later.points.at(-2)!;
    expect(previous.at).toBe(last(after).at);
    expect(previous.sign_ups).toBe(last(after).sign_ups);
    expect(previous.sign_ins).toBe(last(after).sign_ins + 1);
    expect(previous.failed_sign_ins).toBe(last(after).failed_sign_ins);
    expect(last(later).sign_ins).toBe(1);
    expect(last(later).sign_ups).toBe(0);

    const month = await figures(proved.json().token, '30d');
    expect(month.points).toHaveLength(30);
    expect(month.bucket).toBe('day');
    expect(month.totals.sign_ups).toBe(later.totals.sign_ups);
    expect(month.totals.lockouts).toBe(later.totals.lockouts);
  });
});

describe('lockouts', () => {
  it('count an address once when its failures spend its sign-in budget, not each try the lock refuses', async () => {
    const owner = await operator('owner');
    const before = await figures(owner.token);
    const guess = (i: number) =>
      server.app.inject({
        method: 'POST',
        url: '/v3/sso/auth',
        remoteAddress: '10.44.0.1',
        headers: { 'user-agent': 'vitest' },
        payload: { email: `nobody-${i}@dashboard.test`, password: 'not-the-password' },
      });
    let failures = 0;
    for (; failures < 60; failures++) {
      const answer = await guess(failures);
      if (answer.statusCode === 429) break;
      expect(answer.statusCode, answer.body).toBe(400);
    }
    expect(failures).toBe(50);
    for (let i = 0; i < 3; i++) expect((await guess(100 + i)).statusCode).toBe(429);

    const after = await figures(owner.token);
    expect(last(after).lockouts - last(before).lockouts).toBe(1);
    expect(last(after).failed_sign_ins - last(before).failed_sign_ins).toBe(50);
  });

  it('count a person once when parallel wrong second-step codes spend their budget, not each try the lock refuses', async () => {
    const owner = await operator('owner');
    const guesser = await person('second-step', true);
    const before = await figures(owner.token);
    const right = Number(await totpCode(guesser.secret));
    const mfaTokens: string[] = [];
    for (let i = 0; i < 25; i++) mfaTokens.push((await identity.signIn(guesser.email, PASSWORD)).json().mfa_token);
    // 100 wrong codes at once, four on each pending sign-in, each from its own address: no address runs out.
    const guesses = mfaTokens.flatMap((mfaToken, i) => Array.from({ length: 4 }, (_, turn) => ({ mfa_token: mfaToken, code: String((right + 1 + i * 4 + turn) % 1_000_000).padStart(6, '0') })));
    const answers = await Promise.all(guesses.map((body) => call('POST', '/v3/sso/auth/mfa', { body })));
    const checked = answers.filter((answer) => answer.json().code === 'auth.code_invalid').length;
    expect(checked).toBe(limits.signInFailuresPerAccount.limit);
    // Locked: a further try needs the captcha, then waits; those refusals are no more lockouts.
    const nextToken = (await identity.signIn(guesser.email, PASSWORD)).json().mfa_token;
    expect((await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: nextToken, code: await totpCode(guesser.secret) } })).json().code).toBe('auth.captcha_required');
    const waiting = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: nextToken, code: await totpCode(guesser.secret), captcha: await solveCaptcha(server.app) } });
    expect(waiting.statusCode).toBe(429);

    const after = await figures(owner.token);
    expect(last(after).lockouts - last(before).lockouts).toBe(1);
    expect(last(after).failed_sign_ins - last(before).failed_sign_ins).toBe(checked);
  });
});

describe('active sessions', () => {
  // Last: it moves the shared clock a week on, past every earlier session's idle timeout.
  it('leave out a session idle past the timeout, on the dashboard and on the person page alike', async () => {
    const owner = await operator('owner');
    const idle = await person('idle');
    const page = async (token: string, id: string) => {
      const answer = await call('GET', `/v3/admin/people/${id}`, { token });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as { sessions: unknown[] };
    };
    expect((await page(owner.token, idle.id)).sessions).toHaveLength(1);

    // The default idle timeout is seven days; the sessions' own expiry is thirty.
    clock.advance(7 * 24 * HOUR + 2 * 60 * 1000);
    const again = await identity.signIn(owner.email, PASSWORD);
    const proved = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: again.json().mfa_token, code: await totpCode(owner.secret) } });
    expect(proved.statusCode, proved.body).toBe(200);
    const token = proved.json().token as string;
    await person('fresh');

    expect((await page(token, idle.id)).sessions).toEqual([]);
    expect((await call('GET', '/v3/sso/me', { token: idle.token })).statusCode).toBe(401);
    const now = await figures(token);
    // The operator's new session and the fresh person's: every other one went idle a week ago.
    expect(now.totals.active_sessions).toBe(2);
    // A week ago they were all active, and still are in that day's figure.
    const month = await figures(token, '30d');
    expect(month.points.at(-8)!.active_sessions).toBeGreaterThan(2);
  });
});
