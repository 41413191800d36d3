import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payoutTestServer } from '../../../test/payouts';
import { loadConfig } from '../../config';
import { listOutbox } from '../../platform/mail';
import { rows } from './ledger';
import { nextPayoutDate } from './payouts';

/**
 * The monthly payout job: the date it pays on, one entry per currency into the wallets with a
 * statement, a notification and a mail, and every reward paid exactly once (parallel runners, a
 * crash in the middle, random sequences of posts, cancels and runs), the books holding.
 */
const bountyServer = payoutTestServer();
const { clock, researcher, inject, rewardBody, postReward, choose, balance, service, booksHold } = bountyServer;

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
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${whc.reward_id}`, bountyServer.bugbounty)).json()).toMatchObject({ status: 'paid' });
    const paidCancel = await inject('POST', `/v3/bugbounty_platform/rewards/${whc.reward_id}/cancel`, bountyServer.bugbounty);
    expect(paidCancel.statusCode).toBe(409);
    expect(paidCancel.json().code).toBe('payouts.reward_paid');
    const notifications = (await inject('GET', '/v3/notifications?page=1&page_size=10', person.token)).json();
    expect(JSON.stringify(notifications)).toContain('Your rewards were paid');
    await expect.poll(async () => (await listOutbox(bountyServer.server.database, { to: person.email })).map((mail) => mail.subject)).toContainEqual(expect.stringContaining('Your rewards were paid'));
    // Money moved on the account: the mail ends with the security notice, as the other security mails do.
    const mail = (await listOutbox(bountyServer.server.database, { to: person.email })).find((sent) => sent.subject.includes('Your rewards were paid'))!;
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
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${before.reward_id}`, bountyServer.bugbounty)).json().status).toBe('approved');
    await choose(person.token, 'VND');
    const start = clock.now();
    clock.set(new Date('2026-12-10T05:00:00Z'));
    const late = rewardBody(person.email, { amount_minor: '700' });
    await postReward(late);
    clock.set(start);
    await payouts.run(new Date('2026-12-10T06:00:00Z'));
    // No conversion: the USD reward goes to the USD wallet although VND was chosen.
    expect(await balance(person.id, 'USD')).toBe(15000);
    expect((await inject('GET', `/v3/bugbounty_platform/rewards/${late.reward_id}`, bountyServer.bugbounty)).json().status).toBe('approved');
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
    const paidBefore = (await rows<{ n: number }>(bountyServer.server.database.db, sql`select count(*)::int as n from wallet_rewards where status = 'paid' and user_id in (${sql.join(team.map((person) => sql`${person.id}`), sql`, `)})`))[0]!.n;
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
            const answer = await inject('POST', `/v3/bugbounty_platform/rewards/${id}/cancel`, bountyServer.bugbounty);
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
            bountyServer.server.database.db,
            sql`select a.currency, coalesce(sum(p.amount), 0)::text as total from wallet_postings p join wallet_accounts a on a.id = p.account_id
              join wallet_entries e on e.id = p.entry_id where a.user_id = ${person.id} and e.kind = 'payout' group by a.currency`,
          );
          const paid = await rows<{ currency: string; total: string }>(
            bountyServer.server.database.db,
            sql`select currency, sum(amount_minor)::text as total from wallet_rewards where user_id = ${person.id} and status = 'paid' group by currency`,
          );
          expect(Object.fromEntries(received.map((row) => [row.currency, row.total]))).toEqual(Object.fromEntries(paid.map((row) => [row.currency, row.total])));
        }
        // A canceled reward was never paid.
        const canceled = [...posted.entries()].filter(([, reward]) => reward.canceled).map(([id]) => id);
        if (canceled.length) {
          const paidCanceled = await rows(bountyServer.server.database.db, sql`select id from wallet_rewards where status = 'paid' and external_id in (${sql.join(canceled.map((id) => sql`${id}`), sql`, `)})`);
          expect(paidCanceled).toEqual([]);
        }
      }),
      { numRuns: 12 },
    );
  });
});
