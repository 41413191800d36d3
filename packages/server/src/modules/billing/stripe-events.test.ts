import { randomUUID } from 'node:crypto';
import { eq, like, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { orders, stripeEvents, users, walletEntries } from '../../db/schema';

const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
const secret = 'whsec_events_test_secret';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    clock,
    // The processor's API is never called here: the order waits for its payment intent's event.
    env: { PAYMENTS_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_PUBLISHABLE_KEY: 'pk_test_local', STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_URL: 'http://127.0.0.1:9', BILLING_JOB_INTERVAL_SECONDS: '0' },
  });
  await identityClient(server.app, server.database).registeredUser('events@example.com');
});
afterAll(() => server.close());

const webhook = (payload: string) =>
  server.app.inject({
    method: 'POST',
    url: '/v3/billing/stripe/webhook',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(clock.now().getTime() / 1000) }) },
  });
const succeeded = (eventId: string, intent: string) =>
  JSON.stringify({ id: eventId, object: 'event', type: 'payment_intent.succeeded', created: Math.floor(clock.now().getTime() / 1000), data: { object: { id: intent, object: 'payment_intent', status: 'succeeded' } } });

/** An order whose payment is still processing at Stripe, as a subscription start leaves it. */
async function pendingOrder(intent: string) {
  const [user] = await server.database.db.select().from(users).where(eq(users.email, 'events@example.com'));
  const id = randomUUID();
  await server.database.db.insert(orders).values({
    id,
    number: `INV-TEST-${id.slice(0, 8)}`,
    userId: user!.id,
    product: 'secret',
    plan: 'secret.pro',
    months: 1,
    currency: 'USD',
    price: 900,
    discount: 0,
    subtotal: 900,
    credit: 0,
    total: 900,
    status: 'pending',
    kind: 'new',
    idempotencyKey: `test-order-${id}`,
    processorRef: intent,
  });
  return id;
}
const orderStatus = async (id: string) => (await server.database.db.select().from(orders).where(eq(orders.id, id)))[0]!.status;
const recorded = async (eventId: string) => (await server.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId))).length;
const ledgerEntries = (orderId: string) => server.database.db.select().from(walletEntries).where(like(walletEntries.idempotencyKey, `billing:%:${orderId}`));

describe("Stripe's events", () => {
  it('an effect that fails leaves the event unrecorded; the redelivery applies it once', async () => {
    const orderId = await pendingOrder('pi_effect_fails');
    // The ledger refuses for a moment (a real database failure inside the effect's transaction).
    await server.database.db.execute(sql.raw(`create function refuse_entries() returns trigger language plpgsql as $$ begin raise exception 'ledger unavailable'; end $$`));
    await server.database.db.execute(sql.raw(`create trigger refuse_entries before insert on wallet_entries for each row execute function refuse_entries()`));
    const payload = succeeded('evt_effect_fails', 'pi_effect_fails');
    const failed = await webhook(payload).finally(() => server.database.db.execute(sql.raw(`drop trigger refuse_entries on wallet_entries`)));
    // Not 2xx: Stripe delivers the event again later.
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(await recorded('evt_effect_fails')).toBe(0);
    expect(await orderStatus(orderId)).toBe('pending');

    expect((await webhook(payload)).json()).toEqual({ received: true });
    expect(await orderStatus(orderId)).toBe('paid');
    expect(await recorded('evt_effect_fails')).toBe(1);
    expect(await ledgerEntries(orderId)).toHaveLength(1);

    // Delivered once more (Stripe's at-least-once): recognised by its id, applied no second time.
    expect((await webhook(payload)).json()).toEqual({ received: false });
    expect(await ledgerEntries(orderId)).toHaveLength(1);
  });

  it('the same event delivered twice at once is applied once', async () => {
    const orderId = await pendingOrder('pi_twice_at_once');
    const payload = succeeded('evt_twice_at_once', 'pi_twice_at_once');
    const answers = await Promise.all([webhook(payload), webhook(payload)]);
    expect(answers.map((answer) => answer.json().received).sort()).toEqual([false, true]);
    expect(await orderStatus(orderId)).toBe('paid');
    expect(await ledgerEntries(orderId)).toHaveLength(1);
  });
});
