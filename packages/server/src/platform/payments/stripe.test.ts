import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { orders, walletEntries } from '../../db/schema';
import { createStripeProcessor } from './stripe';

/**
 * A local server answering the Stripe endpoints the adapter calls, as Stripe documents them
 * (form-encoded requests, JSON objects, card errors as 402 with `error.type = card_error`,
 * the same answer again for a repeated Idempotency-Key).
 */
interface Seen {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

const cards: Record<string, { brand: string; last4: string; charge: 'succeeded' | 'processing' | 'insufficient_funds' | 'card_declined' }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', charge: 'succeeded' },
  pm_card_amex: { brand: 'amex', last4: '8431', charge: 'succeeded' },
  pm_card_processing: { brand: 'mastercard', last4: '4444', charge: 'processing' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', charge: 'insufficient_funds' },
  pm_card_unionpay: { brand: 'unionpay', last4: '0005', charge: 'succeeded' },
  pm_card_setup: { brand: 'visa', last4: '1881', charge: 'succeeded' },
};
/** Payment methods already attached to a customer (as a SetupIntent confirmed by Stripe.js leaves them). */
const owners = new Map<string, string>();
/** The SetupIntents made, by id: their customer. */
const setupIntents = new Map<string, string>();

function fakeStripe() {
  const seen: Seen[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  let ids = 0;
  const id = (prefix: string) => `${prefix}_${++ids}`;
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = new URLSearchParams(raw);
      const path = (request.url ?? '').split('?')[0]!;
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      seen.push({ method: request.method ?? '', path, body, idempotencyKey });
      const send = (status: number, payload: unknown) => {
        if (idempotencyKey) replies.set(`${path}:${idempotencyKey}`, { status, body: payload });
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        response.end(JSON.stringify(payload));
      };
      if (request.headers.authorization !== 'Bearer sk_test_local') return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const earlier = idempotencyKey && replies.get(`${path}:${idempotencyKey}`);
      if (earlier) {
        response.writeHead(earlier.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return response.end(JSON.stringify(earlier.body));
      }
      let match: RegExpMatchArray | null;
      const method = (id: string, customer: string | null) => ({
        id,
        object: 'payment_method',
        type: 'card',
        customer,
        card: { brand: cards[id]!.brand, last4: cards[id]!.last4, exp_month: 12, exp_year: 2034 },
      });
      if (request.method === 'GET' && (match = path.match(/^\/v1\/payment_methods\/([\w]+)$/))) {
        if (!cards[match[1]!]) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${match[1]}'` } });
        return send(200, method(match[1]!, owners.get(match[1]!) ?? null));
      }
      if (request.method === 'POST' && path === '/v1/setup_intents') {
        const intent = id('seti');
        setupIntents.set(intent, body.get('customer') ?? '');
        return send(200, { id: intent, object: 'setup_intent', customer: body.get('customer'), usage: body.get('usage'), status: 'requires_payment_method', client_secret: `${intent}_secret_${ids}` });
      }
      if (request.method === 'POST' && path === '/v1/refunds') {
        const intent = body.get('payment_intent');
        if (!intent?.startsWith('pi_')) return send(400, { error: { type: 'invalid_request_error', message: 'No such payment_intent' } });
        return send(200, { id: id('re'), object: 'refund', payment_intent: intent, status: 'succeeded' });
      }
      if (request.method === 'POST' && path === '/v1/customers') return send(200, { id: id('cus'), object: 'customer', email: body.get('email') });
      if (request.method === 'POST' && (match = path.match(/^\/v1\/payment_methods\/([\w]+)\/(attach|detach)$/))) {
        const card = cards[match[1]!];
        if (!card) return send(400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${match[1]}'` } });
        if (match[2] === 'attach' && owners.has(match[1]!)) {
          return send(400, { error: { type: 'invalid_request_error', message: 'The payment method you provided has already been attached to a customer.' } });
        }
        return send(200, method(match[1]!, match[2] === 'attach' ? body.get('customer') : null));
      }
      if (request.method === 'POST' && path === '/v1/payment_intents') {
        const card = cards[body.get('payment_method') ?? ''];
        const intent = { id: id('pi'), object: 'payment_intent', amount: Number(body.get('amount')), currency: body.get('currency'), customer: body.get('customer'), status: 'succeeded' };
        if (!card) return send(400, { error: { type: 'invalid_request_error', message: 'No such PaymentMethod' } });
        if (card.charge === 'insufficient_funds' || card.charge === 'card_declined') {
          return send(402, {
            error: { type: 'card_error', code: 'card_declined', decline_code: card.charge === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline', message: 'Your card was declined.', payment_intent: { ...intent, status: 'requires_payment_method' } },
          });
        }
        return send(200, { ...intent, status: card.charge });
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } });
    });
  });
  return { server, seen };
}

let stripeServer: Server;
let seen: Seen[];
let apiUrl: string;

beforeAll(async () => {
  const fake = fakeStripe();
  stripeServer = fake.server;
  seen = fake.seen;
  await new Promise<void>((resolve) => stripeServer.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(stripeServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => stripeServer.close(() => resolve())));

describe('the Stripe adapter', () => {
  const clock = manualClock();
  const adapter = () => createStripeProcessor({ secretKey: 'sk_test_local', publishableKey: 'pk_test_local', webhookSecret: 'whsec_local', apiUrl }, clock);

  it('makes the customer once, attaches the payment method, and refuses brands the portal does not accept', async () => {
    const stripe = adapter();
    const saved = await stripe.saveCard({ userId: 'u1', email: 'a@example.com', token: 'pm_card_amex', customerRef: null });
    expect(saved).toEqual({ ok: true, ref: 'pm_card_amex', customerRef: expect.stringMatching(/^cus_/), card: { brand: 'american-express', last4: '8431', expMonth: 12, expYear: 2034 } });
    const attach = seen.find((request) => request.path === '/v1/payment_methods/pm_card_amex/attach')!;
    expect(attach.body.get('customer')).toBe(saved.ok && saved.customerRef);
    expect(seen.find((request) => request.path === '/v1/customers')!.idempotencyKey).toBe('customer-u1');

    expect(await stripe.saveCard({ userId: 'u1', email: 'a@example.com', token: 'pm_card_unionpay', customerRef: 'cus_x' })).toEqual({ ok: false, code: 'card_declined' });
    expect(seen.some((request) => request.path === '/v1/payment_methods/pm_card_unionpay/detach')).toBe(true);
    expect(await stripe.saveCard({ userId: 'u1', email: 'a@example.com', token: 'pm_nope', customerRef: 'cus_x' })).toEqual({ ok: false, code: 'token_invalid' });
  });

  it('confirms payment intents off-session with the idempotency key (a retry is the same charge) and reads declines', async () => {
    const stripe = adapter();
    const request = { customerRef: 'cus_1', cardRef: 'pm_card_visa', amount: 49_000, currency: 'VND' as const, idempotencyKey: 'order-abc', description: 'Premium' };
    const first = await stripe.charge(request);
    const again = await stripe.charge(request);
    expect(first).toEqual({ status: 'succeeded', ref: expect.stringMatching(/^pi_/) });
    expect(again).toEqual(first);
    const intents = seen.filter((seenRequest) => seenRequest.path === '/v1/payment_intents');
    expect(intents.at(-1)!.idempotencyKey).toBe('order-abc');
    expect(Object.fromEntries(intents.at(-1)!.body)).toMatchObject({ amount: '49000', currency: 'vnd', customer: 'cus_1', payment_method: 'pm_card_visa', off_session: 'true', confirm: 'true' });

    const declined = await stripe.charge({ ...request, cardRef: 'pm_card_chargeDeclinedInsufficientFunds', idempotencyKey: 'order-poor' });
    expect(declined).toEqual({ status: 'declined', ref: expect.stringMatching(/^pi_/), code: 'insufficient_funds' });
    expect(await stripe.charge({ ...request, cardRef: 'pm_card_processing', idempotencyKey: 'order-slow' })).toMatchObject({ status: 'pending' });

    const down = createStripeProcessor({ secretKey: 'sk_test_local', publishableKey: null, webhookSecret: null, apiUrl: 'http://127.0.0.1:9' }, clock);
    await expect(down.charge(request)).rejects.toMatchObject({ code: 'billing.processor_unavailable' });
  });

  it('refunds a payment intent in full with an idempotency key (a retry is the same refund)', async () => {
    const stripe = adapter();
    const first = await stripe.refund({ chargeRef: 'pi_77', idempotencyKey: 'refund-order-77' });
    expect(await stripe.refund({ chargeRef: 'pi_77', idempotencyKey: 'refund-order-77' })).toEqual(first);
    expect(first.ref).toMatch(/^re_/);
    const refunds = seen.filter((request) => request.path === '/v1/refunds');
    expect(refunds.map((request) => [request.idempotencyKey, request.body.get('payment_intent')])).toEqual([
      ['refund-order-77', 'pi_77'],
      ['refund-order-77', 'pi_77'],
    ]);
  });
});

describe('billing with Stripe as the processor', () => {
  const clock = manualClock();
  let server: TestServer;
  let session: string;
  const secret = 'whsec_local_test_secret';
  const webhook = (payload: string, signature: string) =>
    server.app.inject({ method: 'POST', url: '/v3/billing/stripe/webhook', payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
  const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? secret, timestamp: options.timestamp ?? Math.floor(clock.now().getTime() / 1000) });
  const event = (id: string, type: string, object: Record<string, unknown>) => JSON.stringify({ id, object: 'event', type, created: Math.floor(clock.now().getTime() / 1000), data: { object } });
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${session}` } });

  beforeAll(async () => {
    server = await startTestServer({
      clock,
      env: { PAYMENTS_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_PUBLISHABLE_KEY: 'pk_test_local', STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_URL: apiUrl, BILLING_JOB_INTERVAL_SECONDS: '0' },
    });
    session = await identityClient(server.app, server.database).registeredUser('stripe@example.com');
  });
  afterAll(() => server.close());

  it('says which processor the pages use; the sandbox tokenizer is off', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/v3/billing/config' })).json()).toEqual({ processor: 'stripe', publishable_key: 'pk_test_local' });
    expect((await server.app.inject({ method: 'POST', url: '/v3/billing/sandbox/tokens', payload: { number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: '123' } })).statusCode).toBe(404);
  });

  it('pays through payment intents, settles a processing payment by its signed webhook, and refuses forged or replayed events', async () => {
    const card = await call('POST', '/v3/sso/me/cards', { token: 'pm_card_processing', cardholder: 'S Tripe', city: 'Hanoi', state: 'HN', zip: '100000' });
    expect(card.json()).toMatchObject({ brand: 'mastercard', last4: '4444', is_default: true });
    const started = await call('POST', '/v3/sso/me/subscriptions', { plan: 'secret.pro', months: 1, currency: 'USD', idempotency_key: 'stripe-sub-1' });
    expect(started.statusCode).toBe(201);
    const order = started.json().order;
    expect(order.status).toBe('pending');
    const intent = seen.filter((request) => request.path === '/v1/payment_intents').at(-1)!;
    expect(intent.idempotencyKey).toMatch(/^order-subscribe:/);
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    const ref = row!.processorRef!;
    expect(ref).toMatch(/^pi_/);

    const succeeded = event('evt_1', 'payment_intent.succeeded', { id: ref, object: 'payment_intent', status: 'succeeded' });
    const forged = await webhook(succeeded, sign(succeeded, { secret: 'whsec_forged' }));
    expect(forged.statusCode).toBe(400);
    expect((await webhook(succeeded, 'garbage')).json().code).toBe('billing.webhook_invalid');
    const stale = Math.floor(clock.now().getTime() / 1000) - 301;
    expect((await webhook(succeeded, sign(succeeded, { timestamp: stale }))).statusCode).toBe(400);
    expect((await call('GET', '/v3/sso/me/orders')).json()[0].status).toBe('pending');

    const accepted = await webhook(succeeded, sign(succeeded));
    expect(accepted.json()).toEqual({ received: true });
    expect((await call('GET', '/v3/sso/me/orders')).json()[0]).toMatchObject({ id: order.id, status: 'paid', has_invoice: true });
    // The same event again (a replay within the tolerance) changes nothing.
    expect((await webhook(succeeded, sign(succeeded))).json()).toEqual({ received: false });

    const detached = event('evt_2', 'payment_method.detached', { id: 'pm_card_processing', object: 'payment_method' });
    expect((await webhook(detached, sign(detached))).json()).toEqual({ received: true });
    expect((await call('GET', '/v3/sso/me/cards')).json()).toEqual([]);
    expect((await call('GET', '/v3/sso/me/subscriptions')).json()[0].status).toBe('canceled');
  });

  it("makes a SetupIntent for the Payment Element and saves the card it confirmed, with its billing address", async () => {
    const setup = await call('POST', '/v3/sso/me/cards/setup');
    expect(setup.statusCode).toBe(201);
    const secret = setup.json().client_secret as string;
    expect(secret).toMatch(/^seti_\d+_secret_/);
    const made = seen.filter((request) => request.path === '/v1/setup_intents').at(-1)!;
    expect(Object.fromEntries(made.body)).toMatchObject({ usage: 'off_session', 'allowed_payment_method_types[0]': 'card' });
    const customer = made.body.get('customer')!;
    expect(customer).toMatch(/^cus_/);
    // The customer is made once: a second SetupIntent is for the same one.
    await call('POST', '/v3/sso/me/cards/setup');
    expect(seen.filter((request) => request.path === '/v1/setup_intents').at(-1)!.body.get('customer')).toBe(customer);

    // Stripe.js confirms the SetupIntent in the page: the payment method is then the customer's.
    owners.set('pm_card_setup', customer);
    const attaches = seen.filter((request) => request.path.endsWith('/attach')).length;
    const saved = await call('POST', '/v3/sso/me/cards', { token: 'pm_card_setup', cardholder: 'Payment Element', city: 'Da Nang', state: 'DN', zip: '550000' });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ brand: 'visa', last4: '1881', cardholder: 'Payment Element', city: 'Da Nang', state: 'DN', zip: '550000' });
    expect(seen.filter((request) => request.path.endsWith('/attach')).length).toBe(attaches);
    // Someone else's payment method is not taken over.
    owners.set('pm_card_amex', 'cus_someone_else');
    expect((await call('POST', '/v3/sso/me/cards', { token: 'pm_card_amex', cardholder: 'Someone Else', city: 'Hue', state: 'TTH', zip: '530000' })).json().details.fields.token.code).toBe('billing.card_token_invalid');
    owners.delete('pm_card_amex');
    await call('DELETE', `/v3/sso/me/cards/${saved.json().id}`);
  });

  it('records a refund made at Stripe once (signed charge.refunded), with the reverse entry on the ledger', async () => {
    const card = await call('POST', '/v3/sso/me/cards', { token: 'pm_card_visa', cardholder: 'S Tripe', city: 'Hanoi', state: 'HN', zip: '100000' });
    const started = await call('POST', '/v3/sso/me/subscriptions', { plan: 'vulnscan.standard', months: 1, currency: 'USD', idempotency_key: 'stripe-sub-refund' });
    expect(started.json().order.status).toBe('paid');
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, started.json().order.id));
    const refunded = event('evt_refund_1', 'charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: row!.processorRef, refunded: true, refunds: { data: [{ id: 're_dash_1' }] } });
    expect((await webhook(refunded, sign(refunded))).json()).toEqual({ received: true });
    const again = event('evt_refund_2', 'charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: row!.processorRef, refunded: true, refunds: { data: [{ id: 're_dash_1' }] } });
    expect((await webhook(again, sign(again))).json()).toEqual({ received: true });
    const [after] = await server.database.db.select().from(orders).where(eq(orders.id, row!.id));
    expect(after).toMatchObject({ refundRef: 're_dash_1' });
    expect(after!.refundedAt).not.toBeNull();
    const entries = await server.database.db.select().from(walletEntries).where(like(walletEntries.idempotencyKey, `billing:%:${row!.id}`));
    expect(entries.map((entry) => entry.kind).sort()).toEqual(['billing_charge', 'billing_refund']);
    await call('DELETE', `/v3/sso/me/cards/${card.json().id}`);
  });

  it('answers a Stripe decline with the card messages', async () => {
    await call('POST', '/v3/sso/me/cards', { token: 'pm_card_chargeDeclinedInsufficientFunds', cardholder: 'S Tripe', city: 'Hanoi', state: 'HN', zip: '100000' });
    const refused = await call('POST', '/v3/sso/me/subscriptions', { plan: 'endpoint.standard', months: 1, currency: 'USD', idempotency_key: 'stripe-sub-2' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('billing.insufficient_funds');
  });
});
