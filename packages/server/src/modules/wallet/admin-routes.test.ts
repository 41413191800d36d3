import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { adminCall, codeOf, operator, type Method } from '../../../test/operators';
import { researcherSettings, walletAccounts, walletPayouts, walletRewards } from '../../db/schema';
import { createPayoutService } from './payouts';
import { createMailer } from '../../platform/mail';

const clock = manualClock(new Date('2026-06-20T10:00:00Z'));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const who: Record<string, { session: string; id: string }> = {};

const call = (name: string | undefined, method: Method, url: string, payload?: object) => adminCall(server, name ? (who[name]?.session ?? name) : undefined, method, url, payload);

async function reward(userId: string, amount: number, currency = 'USD') {
  await server.database.db.insert(walletRewards).values({
    clientId: 'bugbounty',
    externalId: randomUUID(),
    requestDigest: 'test',
    userId,
    programAlias: 'acme',
    currency,
    amountMinor: amount,
    createdAt: clock.now(),
  });
}
const balanceOf = async (userId: string, currency = 'USD') =>
  (await server.database.db.select().from(walletAccounts).where(and(eq(walletAccounts.userId, userId), eq(walletAccounts.currency, currency))))[0]?.balance ?? 0;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { PAYOUT_JOB_INTERVAL_SECONDS: '0' } });
  client = identityClient(server.app, server.database);
  who.owner = await operator(server, client, 'owner@example.com', ['owner']);
  who.finance = await operator(server, client, 'finance@example.com', ['finance']);
  who.support = await operator(server, client, 'support@example.com', ['support']);
  who.nobody = await operator(server, client, 'nobody@example.com', []);
  who.researcher = await operator(server, client, 'researcher@example.com', []);
  who.waiting = await operator(server, client, 'waiting@example.com', []);
  await server.database.db.insert(researcherSettings).values({ userId: who.researcher.id, payoutCurrency: 'USD', updatedAt: clock.now() });
}, 60_000);
afterAll(() => server?.close());

describe('the payout queue from the console', () => {
  it('support, non-operators and anonymous callers can neither see the queue nor approve or hold a payout', async () => {
    await reward(who.researcher!.id, 5000);
    const base = `/v3/admin/wallet/payouts/${who.researcher!.id}/USD`;
    for (const [method, url, body] of [
      ['GET', '/v3/admin/wallet/payouts'],
      ['POST', `${base}/approve`, { reason: 'Monthly batch early' }],
      ['POST', `${base}/hold`, { reason: 'Checking the report' }],
    ] as Array<[Method, string, object?]>) {
      expect((await call(undefined, method, url, body)).statusCode, url).toBe(401);
      for (const name of ['nobody', 'support']) {
        const refused = await call(name, method, url, body);
        expect([refused.statusCode, codeOf(refused)], `${name} ${url}`).toEqual([403, 'admin.forbidden']);
      }
    }
    expect(await balanceOf(who.researcher!.id)).toBe(0);
  });

  it('lists what waits; a held payout is skipped by the 10th’s run, then approving pays it (held ones included) once, even twice at once', async () => {
    const queue = await call('finance', 'GET', '/v3/admin/wallet/payouts');
    expect(queue.statusCode).toBe(200);
    expect(queue.json().queue).toEqual([expect.objectContaining({ user_id: who.researcher!.id, email: 'researcher@example.com', currency: 'USD', amount_minor: '5000', rewards: 1, held: 0, payout_method: 'USD' })]);
    const held = await call('finance', 'POST', `/v3/admin/wallet/payouts/${who.researcher!.id}/USD/hold`, { reason: 'Checking the report' });
    expect([held.statusCode, held.json().held]).toEqual([200, 1]);
    const payouts = createPayoutService({ db: server.database.db, clock, config: server.config, mailer: createMailer({ from: 'test@localhost', database: server.database }), log: { error: () => {} } });
    expect(await payouts.run(new Date('2026-07-10T01:00:00Z'))).toEqual({ payday: true, payouts: 0 });
    expect(await balanceOf(who.researcher!.id)).toBe(0);

    await reward(who.researcher!.id, 2500);
    const url = `/v3/admin/wallet/payouts/${who.researcher!.id}/USD/approve`;
    const answers = await Promise.all([call('finance', 'POST', url, { reason: 'Report checked' }), call('owner', 'POST', url, { reason: 'Report checked too' })]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(codeOf(answers.find((answer) => answer.statusCode === 409)!)).toBe('admin.payout_nothing_due');
    expect(answers.find((answer) => answer.statusCode === 200)!.json()).toMatchObject({ amount_minor: '7500', rewards: 2 });
    expect(await balanceOf(who.researcher!.id)).toBe(7500);
    expect(await server.database.db.select().from(walletPayouts).where(eq(walletPayouts.userId, who.researcher!.id))).toHaveLength(1);
    expect((await call('finance', 'GET', '/v3/admin/wallet/payouts')).json().queue).toEqual([]);
  });

  it('refuses to pay a researcher without a payout method, and validates ids and currencies (400, never 500)', async () => {
    await reward(who.waiting!.id, 100);
    const noMethod = await call('finance', 'POST', `/v3/admin/wallet/payouts/${who.waiting!.id}/USD/approve`, { reason: 'Pay them' });
    expect([noMethod.statusCode, codeOf(noMethod)]).toEqual([409, 'admin.payout_method_missing']);
    expect((await call('finance', 'POST', `/v3/admin/wallet/payouts/not-a-uuid/USD/approve`, { reason: 'Pay them' })).statusCode).toBe(400);
    expect((await call('finance', 'POST', `/v3/admin/wallet/payouts/${who.waiting!.id}/EUR/approve`, { reason: 'Pay them' })).statusCode).toBe(400);
    const nothing = await call('finance', 'POST', `/v3/admin/wallet/payouts/${randomUUID()}/USD/hold`, { reason: 'Nothing here' });
    expect([nothing.statusCode, codeOf(nothing)]).toEqual([409, 'admin.payout_nothing_due']);
  });
});

describe("a ledger account's entries", () => {
  it('support may read them (a person by email, the system accounts), newest first; unknown ids are 404, malformed 400', async () => {
    const accounts = await call('support', 'GET', '/v3/admin/wallet/accounts?owner=researcher@example.com');
    expect(accounts.statusCode).toBe(200);
    const [usd] = accounts.json().accounts as Array<{ id: string; balance_minor: string }>;
    expect(usd).toMatchObject({ currency: 'USD', balance_minor: '7500' });
    const entries = await call('support', 'GET', `/v3/admin/wallet/accounts/${usd!.id}/entries`);
    expect(entries.statusCode).toBe(200);
    expect(entries.json()).toMatchObject({ entries: [expect.objectContaining({ kind: 'payout', amount_minor: '7500', balance_after_minor: '7500' })], next_cursor: null });
    const system = await call('finance', 'GET', '/v3/admin/wallet/accounts?owner=system');
    expect(system.json().accounts).toEqual([expect.objectContaining({ system_name: 'payouts', balance_minor: '-7500' })]);
    expect(codeOf(await call('support', 'GET', '/v3/admin/wallet/accounts?owner=ghost@example.com'))).toBe('admin.account_not_found');
    expect(codeOf(await call('support', 'GET', `/v3/admin/wallet/accounts/${randomUUID()}/entries`))).toBe('admin.not_found');
    expect((await call('support', 'GET', '/v3/admin/wallet/accounts/%00/entries')).statusCode).toBe(400);
    expect((await call('support', 'GET', `/v3/admin/wallet/accounts/${usd!.id}/entries?cursor=x`)).statusCode).toBe(400);
    expect((await call('nobody', 'GET', `/v3/admin/wallet/accounts/${usd!.id}/entries`)).statusCode).toBe(403);
  });

  it('an old sign-in must prove itself again before approving a payout', async () => {
    await reward(who.researcher!.id, 100);
    clock.advance((server.config.REAUTH_MAX_AGE_SECONDS + 1) * 1000);
    const stale = await call('finance', 'POST', `/v3/admin/wallet/payouts/${who.researcher!.id}/USD/approve`, { reason: 'Pay now' });
    expect([stale.statusCode, codeOf(stale)]).toEqual([403, 'auth.reauth_required']);
    expect(await balanceOf(who.researcher!.id)).toBe(7500);
  });
});
