import { count, eq, sql } from 'drizzle-orm';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { billingNode } from '../../../test/billing';
import { startTestServer, type TestServer } from '../../../test/harness';
import { orders, sandboxCards, sandboxCharges, subscriptions, users } from '../../db/schema';
import { SANDBOX_TEST_CARDS } from '../../platform/payments';
import { RENEWAL_LEASE_MS, type BillingService } from './service';

const DAY = 24 * 60 * 60 * 1000;
const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
/** A second billing node on the same database (the renewal job runs there, as on any node). */
let node: (hooks?: { afterRenewalCharge?: (id: string) => void; receipts?: boolean }) => BillingService;
let keySeq = 0;
const key = () => `test-key-${++keySeq}-${Date.now()}`;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0', APPSUMO_LICENSE_SECRET: 'appsumo-test-secret-0123456789' } });
  client = identityClient(server.app, server.database);
  node = (hooks = {}) => billingNode(server, clock, hooks);
  await node().createPromoCode({ code: 'WELCOME10', percent: 10 });
  await node().createPromoCode({ code: 'OLD', percent: 50, expiresAt: new Date('2026-01-01T00:00:00Z') });
  await node().createPromoCode({ code: 'ONCE', amount: { minor: 500, currency: 'USD' }, maxRedemptions: 1 });
});
afterAll(() => server.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const tokenize = (number: string, extra: Record<string, unknown> = {}) =>
  server.app.inject({ method: 'POST', url: '/v3/billing/sandbox/tokens', payload: { number, exp_month: 12, exp_year: 2030, cvc: '123', ...extra } });
const address = { cardholder: 'Test Person', city: 'Hanoi', state: 'HN', zip: '100000' };
async function addCard(session: string, number: string = SANDBOX_TEST_CARDS.success, extra: Record<string, unknown> = {}) {
  const token = (await tokenize(number)).json().token as string;
  return call(session, 'POST', '/v3/sso/me/cards', { token, ...address, ...extra });
}
const chargeCount = async () => (await server.database.db.select({ n: count() }).from(sandboxCharges))[0]!.n;
/** A new session for an account (sessions idle for a week end, and these tests move the clock by months). */
const signIn = async (email: string) => (await client.signIn(email, 'plum-orbit-cactus-917')).json().token as string;
const subscriptionRow = async (id: string) => (await server.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

describe('the sandbox processor', () => {
  it("checks card details with the spec's messages and keeps only brand, last four and expiry", async () => {
    const fieldCode = async (number: string, extra: Record<string, unknown> = {}) => {
      const response = await tokenize(number, extra);
      expect(response.statusCode).toBe(400);
      const [field] = Object.entries(response.json().details.fields as Record<string, { code: string; message: string }>);
      return [field![0], field![1].code, field![1].message];
    };
    expect(await fieldCode('4242424242424241')).toEqual(['number', 'billing.card_invalid_number', 'Your card number is invalid.']);
    expect(await fieldCode('424242424242')).toEqual(['number', 'billing.card_incomplete_number', 'Your card number is incomplete.']);
    expect(await fieldCode('4242424242424242', { cvc: '12' })).toEqual(['cvc', 'billing.card_incomplete_cvc', "Your card's security code is incomplete."]);
    expect(await fieldCode('4242424242424242', { exp_month: 13 })).toEqual(['expiry', 'billing.card_incomplete_expiry', "Your card's expiration date is incomplete."]);
    expect(await fieldCode('4242424242424242', { exp_year: 99 })).toEqual(['expiry', 'billing.card_invalid_expiry_year', "Your card's expiration year is invalid."]);
    expect(await fieldCode('4242424242424242', { exp_year: 2024 })).toEqual(['expiry', 'billing.card_expiry_year_past', "Your card's expiration year is in the past."]);
    expect((await fieldCode('6200000000000005'))[1]).toBe('billing.card_brand_not_accepted');

    const ok = await tokenize('3782 822463 10005', { cvc: '1234' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ brand: 'american-express', last4: '0005', exp_month: 12, exp_year: 2030 });
    const [row] = await server.database.db.select().from(sandboxCards).where(eq(sandboxCards.token, ok.json().token));
    expect(JSON.stringify(row)).not.toContain('378282246310005');
    expect(JSON.stringify(row)).not.toContain('1234');
  });
});

describe('cards', () => {
  it('makes the first card the default; removing the default makes the most recently added the default', async () => {
    const session = await client.registeredUser('cards@example.com');
    const first = (await addCard(session)).json();
    expect(first).toMatchObject({ brand: 'visa', last4: '4242', is_default: true, cardholder: 'Test Person' });
    clock.advance(1000);
    const second = (await addCard(session, '5555555555554444')).json();
    clock.advance(1000);
    const third = (await addCard(session, '3566002020360505')).json();
    expect([second.is_default, third.is_default]).toEqual([false, false]);

    const removed = await call(session, 'DELETE', `/v3/sso/me/cards/${first.id}`);
    expect(removed.json()).toEqual({ canceled_subscriptions: [], default_card_id: third.id });
    const list = (await call(session, 'GET', '/v3/sso/me/cards')).json();
    expect(list.map((card: { id: string; is_default: boolean }) => [card.id, card.is_default])).toEqual([
      [third.id, true],
      [second.id, false],
    ]);
    const made = await call(session, 'PUT', `/v3/sso/me/cards/${second.id}/default`);
    expect(made.json()[0]).toMatchObject({ id: second.id, is_default: true });
    expect((await call(session, 'DELETE', `/v3/sso/me/cards/${first.id}`)).json().code).toBe('billing.card_not_found');
  });

  it("has no Stripe SetupIntent while the sandbox is the processor", async () => {
    const session = await client.registeredUser('no-setup@example.com');
    const setup = await call(session, 'POST', '/v3/sso/me/cards/setup');
    expect(setup.statusCode).toBe(404);
    expect(setup.json().code).toBe('not_found');
  });

  it('refuses a declined card with the generic decline, and a token that is not one', async () => {
    const session = await client.registeredUser('declined@example.com');
    const declined = await addCard(session, SANDBOX_TEST_CARDS.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'billing.card_declined', message: 'Your card was declined.' });
    const bogus = await call(session, 'POST', '/v3/sso/me/cards', { token: 'tok_nope', ...address });
    expect(bogus.statusCode).toBe(400);
    const blank = await call(session, 'POST', '/v3/sso/me/cards', { token: 'x', ...address, city: ' ' });
    expect(blank.json().details.fields.city.message).toBe('This field may not be blank.');
  });
});

describe('subscriptions', () => {
  it('starts a 14-day trial once per person and product, shown to products; a trial cancelled ends without a charge', async () => {
    let session = await client.registeredUser('trial@example.com');
    expect((await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'pwdmanager.premium', months: 12, currency: 'USD', idempotency_key: key() })).json().code).toBe('billing.no_card');
    await addCard(session);
    const quote = await call(session, 'POST', '/v3/sso/me/checkout/quote', { plan: 'pwdmanager.premium', months: 12, currency: 'USD' });
    expect(quote.json()).toMatchObject({ price: 1548, total: 1548, due_now: 0, trial_days: 14 });
    const started = await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'pwdmanager.premium', months: 12, currency: 'USD', idempotency_key: key() });
    expect(started.statusCode).toBe(201);
    const { subscription, order } = started.json();
    expect(order).toBeNull();
    expect(subscription).toMatchObject({ status: 'trialing', plan: 'pwdmanager.premium', cancel_at_period_end: false });
    expect(new Date(subscription.trial_ends_at).getTime() - clock.now().getTime()).toBe(14 * DAY);

    const pm = await call(session, 'GET', '/v3/locker_platform/pm/users/me');
    expect(pm.json().plan).toMatchObject({ plan: 'pwdmanager.premium', tier: 'premium', status: 'trialing' });

    const again = await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'pwdmanager.family', months: 1, currency: 'USD', idempotency_key: key() });
    expect(again.json().code).toBe('billing.already_subscribed');

    expect((await call(session, 'POST', `/v3/sso/me/subscriptions/${subscription.id}/cancel`)).json()).toMatchObject({ cancel_at_period_end: true, next_charge_at: null });
    expect((await call(session, 'POST', `/v3/sso/me/subscriptions/${subscription.id}/resume`)).json()).toMatchObject({ cancel_at_period_end: false });
    await call(session, 'POST', `/v3/sso/me/subscriptions/${subscription.id}/cancel`);

    const charges = await chargeCount();
    clock.advance(15 * DAY);
    await node().runRenewals();
    expect((await subscriptionRow(subscription.id)).status).toBe('canceled');
    expect(await chargeCount()).toBe(charges);
    await client.mailTo('trial@example.com', /Your Premium subscription has ended/);
    session = await signIn('trial@example.com');

    // No second trial of the product: the next start is charged at once.
    const paid = await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'pwdmanager.premium', months: 1, currency: 'USD', idempotency_key: key() });
    expect(paid.json().subscription.status).toBe('active');
    expect(paid.json().order).toMatchObject({ kind: 'new', price: 199, total: 199, status: 'paid', payment_method: 'Visa •••• 4242', currency: 'USD' });
    await client.mailTo('trial@example.com', /Attachments: invoice-INV-\d{6}-[0-9A-F]{8}\.pdf/);
  });

  it('applies promo codes (percent, fixed, limits, expiry) and says "Promo code not valid" otherwise', async () => {
    const session = await client.registeredUser('promo@example.com');
    await addCard(session);
    const quote = (body: object) => call(session, 'POST', '/v3/sso/me/checkout/quote', { plan: 'secret.pro', months: 1, currency: 'USD', ...body });
    expect((await quote({ promo_code: 'welcome10' })).json()).toMatchObject({ price: 900, discount: 90, subtotal: 810, total: 810, due_now: 810, promo_code: 'WELCOME10' });
    for (const code of ['NOPE', 'OLD']) {
      const refused = await quote({ promo_code: code });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details.fields.promo_code).toMatchObject({ code: 'billing.promo_invalid', message: 'Promo code not valid' });
    }
    expect((await quote({ promo_code: 'ONCE', currency: 'VND' })).json().code).toBe('validation_error');
    const bought = await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'secret.pro', months: 1, currency: 'USD', promo_code: 'ONCE', idempotency_key: key() });
    expect(bought.json().order).toMatchObject({ price: 900, discount: 500, total: 400, promo_code: 'ONCE' });
    const other = await client.registeredUser('promo2@example.com');
    const used = await call(other, 'POST', '/v3/sso/me/checkout/quote', { plan: 'secret.pro', months: 1, currency: 'USD', promo_code: 'ONCE' });
    expect(used.json().details.fields.promo_code.code).toBe('billing.promo_invalid');
  });

  it('charges once per idempotency key; a different request under a used key is refused', async () => {
    const session = await client.registeredUser('idem@example.com');
    await addCard(session);
    const body = { plan: 'vulnscan.standard', months: 1, currency: 'VND', idempotency_key: key() };
    const before = await chargeCount();
    const [first, second] = await Promise.all([call(session, 'POST', '/v3/sso/me/subscriptions', body), call(session, 'POST', '/v3/sso/me/subscriptions', body)]);
    const answers = [first!, second!].map((response) => response.statusCode).sort();
    // Both at once: one runs, the other is told it is in progress (or answers the same result).
    expect(answers[0]).toBe(201);
    const replay = await call(session, 'POST', '/v3/sso/me/subscriptions', body);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().order.id).toBe(first!.statusCode === 201 ? first!.json().order.id : second!.json().order.id);
    expect(replay.json().order).toMatchObject({ currency: 'VND', total: 2_400_000 });
    expect(await chargeCount()).toBe(before + 1);
    const changed = await call(session, 'POST', '/v3/sso/me/subscriptions', { ...body, months: 12 });
    expect(changed.json().code).toBe('billing.idempotency_conflict');
  });

  it('changes plan with proration (the unused part credited), and the invoice PDF is in the person\'s language', async () => {
    let session = await client.registeredUser('change@example.com');
    await server.database.db.update(users).set({ language: 'vi' }).where(eq(users.email, 'change@example.com'));
    await addCard(session);
    const started = (await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'secret.pro', months: 12, currency: 'USD', idempotency_key: key() })).json();
    expect(started.order.total).toBe(8640);
    const period = new Date(started.subscription.current_period_end).getTime() - new Date(started.subscription.current_period_start).getTime();
    clock.advance(period / 2);
    session = await signIn('change@example.com');
    const quote = (await call(session, 'POST', '/v3/sso/me/checkout/quote', { plan: 'secret.business', months: 12, currency: 'USD', subscription_id: started.subscription.id, promo_code: 'WELCOME10' })).json();
    expect(quote).toMatchObject({ price: 18240, discount: 1824, subtotal: 16416, credit: 4320, total: 12096, due_now: 12096 });
    const changed = await call(session, 'POST', `/v3/sso/me/subscriptions/${started.subscription.id}/change`, { plan: 'secret.business', months: 12, promo_code: 'WELCOME10', idempotency_key: key() });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().order).toMatchObject({ kind: 'change', credit: 4320, total: 12096, status: 'paid' });
    expect(changed.json().subscription).toMatchObject({ plan: 'secret.business', status: 'active' });

    const list = (await call(session, 'GET', '/v3/sso/me/orders')).json();
    expect(list.map((order: { kind: string }) => order.kind)).toEqual(['change', 'new']);
    const pdf = await call(session, 'GET', `/v3/sso/me/orders/${changed.json().order.id}/invoice`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { text } = await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true });
    expect(text).toContain('Hóa đơn');
    expect(text).toContain(changed.json().order.number);
    expect(text).toMatch(/Tổng cộng: 120,96\sUS\$/);
    expect(text).toContain('Visa •••• 4242');
    const missing = await call(session, 'GET', `/v3/sso/me/orders/00000000-0000-0000-0000-000000000000/invoice`);
    expect(missing.statusCode).toBe(404);
  });

  it('removing the card that pays a subscription cancels it, and the answer names it', async () => {
    const session = await client.registeredUser('remove@example.com');
    const card = (await addCard(session)).json();
    const other = (await addCard(session, '6011111111111117')).json();
    const sub = (await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'endpoint.standard', months: 1, currency: 'USD', idempotency_key: key() })).json().subscription;
    const cards = (await call(session, 'GET', '/v3/sso/me/cards')).json();
    expect(cards.find((c: { id: string }) => c.id === card.id).subscriptions).toBe(1);
    const removed = (await call(session, 'DELETE', `/v3/sso/me/cards/${card.id}`)).json();
    expect(removed).toEqual({ canceled_subscriptions: [{ ...sub, status: 'canceled', canceled_at: expect.any(String), next_charge_at: null }], default_card_id: other.id });
    expect((await subscriptionRow(sub.id)).status).toBe('canceled');
    await client.mailTo('remove@example.com', /Your Endpoint subscription has ended/);
  });
});

describe('the renewal job', () => {
  it('renews each due subscription once when two nodes run at once, and resumes after a crash without a second charge', async () => {
    const session = await client.registeredUser('renew@example.com');
    await addCard(session);
    const subs = [];
    for (const plan of ['safechain.standard', 'bugbounty.standard']) {
      subs.push((await call(session, 'POST', '/v3/sso/me/subscriptions', { plan, months: 1, currency: 'USD', idempotency_key: key() })).json().subscription);
    }
    clock.advance(32 * DAY);
    const before = await chargeCount();
    const [a, b] = await Promise.all([node().runRenewals(), node().runRenewals()]);
    expect(a.renewed + b.renewed).toBeGreaterThanOrEqual(2);
    const renewalOrders = await server.database.db.select().from(orders).where(eq(orders.kind, 'renewal'));
    for (const sub of subs) {
      expect(renewalOrders.filter((order) => order.subscriptionId === sub.id)).toHaveLength(1);
      const row = await subscriptionRow(sub.id);
      expect(row.currentPeriodStart.toISOString()).toBe(sub.current_period_end);
      expect(row.claimId).toBeNull();
    }
    const charged = (await chargeCount()) - before;

    // A node dies after charging, before moving the subscription on.
    clock.advance(31 * DAY);
    const crashing = node({
      afterRenewalCharge: () => {
        throw new Error('node died');
      },
    });
    const crashed = await crashing.runRenewals();
    expect(crashed.failed).toBeGreaterThanOrEqual(2);
    const afterCrash = await chargeCount();
    for (const sub of subs) expect((await subscriptionRow(sub.id)).claimId).not.toBeNull();
    // Its claims hold until the lease ends; then another run finishes the job with the same keys.
    expect((await node().runRenewals()).renewed).toBe(0);
    clock.advance(RENEWAL_LEASE_MS + 1000);
    const resumed = await node().runRenewals();
    expect(resumed.renewed).toBeGreaterThanOrEqual(2);
    expect(await chargeCount()).toBe(afterCrash);
    for (const sub of subs) {
      const paid = (await server.database.db.select().from(orders).where(eq(orders.subscriptionId, sub.id))).filter((order) => order.kind === 'renewal');
      expect(paid).toHaveLength(2);
      expect(paid.every((order) => order.status === 'paid')).toBe(true);
    }
    expect(charged).toBeGreaterThanOrEqual(2);
  });

  it('never hands one subscription to two runs: six runs at once over 120 due, each renewed and charged once', { timeout: 120_000 }, async () => {
    // Bulk-loaded and not analyzed, so each claim scans the table: the widest window for two
    // claims to meet.
    const db = server.database.db;
    const due = new Date(clock.now().getTime() - 60_000).toISOString();
    await db.execute(sql`
      insert into users (id, email, full_name, activated_at)
      select gen_random_uuid(), 'claims-' || n || '@bench.test', 'Claims ' || n, now() from generate_series(1, 120) n`);
    await db.execute(sql`
      insert into sandbox_cards (token, brand, last4, exp_month, exp_year, behavior)
      select 'tok_claims_' || u.id, 'visa', '4242', 12, 2040, 'success' from users u where u.email like 'claims-%@bench.test'`);
    await db.execute(sql`
      insert into payment_methods (id, user_id, processor, processor_ref, brand, last4, exp_month, exp_year, cardholder, city, state, zip, is_default)
      select gen_random_uuid(), u.id, 'sandbox', 'tok_claims_' || u.id, 'visa', '4242', 12, 2040, 'Claims', 'Hanoi', 'HN', '100000', true
      from users u where u.email like 'claims-%@bench.test'`);
    await db.execute(sql`
      insert into subscriptions (id, user_id, product, plan, months, seats, currency, price, status, payment_method_id, current_period_start, current_period_end, next_attempt_at)
      select gen_random_uuid(), p.user_id, 'pwdmanager', 'pwdmanager.premium', 1, 1, 'USD', 199, 'active', p.id, ${due}::timestamptz - interval '1 month', ${due}::timestamptz, ${due}::timestamptz
      from payment_methods p where p.processor_ref like 'tok_claims_%'`);

    // Receipts off: 120 invoice PDFs would hold up the mail the next test waits for.
    const runs = await Promise.all(Array.from({ length: 6 }, () => node({ receipts: false }).runRenewals({ batchSize: 10, maxBatches: 1000, concurrency: 4 })));
    expect(runs.reduce((sum, run) => sum + run.lost + run.failed, 0)).toBe(0);
    const tally = await db.execute(sql`
      select count(*)::int as charges, count(distinct c.token)::int as cards from sandbox_charges c where c.token like 'tok_claims_%'`);
    expect((tally as unknown as { rows: { charges: number; cards: number }[] }).rows[0]).toEqual({ charges: 120, cards: 120 });
    const moved = await db.execute(sql`
      select count(*)::int as n from subscriptions s join payment_methods p on p.id = s.payment_method_id
      where p.processor_ref like 'tok_claims_%' and s.current_period_start = ${due}::timestamptz and s.claim_id is null`);
    expect((moved as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(120);
    // Out of the way of the tests after this one, which move the clock past their next renewal.
    await db.execute(sql`update subscriptions set status = 'canceled', next_attempt_at = null where payment_method_id in (select id from payment_methods where processor_ref like 'tok_claims_%')`);
  });

  it('moves a failed renewal to past_due, retries on the schedule with a mail each time, then cancels', async () => {
    const session = await client.registeredUser('pastdue@example.com');
    await addCard(session, SANDBOX_TEST_CARDS.chargeDeclined);
    const sub = (await call(session, 'POST', '/v3/sso/me/subscriptions', { plan: 'pwdmanager.family', months: 1, currency: 'USD', idempotency_key: key() })).json().subscription;
    expect(sub.status).toBe('trialing');
    clock.advance(14 * DAY + 1000);
    await node().runRenewals();
    let row = await subscriptionRow(sub.id);
    expect([row.status, row.retryCount]).toEqual(['past_due', 1]);
    await client.mailTo('pastdue@example.com', /We could not charge \$7\.99 for Family/);
    for (const days of [1, 3]) {
      clock.advance(days * DAY + 1000);
      await node().runRenewals();
    }
    row = await subscriptionRow(sub.id);
    expect([row.status, row.retryCount]).toEqual(['past_due', 3]);
    clock.advance(7 * DAY + 1000);
    await node().runRenewals();
    expect((await subscriptionRow(sub.id)).status).toBe('canceled');
    await client.mailTo('pastdue@example.com', /Your Family subscription has ended/);
    const failed = (await call(await signIn('pastdue@example.com'), 'GET', '/v3/sso/me/orders')).json();
    expect(failed.map((order: { status: string }) => order.status)).toEqual(['failed', 'failed', 'failed', 'failed']);

    const poor = await client.registeredUser('poor@example.com');
    await addCard(poor, SANDBOX_TEST_CARDS.insufficientFunds);
    const refused = await call(poor, 'POST', '/v3/sso/me/subscriptions', { plan: 'secret.pro', months: 1, currency: 'USD', idempotency_key: key() });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ code: 'billing.insufficient_funds' });
    expect((await call(poor, 'GET', '/v3/sso/me/subscriptions')).json()).toEqual([]);
  });
});

describe('AppSumo licenses', () => {
  it('grants an AppSumo license once; a forged or expired code is refused with the spec text', async () => {
    const session = await client.registeredUser('sumo@example.com');
    const code = node().issueLicense('pwdmanager.lifetime', new Date(clock.now().getTime() + 30 * DAY));
    const redeemed = await call(session, 'POST', '/v3/sso/me/licenses/redeem', { token: code });
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toMatchObject({ plan: 'pwdmanager.lifetime', subscription: { status: 'active', lifetime: true, next_charge_at: null } });
    const text = 'The license is either not valid or has expired';
    expect((await call(session, 'POST', '/v3/sso/me/licenses/redeem', { token: code })).json()).toMatchObject({ code: 'billing.license_invalid', message: text });
    expect((await call(session, 'POST', '/v3/sso/me/licenses/redeem', { token: code.toUpperCase() })).json().code).toBe('billing.license_invalid');
    expect((await call(session, 'POST', '/v3/sso/me/licenses/redeem', { token: `${code.slice(0, -2)}xx` })).json().message).toBe(text);
    const expired = node().issueLicense('pwdmanager.lifetime', new Date(clock.now().getTime() - 1000));
    expect((await call(session, 'POST', '/v3/sso/me/licenses/redeem', { token: expired })).json().message).toBe(text);
    const pm = await call(session, 'GET', '/v3/locker_platform/pm/users/me');
    expect(pm.json().plan).toMatchObject({ plan: 'pwdmanager.lifetime', status: 'active' });
  });
});
