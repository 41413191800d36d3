import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, expect } from 'vitest';
import { rows } from '../src/modules/wallet/ledger';
import { createPayoutService, PAYOUTS_ACCOUNT, type PayoutHooks, type PayoutService } from '../src/modules/wallet/payouts';
import { createMailer } from '../src/platform/mail';
import { TestBrowser } from './browser';
import { manualClock } from './clock';
import { clientCredentialsToken, confidentialClient, startProviderTestServer, type TestServer } from './harness';
import { identityClient } from './identity';

export const CLIENTS_FILE = fileURLToPath(new URL('./payout-clients.json', import.meta.url));
export const BUGBOUNTY_SECRET = 'bugbounty-secret-of-the-tests-0123456789';
export const OTHER_SECRET = 'pwdmanager-secret-of-the-tests-0123456789';
export const PASSWORD = 'plum-orbit-cactus-917';

/**
 * The provider of the bug-bounty product's back end (payout-clients.json) on a manual clock, with
 * its client-credentials token (`bugbounty`), researchers, rewards, the payout service on the
 * test's database and the books' invariants. Starts before the file's tests and closes after them.
 */
export function payoutTestServer() {
  const clock = manualClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let identity: ReturnType<typeof identityClient>;
  let people = 0;
  /** What the file's beforeAll makes, there from its first test on (the answer below is this object). */
  const started = {} as { server: TestServer; bugbounty: string };

  beforeAll(async () => {
    server = await startProviderTestServer({
      clientsFile: CLIENTS_FILE,
      secrets: { 'test-bugbounty': BUGBOUNTY_SECRET, 'test-pwdmanager': OTHER_SECRET },
      env: { PAYOUT_JOB_INTERVAL_SECONDS: '0' },
      clock,
    });
    identity = identityClient(server.app, server.database);
    Object.assign(started, { server, bugbounty: await clientCredentialsToken(server, 'test-bugbounty', BUGBOUNTY_SECRET) });
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
  const postReward = (body: object, token = started.bugbounty) => inject('POST', '/v3/bugbounty_platform/rewards', token, body);
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


  return Object.assign(started, {
    clock,
    researcher,
    personAccessToken,
    inject,
    rewardBody,
    postReward,
    choose,
    balance,
    service,
    booksHold,
  });
}
