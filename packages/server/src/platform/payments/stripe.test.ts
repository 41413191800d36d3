import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { orders } from '../../db/schema';
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
};

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
      if (request.method === 'POST' && path === '/v1/customers') return send(200, { id: id('cus'), object: 'customer', email: body.get('email') });
      if (request.method === 'POST' && (match = path.match(/^\/v1\/payment_methods\/([\w]+)\/(attach|detach)$/))) {
        const card = cards[match[1]!];
        if (!card) return send(400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${match[1]}'` } });
        return send(200, {
          id: match[1],
          object: 'payment_method',
          type: 'card',
          customer: match[2] === 'attach' ? body.get('customer') : null,
          card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034 },
        });
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

  it('answers a Stripe decline with the card messages', async () => {
    await call('POST', '/v3/sso/me/cards', { token: 'pm_card_chargeDeclinedInsufficientFunds', cardholder: 'S Tripe', city: 'Hanoi', state: 'HN', zip: '100000' });
    const refused = await call('POST', '/v3/sso/me/subscriptions', { plan: 'endpoint.standard', months: 1, currency: 'USD', idempotency_key: 'stripe-sub-2' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('billing.insufficient_funds');
  });
});
