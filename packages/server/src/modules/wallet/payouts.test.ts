import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { clientCredentialsToken, confidentialClient, startProviderTestServer, type TestServer } from '../../../test/harness';
import { loadConfig } from '../../config';
import { createMailer, listOutbox } from '../../platform/mail';
import { rows } from './ledger';
import { createPayoutService, nextPayoutDate, PAYOUTS_ACCOUNT, type PayoutHooks, type PayoutService } from './payouts';

const CLIENTS_FILE = fileURLToPath(new URL('../../../test/payout-clients.json', import.meta.url));
const BUGBOUNTY_SECRET = 'bugbounty-secret-of-the-tests-0123456789';
const OTHER_SECRET = 'pwdmanager-secret-of-the-tests-0123456789';
const PASSWORD = 'plum-orbit-cactus-917';

const clock = manualClock(new Date('2026-11-20T12:00:00Z'));
let server: TestServer;
let identity: ReturnType<typeof identityClient>;
let bugbounty: string;
let people = 0;

beforeAll(async () => {
  server = await startProviderTestServer({
    clientsFile: CLIENTS_FILE,
    secrets: { 'test-bugbounty': BUGBOUNTY_SECRET, 'test-pwdmanager': OTHER_SECRET },
    env: { PAYOUT_JOB_INTERVAL_SECONDS: '0' },
    clock,
  });
  identity = identityClient(server.app, server.database);
  bugbounty = await clientCredentialsToken(server, 'test-bugbounty', BUGBOUNTY_SECRET);
});
afterAll(() => server.close());

/** A signed-in researcher with a username. */
async function researcher(): Promise<{ email: string; token: string; id: string; username: string }> {
  const n = ++people;
  const email = `researcher${n}-${Date.now()}@example.com`;
  const username = `hunter${n}x${Date.now() % 100000}`;
  const token = await identity.registeredUser(email, PASSWORD);
  const me = await server.app.inject({ method: 'PUT', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` }, payload: { full_name: `Hunter ${n}`, username, language: 'en' } });
  expect(me.statusCode).toBe(200);
  return { email, token, id: me.json().id as string, username };
}

/** A person's own access token issued to the bug-bounty client (the code flow with PKCE, signed in on a browser): not the product's. */
async function personAccessToken(sessionToken: string): Promise<string> {
  const config = await confidentialClient(server, 'test-bugbounty', BUGBOUNTY_SECRET);
  const browser = new TestBrowser(server.url);
  browser.setCookie('auth_token', sessionToken);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: 'http://127.0.0.1:5180/callback',
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const { url: callback } = await browser.walk(url.href);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return tokens.access_token;
}

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
let rewardIds = 0;
const rewardBody = (researcherRef: string, extra: Record<string, unknown> = {}) => ({
  reward_id: `r-${++rewardIds}-${Date.now()}`,
  researcher: researcherRef,
  program_alias: 'acme-web',
  currency: 'USD',
  amount_minor: '15000',
  status: 'approved',
  ...extra,
});
const postReward = (body: object, token = bugbounty) => inject('POST', '/v3/bugbounty_platform/rewards', token, body);
const choose = (token: string, currency: string) => inject('PUT', '/v3/sso/me/wallet/payout', token, { payout_currency: currency });
const balance = async (userId: string, currency: string) =>
  Number((await rows<{ balance: string }>(server.database.db, sql`select balance::text as balance from wallet_accounts where user_id = ${userId} and currency = ${currency}`))[0]?.balance ?? 0);

function service(hooks?: PayoutHooks): PayoutService {
  const mailer = createMailer({ from: 'Portal <no-reply@example.com>', database: server.database });
  return createPayoutService({ db: server.database.db, clock, config: server.config, mailer, log: { error: () => undefined }, hooks });
}

/** Every entry balances per currency, balances equal their postings, nobody below zero, every paid reward in exactly one payout whose total it is part of. */
async function booksHold(): Promise<void> {
  const db = server.database.db;
  expect(await rows(db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
  expect(await rows(db, sql`select a.id from wallet_accounts a left join wallet_postings p on p.account_id = a.id group by a.id, a.balance having a.balance <> coalesce(sum(p.amount), 0)`)).toEqual([]);
  expect(await rows(db, sql`select id from wallet_accounts where user_id is not null and balance < 0`)).toEqual([]);
  expect(
    await rows(db, sql`select p.id from wallet_payouts p left join wallet_rewards r on r.payout_id = p.id group by p.id, p.amount_minor, p.reward_count
      having p.amount_minor <> coalesce(sum(r.amount_minor), 0) or p.reward_count <> count(r.id)`),
  ).toEqual([]);
  // What the payouts account paid is what researchers received from payouts.
  const [paid] = await rows<{ out: string; rewards: string }>(
    db,
    sql`select (select coalesce(-sum(balance), 0) from wallet_accounts where system_name = ${PAYOUTS_ACCOUNT})::text as out,
      (select coalesce(sum(amount_minor), 0) from wallet_rewards where status = 'paid')::text as rewards`,
  );
  expect(paid!.out).toBe(paid!.rewards);
}

describe('rewards posted by the bug-bounty product', () => {
  it('records a reward once per reward id, refuses another body with the same id, never 500s', async () => {
    const person = await researcher();
    const body = rewardBody(person.email);
    const first = await postReward(body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ reward_id: body.reward_id, researcher_id: person.id, status: 'approved', amount_minor: '15000', currency: 'USD', paid_at: null });
    const again = await postReward(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    // In parallel, the same new reward: one row.
    const parallel = rewardBody(person.id, { currency: 'WHC', amount_minor: '250000000' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => postReward(parallel)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const conflict = await postReward({ ...body, amount_minor: '15001' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('payouts.reward_conflict');
    const [{ n }] = (await rows<{ n: number }>(server.database.db, sql`select count(*)::int as n from wallet_rewards where user_id = ${person.id}`)) as [{ n: number }];
    expect(n).toBe(2);
  });

  it('validates every field', async () => {
    const person = await researcher();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ amount_minor: '0' }, 'validation_error'],
      [{ amount_minor: '-5' }, 'validation_error'],
      [{ amount_minor: '1.5' }, 'validation_error'],
      [{ amount_minor: '9'.repeat(16) }, 'validation_error'],
      [{ currency: 'EUR' }, 'validation_error'],
      [{ status: 'paid' }, 'validation_error'],
      [{ program_alias: 'bad alias!' }, 'validation_error'],
      [{ reward_id: '' }, 'validation_error'],
      [{ reward_id: 'x'.repeat(129) }, 'validation_error'],
      [{ researcher: '' }, 'validation_error'],
      [{ researcher: 'nobody-here@example.com' }, 'payouts.researcher_not_found'],
      [{ researcher: '00000000-0000-4000-8000-000000000000' }, 'payouts.researcher_not_found'],
      [{ researcher: person.username }, 'payouts.researcher_not_found'],
    ];
    for (const [change, code] of bad) {
      const response = await postReward(rewardBody(person.email, change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().code, JSON.stringify(change)).toBe(code);
    }
    expect((await inject('POST', '/v3/bugbounty_platform/rewards', bugbounty)).statusCode).toBe(400);
  });

  it("refuses no token, a person's session or access token, a made-up token and another product's client", async () => {
    const person = await researcher();
    const body = rewardBody(person.email);
    expect((await postReward(body, '')).statusCode).toBe(401);
    expect((await postReward(body, person.token)).statusCode).toBe(401);
    // The person's own OIDC access token, even one issued to the bug-bounty client, is not the product's client-credentials token.
    const personToken = await personAccessToken(person.token);
    expect((await server.app.inject({ method: 'GET', url: '/oidc/userinfo', headers: { authorization: `Bearer ${personToken}` } })).statusCode).toBe(200);
    expect((await postReward(body, personToken)).statusCode).toBe(401);
    expect((await postReward(body, 'not-a-token')).statusCode).toBe(401);
    expect((await postReward(body, 'x'.repeat(600))).statusCode).toBe(401);
    const other = await clientCredentialsToken(server, 'test-pwdmanager', OTHER_SECRET);
    const refused = await postReward(body, other);
    expect(refused.statusCode).toBe(403);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${body.reward_id}`, other)).statusCode).toBe(403);
    expect((await inject('POST', `/v3/bugbounty_platform/rewards/${body.reward_id}/cancel`, person.token)).statusCode).toBe(401);
    // Nothing was recorded by the refused calls.
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${body.reward_id}`, bugbounty)).statusCode).toBe(404);
  });

  it('cancels a reward not paid yet, once; a paid one is refused', async () => {
    const person = await researcher();
    const body = rewardBody(person.email);
    await postReward(body);
    const canceled = await inject('POST', `/v3/bugbounty_platform/rewards/${body.reward_id}/cancel`, bugbounty);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().status).toBe('canceled');
    expect((await inject('POST', `/v3/bugbounty_platform/rewards/${body.reward_id}/cancel`, bugbounty)).json().status).toBe('canceled');
    expect((await inject('POST', '/v3/bugbounty_platform/rewards/unknown-id/cancel', bugbounty)).statusCode).toBe(404);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${body.reward_id}`, bugbounty)).json().status).toBe('canceled');
  });
});

describe('payout settings and the public profile', () => {
  it('choosing the payout wallet needs a recent proof of identity', async () => {
    const person = await researcher();
    const start = clock.now();
    expect((await inject('GET', '/v3/sso/me/wallet/payout', person.token)).json()).toMatchObject({ payout_currency: null, profile_public: false, username: person.username });
    clock.advance(10 * 60 * 1000);
    try {
      const stale = await choose(person.token, 'VND');
      expect(stale.statusCode).toBe(403);
      expect(stale.json().code).toBe('auth.reauth_required');
      expect((await inject('POST', '/v3/sso/me/reauth', person.token, { password: PASSWORD })).statusCode).toBe(204);
      const chosen = await choose(person.token, 'VND');
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json().payout_currency).toBe('VND');
      expect((await choose(person.token, 'EUR')).statusCode).toBe(400);
    } finally {
      clock.set(start);
    }
  });

  it('shows the public profile only when turned on, with the accepted programs count and nothing private', async () => {
    const person = await researcher();
    expect((await inject('GET', `/v3/researchers/${person.username}`)).statusCode).toBe(404);
    await postReward(rewardBody(person.email, { program_alias: 'alpha' }));
    await postReward(rewardBody(person.email, { program_alias: 'alpha' }));
    await postReward(rewardBody(person.email, { program_alias: 'beta' }));
    const canceled = rewardBody(person.email, { program_alias: 'gamma' });
    await postReward(canceled);
    await inject('POST', `/v3/bugbounty_platform/rewards/${canceled.reward_id}/cancel`, bugbounty);
    expect((await inject('PUT', '/v3/sso/me/wallet/payout/profile', person.token, { profile_public: true })).json().profile_public).toBe(true);
    const profile = await inject('GET', `/v3/researchers/${person.username.toUpperCase()}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({ username: person.username, display_name: expect.stringMatching(/^Hunter \d+$/), accepted_programs: 2 });
    expect(profile.body).not.toContain(person.email);
    expect((await inject('GET', '/v3/researchers/nobody0here')).statusCode).toBe(404);
    expect((await inject('GET', `/v3/researchers/${encodeURIComponent(person.email)}`)).statusCode).toBe(404);
    // Lookups are counted per address in one atomic step: 70 at once from one address, 60 answered.
    const burst = await Promise.all(Array.from({ length: 70 }, () => server.app.inject({ method: 'GET', url: `/v3/researchers/${person.username}`, remoteAddress: '127.7.7.7' })));
    expect(burst.filter((answer) => answer.statusCode === 200)).toHaveLength(60);
    expect(burst.filter((answer) => answer.statusCode === 429)).toHaveLength(10);
    expect(burst.find((answer) => answer.statusCode === 429)!.json().code).toBe('rate_limited');
    await inject('PUT', '/v3/sso/me/wallet/payout/profile', person.token, { profile_public: false });
    expect((await inject('GET', `/v3/researchers/${person.username}`)).statusCode).toBe(404);
  });
});

describe('the payout job', () => {
  it("refuses the tests' payout date in production", () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PAYOUT_TEST_DATE: '2026-12-10' })).toThrow(/PAYOUT_TEST_DATE: for tests only/);
    expect(loadConfig({ NODE_ENV: 'test', PAYOUT_TEST_DATE: '2026-12-10' }).PAYOUT_TEST_DATE).toBe('2026-12-10');
  });

  it('computes the next payout date', () => {
    expect(nextPayoutDate(new Date('2026-11-09T23:59:59Z'))).toBe('2026-11-10');
    expect(nextPayoutDate(new Date('2026-11-10T00:00:00Z'))).toBe('2026-12-10');
    expect(nextPayoutDate(new Date('2026-12-25T00:00:00Z'))).toBe('2027-01-10');
  });

  it('pays on the 10th only: one entry per currency into the wallets, a statement, a notification and a mail', async () => {
    const person = await researcher();
    await choose(person.token, 'USD');
    const usd = [rewardBody(person.email, { program_alias: 'acme-web', amount_minor: '10000' }), rewardBody(person.email, { program_alias: 'acme-api', amount_minor: '2550' })];
    const whc = rewardBody(person.email, { currency: 'WHC', amount_minor: '300000000', program_alias: 'chain' });
    for (const body of [...usd, whc]) expect((await postReward(body)).statusCode).toBe(201);
    const payouts = service();
    expect(await payouts.run(new Date('2026-12-09T23:59:00Z'))).toEqual({ payday: false, payouts: 0 });
    expect(await payouts.run(new Date('2026-12-11T00:00:00Z'))).toEqual({ payday: false, payouts: 0 });
    expect(await balance(person.id, 'USD')).toBe(0);

    const result = await payouts.run(new Date('2026-12-10T02:00:00Z'));
    expect(result.payday).toBe(true);
    expect(await balance(person.id, 'USD')).toBe(12550);
    expect(await balance(person.id, 'WHC')).toBe(300000000);
    const statement = (await inject('GET', '/v3/sso/me/wallet/USD/transactions?page=1&page_size=10', person.token)).json().items;
    expect(statement).toHaveLength(1);
    expect(statement[0]).toMatchObject({ direction: 'in', amount: '12550', status: 'completed', note: 'Payout for December 2026: 2 rewards (acme-api, acme-web)' });
    const settings = (await inject('GET', '/v3/sso/me/wallet/payout', person.token)).json();
    expect(settings.pending).toEqual([]);
    const usdStatement = settings.statements.find((line: { currency: string }) => line.currency === 'USD');
    expect(usdStatement).toMatchObject({ period: '2026-12', amount_minor: '12550', transaction_id: statement[0].id });
    expect(usdStatement.rewards.map((reward: { program_alias: string }) => reward.program_alias).sort()).toEqual(['acme-api', 'acme-web']);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${whc.reward_id}`, bugbounty)).json()).toMatchObject({ status: 'paid' });
    const paidCancel = await inject('POST', `/v3/bugbounty_platform/rewards/${whc.reward_id}/cancel`, bugbounty);
    expect(paidCancel.statusCode).toBe(409);
    expect(paidCancel.json().code).toBe('payouts.reward_paid');
    const notifications = (await inject('GET', '/v3/notifications?page=1&page_size=10', person.token)).json();
    expect(JSON.stringify(notifications)).toContain('Your rewards were paid');
    await expect.poll(async () => (await listOutbox(server.database, { to: person.email })).map((mail) => mail.subject)).toContainEqual(expect.stringContaining('Your rewards were paid'));
    // Money moved on the account: the mail ends with the security notice, as the other security mails do.
    const mail = (await listOutbox(server.database, { to: person.email })).find((sent) => sent.subject.includes('Your rewards were paid'))!;
    expect(mail.text).toContain('This is a security notice about your');
    expect(mail.html).toContain('This is a security notice about your');
    // The same day again: nothing more.
    expect((await payouts.run(new Date('2026-12-10T09:00:00Z'))).payouts).toBe(0);
    expect(await balance(person.id, 'USD')).toBe(12550);
    await booksHold();
  });

  it('keeps rewards waiting without a payout method, and rewards recorded on the 10th for the next month', async () => {
    const person = await researcher();
    const before = rewardBody(person.email);
    await postReward(before);
    const payouts = service();
    await payouts.run(new Date('2026-12-10T03:00:00Z'));
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${before.reward_id}`, bugbounty)).json().status).toBe('approved');
    await choose(person.token, 'VND');
    const start = clock.now();
    clock.set(new Date('2026-12-10T05:00:00Z'));
    const late = rewardBody(person.email, { amount_minor: '700' });
    await postReward(late);
    clock.set(start);
    await payouts.run(new Date('2026-12-10T06:00:00Z'));
    // No conversion: the USD reward goes to the USD wallet although VND was chosen.
    expect(await balance(person.id, 'USD')).toBe(15000);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${late.reward_id}`, bugbounty)).json().status).toBe('approved');
    await payouts.run(new Date('2027-01-10T06:00:00Z'));
    expect(await balance(person.id, 'USD')).toBe(15700);
    await booksHold();
  });

  it('two runners in parallel pay every reward once', async () => {
    const team = await Promise.all([researcher(), researcher(), researcher()]);
    for (const person of team) {
      await choose(person.token, 'USD');
      for (let i = 0; i < 4; i++) await postReward(rewardBody(person.email, { amount_minor: String(100 + i) }));
    }
    const day = new Date('2026-12-10T07:00:00Z');
    const [a, b] = await Promise.all([service().run(day), service().run(day)]);
    expect(a.payouts + b.payouts).toBe(3);
    for (const person of team) expect(await balance(person.id, 'USD')).toBe(100 + 101 + 102 + 103);
    await booksHold();
  });

  it('resumes after a crash in the middle: every reward paid exactly once', async () => {
    const team = await Promise.all([researcher(), researcher(), researcher()]);
    for (const person of team) {
      await choose(person.token, 'USD');
      await postReward(rewardBody(person.email, { amount_minor: '5000' }));
      await postReward(rewardBody(person.email, { currency: 'VND', amount_minor: '250000' }));
    }
    const day = new Date('2026-12-10T08:00:00Z');
    let claims = 0;
    // The third payout's transaction dies after claiming its rewards (rolled back); the run stops there.
    const crashing = service({
      claimed: () => {
        if (++claims === 3) throw new Error('node killed');
      },
    });
    await expect(crashing.run(day)).rejects.toThrow('node killed');
    const paidBefore = (await rows<{ n: number }>(server.database.db, sql`select count(*)::int as n from wallet_rewards where status = 'paid' and user_id in (${sql.join(team.map((person) => sql`${person.id}`), sql`, `)})`))[0]!.n;
    expect(paidBefore).toBe(2);
    // Also a crash after a commit (before the mail) loses nothing: the next run goes on.
    let after = 0;
    await expect(service({ paid: () => { if (++after === 1) throw new Error('killed after commit'); } }).run(day)).rejects.toThrow('killed after commit');
    await service().run(day);
    for (const person of team) {
      expect(await balance(person.id, 'USD')).toBe(5000);
      expect(await balance(person.id, 'VND')).toBe(250000);
    }
    expect((await service().run(day)).payouts).toBe(0);
    await booksHold();
  });

  it('never pays twice, whatever the sequence of posts, cancels and (parallel) runs', async () => {
    const team = await Promise.all([researcher(), researcher()]);
    for (const person of team) await choose(person.token, 'WHC');
    const posted = new Map<string, { userId: string; currency: string; amount: number; canceled: boolean }>();
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('post' as const), who: fc.integer({ min: 0, max: 1 }), currency: fc.constantFrom('USD', 'VND', 'WHC'), amount: fc.integer({ min: 1, max: 10_000 }) }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('run' as const), day: fc.constantFrom(9, 10, 11), month: fc.integer({ min: 0, max: 2 }), parallel: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        for (const op of operations) {
          if (op.kind === 'post') {
            const body = rewardBody(team[op.who]!.email, { currency: op.currency, amount_minor: String(op.amount) });
            expect((await postReward(body)).statusCode).toBe(201);
            posted.set(body.reward_id, { userId: team[op.who]!.id, currency: op.currency, amount: op.amount, canceled: false });
          } else if (op.kind === 'cancel') {
            const ids = [...posted.keys()];
            if (!ids.length) continue;
            const id = ids[op.pick % ids.length]!;
            const answer = await inject('POST', `/v3/bugbounty_platform/rewards/${id}/cancel`, bugbounty);
            expect([200, 409]).toContain(answer.statusCode);
            if (answer.statusCode === 200) posted.get(id)!.canceled = true;
          } else {
            const day = new Date(Date.UTC(2027, 1 + op.month, op.day, 1));
            await (op.parallel ? Promise.all([service().run(day), service().run(day)]) : service().run(day));
          }
        }
        await booksHold();
        for (const person of team) {
          const received = await rows<{ currency: string; total: string }>(
            server.database.db,
            sql`select a.currency, coalesce(sum(p.amount), 0)::text as total from wallet_postings p join wallet_accounts a on a.id = p.account_id
              join wallet_entries e on e.id = p.entry_id where a.user_id = ${person.id} and e.kind = 'payout' group by a.currency`,
          );
          const paid = await rows<{ currency: string; total: string }>(
            server.database.db,
            sql`select currency, sum(amount_minor)::text as total from wallet_rewards where user_id = ${person.id} and status = 'paid' group by currency`,
          );
          expect(Object.fromEntries(received.map((row) => [row.currency, row.total]))).toEqual(Object.fromEntries(paid.map((row) => [row.currency, row.total])));
        }
        // A canceled reward was never paid.
        const canceled = [...posted.entries()].filter(([, reward]) => reward.canceled).map(([id]) => id);
        if (canceled.length) {
          const paidCanceled = await rows(server.database.db, sql`select id from wallet_rewards where status = 'paid' and external_id in (${sql.join(canceled.map((id) => sql`${id}`), sql`, `)})`);
          expect(paidCanceled).toEqual([]);
        }
      }),
      { numRuns: 12 },
    );
  });
});
