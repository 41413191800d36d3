import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingNode, personWithCard, TEST_LICENSE_SECRET } from '../../../test/billing';
import { manualClock } from '../../../test/clock';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { adminCall, codeOf, operator, type Method } from '../../../test/operators';
import { licenseRedemptions, operatorAuditEvents, orders, promoCodes, walletEntries } from '../../db/schema';
import type { BillingService } from './service';

const clock = manualClock(new Date('2026-05-01T10:00:00Z'));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let billing: BillingService;
const who: Record<string, { session: string; id: string }> = {};
let seq = 0;

const call = (name: string | undefined, method: Method, url: string, payload?: object) => adminCall(server, name ? (who[name]?.session ?? name) : undefined, method, url, payload);

async function paidOrder() {
  const buyer = await personWithCard(server, client, `buyer-${++seq}@example.com`);
  const { order } = await billing.subscribe(buyer.id, { plan: 'vulnscan.standard', months: 1, currency: 'VND', idempotency_key: `admin-refund-${seq}` });
  expect(order?.status).toBe('paid');
  return order!;
}

beforeAll(async () => {
  server = await startTestServer({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0', BILLING_RECEIPT_INTERVAL_SECONDS: '0', APPSUMO_LICENSE_SECRET: TEST_LICENSE_SECRET } });
  client = identityClient(server.app, server.database);
  billing = billingNode(server, clock, { receipts: false });
  who.owner = await operator(server, client, 'owner@example.com', ['owner']);
  who.finance = await operator(server, client, 'finance@example.com', ['finance']);
  who.support = await operator(server, client, 'support@example.com', ['support']);
  who.nobody = await operator(server, client, 'nobody@example.com', []);
  who.financeNo2fa = await operator(server, client, 'finance-no2fa@example.com', ['finance'], false);
}, 60_000);
afterAll(() => server?.close());

describe('refunds from the console: who may', () => {
  it('refuses anonymous callers, non-operators, support, and a finance operator without two-step; nothing is refunded', async () => {
    const order = await paidOrder();
    const url = `/v3/admin/billing/orders/${order.id}/refund`;
    const body = { reason: 'Customer asked within 14 days' };
    expect((await call(undefined, 'POST', url, body)).statusCode).toBe(401);
    for (const [name, code] of [
      ['nobody', 'admin.forbidden'],
      ['support', 'admin.forbidden'],
      ['financeNo2fa', 'admin.two_factor_required'],
    ] as const) {
      const refused = await call(name, 'POST', url, body);
      expect([refused.statusCode, codeOf(refused)], name).toEqual([403, code]);
    }
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.refundedAt).toBeNull();
    // Support may look the order up, not give the money back.
    const looked = await call('support', 'GET', `/v3/admin/billing/orders?q=${order.number}`);
    expect(looked.statusCode).toBe(200);
    expect(looked.json().orders).toEqual([expect.objectContaining({ id: order.id, status: 'paid', refunded_at: null, email: `buyer-${seq}@example.com` })]);
  });

  it('validates ids and reasons: a malformed id is a 400, an unknown one a 404, never a 500', async () => {
    const malformed = await call('finance', 'POST', '/v3/admin/billing/orders/not-an-id/refund', { reason: 'Customer asked' });
    expect(malformed.statusCode).toBe(400);
    const nul = await call('finance', 'POST', '/v3/admin/billing/orders/%00/refund', { reason: 'Customer asked' });
    expect(nul.statusCode).toBe(400);
    const unknown = await call('finance', 'POST', '/v3/admin/billing/orders/00000000-0000-4000-8000-000000000000/refund', { reason: 'Customer asked' });
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'admin.not_found']);
    const order = await paidOrder();
    const noReason = await call('finance', 'POST', `/v3/admin/billing/orders/${order.id}/refund`, {});
    expect(noReason.statusCode).toBe(400);
    expect((await call('finance', 'POST', `/v3/admin/billing/orders/${order.id}/refund`, { reason: 'x' })).statusCode).toBe(400);
  });

  it('two operators refunding one order at once refund it once: one answer 200, the other 409, one reverse entry on the ledger', async () => {
    const order = await paidOrder();
    const url = `/v3/admin/billing/orders/${order.id}/refund`;
    const answers = await Promise.all([call('finance', 'POST', url, { reason: 'Duplicate charge' }), call('owner', 'POST', url, { reason: 'Duplicate charge too' })]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect(codeOf(refused)).toBe('admin.order_already_refunded');
    const done = answers.find((answer) => answer.statusCode === 200)!;
    expect(done.json()).toMatchObject({ id: order.id, refunded_at: expect.any(String) });
    const entries = await server.database.db.select().from(walletEntries).where(like(walletEntries.idempotencyKey, `billing:%:${order.id}`));
    expect(entries.map((entry) => entry.kind).sort()).toEqual(['billing_charge', 'billing_refund']);
    // Asked again later: refused the same way, still one refund.
    const again = await call('owner', 'POST', url, { reason: 'Once more' });
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'admin.order_already_refunded']);
    const audit = await server.database.db.select().from(operatorAuditEvents);
    expect(audit.filter((event) => event.reason === 'Duplicate charge' || event.reason === 'Duplicate charge too')).toHaveLength(1);
  });
});

describe('promo codes and licences from the console', () => {
  it('adds, lists and disables promo codes with the command line’s checks; support cannot add', async () => {
    const body = { code: 'spring25', percent: '25', plans: ['vulnscan.standard'], reason: 'Spring campaign' };
    expect(codeOf(await call('support', 'POST', '/v3/admin/billing/promo-codes', body))).toBe('admin.forbidden');
    const added = await call('finance', 'POST', '/v3/admin/billing/promo-codes', body);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ code: 'SPRING25', discount: '25%', plans: ['vulnscan.standard'], state: 'active' });
    const twice = await call('finance', 'POST', '/v3/admin/billing/promo-codes', body);
    expect([twice.statusCode, codeOf(twice)]).toEqual([409, 'admin.promo_exists']);
    const both = await call('finance', 'POST', '/v3/admin/billing/promo-codes', { code: 'BOTH', percent: '5', amount: '5', currency: 'USD', reason: 'Bad input' });
    expect([both.statusCode, codeOf(both)]).toEqual([400, 'admin.promo_invalid']);
    const badPlan = await call('finance', 'POST', '/v3/admin/billing/promo-codes', { code: 'NOPLAN', percent: '5', plans: ['nothing.here'], reason: 'Bad input' });
    expect([badPlan.statusCode, codeOf(badPlan)]).toEqual([400, 'admin.promo_invalid']);
    expect((await call('support', 'GET', '/v3/admin/billing/promo-codes')).json().promo_codes).toEqual([expect.objectContaining({ code: 'SPRING25' })]);
    const disabled = await call('owner', 'POST', '/v3/admin/billing/promo-codes/spring25/disable', { reason: 'Campaign over' });
    expect([disabled.statusCode, disabled.json().state]).toEqual([200, 'expired']);
    const missing = await call('owner', 'POST', '/v3/admin/billing/promo-codes/NOPE1/disable', { reason: 'Campaign over' });
    expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'admin.not_found']);
    expect(await server.database.db.select().from(promoCodes)).toHaveLength(1);
  });

  it('issues licence codes once, revokes one not redeemed (then it redeems nothing), and refuses to revoke a redeemed one', async () => {
    const batch = await call('finance', 'POST', '/v3/admin/billing/licenses', { plan: 'pwdmanager.lifetime', count: 2, reason: 'AppSumo batch' });
    expect(batch.statusCode).toBe(201);
    const monthly = await call('finance', 'POST', '/v3/admin/billing/licenses', { plan: 'vulnscan.standard', reason: 'Not a lifetime plan' });
    expect([monthly.statusCode, codeOf(monthly)]).toEqual([400, 'admin.promo_invalid']);
    const [first, second] = batch.json().codes as string[];
    const revoked = await call('finance', 'POST', '/v3/admin/billing/licenses/revoke', { code: first, reason: 'Refunded at AppSumo' });
    expect([revoked.statusCode, revoked.json().state]).toEqual([200, 'revoked']);
    const person = await personWithCard(server, client, 'redeemer@example.com');
    await expect(billing.redeemLicense(person.id, first!)).rejects.toMatchObject({ code: 'billing.license_invalid' });
    await billing.redeemLicense(person.id, second!);
    const late = await call('finance', 'POST', '/v3/admin/billing/licenses/revoke', { code: second, reason: 'Too late' });
    expect([late.statusCode, codeOf(late)]).toEqual([409, 'admin.license_redeemed']);
    const forged = await call('finance', 'POST', '/v3/admin/billing/licenses/revoke', { code: 'abcdef0123456789abcdef0123456789abcdef', reason: 'Forged' });
    expect([forged.statusCode, codeOf(forged)]).toEqual([400, 'billing.license_invalid']);
    const listed = (await call('support', 'GET', '/v3/admin/billing/licenses')).json().licenses as Array<{ state: string; email: string | null }>;
    expect(listed.map((row) => row.state).sort()).toEqual(['redeemed', 'revoked']);
    expect(JSON.stringify(listed)).not.toContain(first);
    expect(await server.database.db.select().from(licenseRedemptions)).toHaveLength(2);
  });
});

describe('operator API keys and old sessions', () => {
  it('a key holding admin:billing reads orders; one without it is refused', async () => {
    const make = async (scopes: string[]) => (await call('owner', 'POST', '/v3/admin/api-keys', { name: `Key ${scopes.join()}`, scopes, reason: 'Reports' })).json().key as string;
    const billingKey = await make(['admin:billing']);
    const walletKey = await make(['admin:wallet']);
    expect((await call(billingKey, 'GET', '/v3/admin/billing/orders')).statusCode).toBe(200);
    const refused = await call(walletKey, 'GET', '/v3/admin/billing/orders');
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'admin.scope_missing']);
  });

  it('no key refunds, even a key of an owner holding admin:billing: a key cannot prove who holds it; nothing is refunded', async () => {
    const order = await paidOrder();
    const key = (await call('owner', 'POST', '/v3/admin/api-keys', { name: 'Refunds by script', scopes: ['admin:billing'], reason: 'Automation' })).json().key as string;
    const refused = await call(key, 'POST', `/v3/admin/billing/orders/${order.id}/refund`, { reason: 'Customer asked' });
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'forbidden']);
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.refundedAt).toBeNull();
  });

  it('an old sign-in must prove itself again before a refund', async () => {
    const order = await paidOrder();
    clock.advance((server.config.REAUTH_MAX_AGE_SECONDS + 1) * 1000);
    const stale = await call('finance', 'POST', `/v3/admin/billing/orders/${order.id}/refund`, { reason: 'Customer asked' });
    expect([stale.statusCode, codeOf(stale)]).toEqual([403, 'auth.reauth_required']);
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.refundedAt).toBeNull();
  });
});
