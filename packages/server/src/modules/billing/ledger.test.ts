import { eq, like, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { billingNode, personWithCard } from '../../../test/billing';
import { startTestServer, type TestServer } from '../../../test/harness';
import { orders, walletEntries } from '../../db/schema';
import { BILLING_CARDS_ACCOUNT, BILLING_REVENUE_ACCOUNT } from '../wallet';
import type { BillingService } from './service';

const clock = manualClock(new Date('2026-05-01T10:00:00Z'));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let billing: BillingService;
let seq = 0;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0', BILLING_RECEIPT_INTERVAL_SECONDS: '0', APPSUMO_LICENSE_SECRET: 'appsumo-test-secret-0123456789' } });
  client = identityClient(server.app, server.database);
  billing = billingNode(server, clock, { receipts: false });
});
afterAll(() => server.close());

/** A person with a sandbox card; answers their id and session. */
const buyer = () => personWithCard(server, client, `ledger-${++seq}@example.com`);

const entriesOf = (orderId: string) => server.database.db.select().from(walletEntries).where(like(walletEntries.idempotencyKey, `billing:%:${orderId}`));

/** Per currency, the two system accounts' balances. */
async function systemBalances(): Promise<Record<string, { cards: number; revenue: number }>> {
  const { rows } = (await server.database.db.execute(sql`select system_name, currency, balance::text as balance from wallet_accounts where system_name in (${BILLING_CARDS_ACCOUNT}, ${BILLING_REVENUE_ACCOUNT})`)) as unknown as {
    rows: { system_name: string; currency: string; balance: string }[];
  };
  const out: Record<string, { cards: number; revenue: number }> = {};
  for (const row of rows) {
    out[row.currency] ??= { cards: 0, revenue: 0 };
    out[row.currency]![row.system_name === BILLING_CARDS_ACCOUNT ? 'cards' : 'revenue'] = Number(row.balance);
  }
  return out;
}

/** Every billing entry balances to zero; the revenue per currency is what paid orders brought in less what was refunded. */
async function ledgerMatchesOrders() {
  const db = server.database.db;
  const unbalanced = (await db.execute(sql`select e.id from wallet_entries e join wallet_postings p on p.entry_id = e.id
    where e.kind like 'billing_%' group by e.id having sum(p.amount) <> 0 or count(*) <> 2`)) as unknown as { rows: unknown[] };
  expect(unbalanced.rows).toEqual([]);
  const paid = await db.select().from(orders).where(eq(orders.status, 'paid'));
  const expected: Record<string, number> = {};
  for (const order of paid) expected[order.currency] = (expected[order.currency] ?? 0) + (order.refundedAt ? 0 : order.total);
  const balances = await systemBalances();
  for (const currency of new Set([...Object.keys(expected), ...Object.keys(balances)])) {
    expect(balances[currency]?.revenue ?? 0, currency).toBe(expected[currency] ?? 0);
    expect((balances[currency]?.cards ?? 0) + (balances[currency]?.revenue ?? 0), currency).toBe(0);
  }
  for (const order of paid) {
    const entries = await entriesOf(order.id);
    expect(entries.map((entry) => entry.kind).sort()).toEqual(order.refundedAt ? ['billing_charge', 'billing_refund'] : ['billing_charge']);
  }
}

describe("billing's charges and refunds on the wallet's ledger", () => {
  it("posts a paid order's charge once, however often the payment is retried", async () => {
    const { id, session } = await buyer();
    const body = { plan: 'secret.pro', months: 1, currency: 'USD' as const, idempotency_key: 'ledger-retry-1' };
    // The same payment asked three times at once through the API, then again through the service.
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => server.app.inject({ method: 'POST', url: '/v3/sso/me/subscriptions', headers: { authorization: `Bearer ${session}` }, payload: body })),
    );
    const order = answers.find((answer) => answer.statusCode === 201)!.json().order as { id: string; total: number };
    await billing.subscribe(id, body);
    const entries = await entriesOf(order.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'billing_charge', currency: 'USD', status: 'completed' });
    // A late processor event for the same payment posts nothing either.
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    await billing.handleStripeEvent({ id: 'evt_ledger_1', type: 'payment_intent.succeeded', created: 0, data: { object: { id: row!.processorRef! } } });
    expect(await entriesOf(order.id)).toHaveLength(1);
    await ledgerMatchesOrders();
  });

  it('posts a refund as the reverse entry, once', async () => {
    const { id } = await buyer();
    const { order } = await billing.subscribe(id, { plan: 'vulnscan.standard', months: 1, currency: 'VND', idempotency_key: 'ledger-refund-1' });
    const before = await systemBalances();
    const [first, second] = await Promise.all([billing.refundOrder(order!.id), billing.refundOrder(order!.id)]);
    expect(first.id).toBe(second.id);
    expect((await entriesOf(order!.id)).map((entry) => entry.kind).sort()).toEqual(['billing_charge', 'billing_refund']);
    expect((await systemBalances()).VND!.revenue).toBe(before.VND!.revenue - order!.total);
    await expect(billing.refundOrder('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'billing.order_not_found' });
    await ledgerMatchesOrders();
  });

  it('keeps every entry balanced and the revenue equal to what was paid less refunds, over any sequence of payments, retries and refunds', async () => {
    const people = [await buyer(), await buyer()];
    const plans = ['secret.pro', 'endpoint.standard', 'vulnscan.standard'];
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('pay' as const), who: fc.nat(1), plan: fc.nat(2), currency: fc.constantFrom('USD' as const, 'VND' as const), key: fc.nat(3) }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(20) }),
      fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(1) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 10 }), async (operations) => {
        run += 1;
        const paid: string[] = [];
        for (const step of operations) {
          if (step.kind === 'pay') {
            // A small key space: the same key comes back (a retried payment) as often as a new one.
            const body = { plan: plans[step.plan]!, months: 1, currency: step.currency, idempotency_key: `prop-${run}-${step.who}-${step.key}` };
            const result = await billing.subscribe(people[step.who]!.id, body).catch((error: { code?: string }) => {
              if (['billing.already_subscribed', 'billing.idempotency_conflict', 'billing.idempotency_in_progress'].includes(error.code ?? '')) return null;
              throw error;
            });
            if (result?.order) paid.push(result.order.id);
          } else if (step.kind === 'refund' && paid.length > 0) {
            await billing.refundOrder(paid[step.pick % paid.length]!);
          } else if (step.kind === 'cancel') {
            // End the person's subscriptions so the next payment can start a new one.
            await server.database.db.execute(sql`update subscriptions set status = 'canceled' where user_id = ${people[step.who]!.id}`);
          }
        }
        await ledgerMatchesOrders();
      }),
      { numRuns: 6, seed: 1616 },
    );
  });
});
