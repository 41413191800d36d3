import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingNode, personWithCard, TEST_LICENSE_SECRET } from '../../../test/billing';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { paymentMethods, subscriptions } from '../../db/schema';
import { createOrganizationService } from '../organizations';
import { SANDBOX_TEST_CARDS } from '../../platform/payments';

const DAY = 24 * 60 * 60 * 1000;
const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let keySeq = 0;
const key = () => `remove-card-${++keySeq}`;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0', APPSUMO_LICENSE_SECRET: TEST_LICENSE_SECRET } });
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

const db = () => server.database.db;
const call = (token: string | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
async function addCard(session: string, number: string) {
  const token = (await server.app.inject({ method: 'POST', url: '/v3/billing/sandbox/tokens', payload: { number, exp_month: 12, exp_year: 2030, cvc: '123' } })).json().token as string;
  return (await call(session, 'POST', '/v3/sso/me/cards', { token, cardholder: 'Test Person', city: 'Hanoi', state: 'HN', zip: '100000' })).json() as { id: string };
}
async function subscribe(session: string, plan: string, cardId?: string): Promise<string> {
  const started = await call(session, 'POST', '/v3/sso/me/subscriptions', { plan, months: 1, currency: 'USD', idempotency_key: key(), ...(cardId ? { card_id: cardId } : {}) });
  expect(started.statusCode).toBe(201);
  return started.json().subscription.id as string;
}
/** Every subscription row of the people, as (id, status) pairs: what must not change, whole. */
const statesOf = async (userIds: string[]) =>
  (await db().select({ id: subscriptions.id, status: subscriptions.status, cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd, canceledAt: subscriptions.canceledAt }).from(subscriptions).where(inArray(subscriptions.userId, userIds))).sort((a, b) => a.id.localeCompare(b.id));
const cardsOf = async (userId: string) => db().select({ id: paymentMethods.id, removedAt: paymentMethods.removedAt, isDefault: paymentMethods.isDefault }).from(paymentMethods).where(eq(paymentMethods.userId, userId));

describe('removing a card (spec: it cancels all subscriptions)', () => {
  it("cancels every live subscription of the person, whichever card pays it, and nobody else's; another person's card id is refused and changes nothing", async () => {
    // Another person, owner of an organization whose subscription is theirs, with their own card and plan.
    const other = await personWithCard(server, client, 'card-owner-b@example.com');
    const [otherCard] = await cardsOf(other.id);
    const otherPlan = await subscribe(other.session, 'endpoint.standard');
    const organization = await createOrganizationService({ db: db(), clock }).create({ name: 'OtherCorp', adminEmail: 'card-owner-b@example.com', adminUserId: other.id });
    const orgSubscription = randomUUID();
    await db().insert(subscriptions).values({
      id: orgSubscription,
      userId: other.id,
      organizationId: organization!.id,
      product: 'pwdmanager',
      plan: 'pwdmanager.business',
      months: 1,
      seats: 5,
      currency: 'USD',
      price: 1000,
      status: 'active',
      currentPeriodStart: clock.now(),
      currentPeriodEnd: new Date(clock.now().getTime() + 30 * DAY),
      nextAttemptAt: new Date(clock.now().getTime() + 30 * DAY),
      paymentMethodId: otherCard!.id,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });

    // The person: two cards, a plan on each, a trial, and a plan ended already.
    const me = await personWithCard(server, client, 'card-owner-a@example.com');
    const [firstCard] = await cardsOf(me.id);
    clock.advance(1000);
    const secondCard = await addCard(me.session, SANDBOX_TEST_CARDS.success);
    const onDefault = await subscribe(me.session, 'endpoint.standard');
    const onSecond = await subscribe(me.session, 'bugbounty.standard', secondCard.id);
    const trial = await subscribe(me.session, 'pwdmanager.premium', secondCard.id);
    const ended = await subscribe(me.session, 'vulnscan.standard');
    await db().update(subscriptions).set({ status: 'canceled', canceledAt: clock.now() }).where(eq(subscriptions.id, ended));

    const everyone = [me.id, other.id];
    const before = await statesOf(everyone);

    // Anonymous, and the other person's card id: refused, and nothing of anyone changes.
    expect((await call(null, 'DELETE', `/v3/sso/me/cards/${otherCard!.id}`)).statusCode).toBe(401);
    const foreign = await call(me.session, 'DELETE', `/v3/sso/me/cards/${otherCard!.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('billing.card_not_found');
    expect(await statesOf(everyone)).toEqual(before);
    expect(await cardsOf(other.id)).toEqual([{ id: otherCard!.id, removedAt: null, isDefault: true }]);

    // Removing the second card (not the default) ends the plans on both cards and the trial, at once.
    const removed = await call(me.session, 'DELETE', `/v3/sso/me/cards/${secondCard.id}`);
    expect(removed.statusCode).toBe(200);
    const answer = removed.json() as { canceled_subscriptions: { id: string; plan: string; plan_name: string; status: string }[]; default_card_id: string | null };
    expect(answer.default_card_id).toBe(firstCard!.id);
    expect(answer.canceled_subscriptions.map((row) => row.id).sort()).toEqual([onDefault, onSecond, trial].sort());
    for (const row of answer.canceled_subscriptions) expect(row).toMatchObject({ status: 'canceled', plan_name: expect.any(String) });
    expect(answer.canceled_subscriptions.find((row) => row.id === trial)).toMatchObject({ plan: 'pwdmanager.premium', plan_name: 'Premium' });

    const after = new Map((await statesOf(everyone)).map((row) => [row.id, row]));
    for (const id of [onDefault, onSecond, trial]) expect(after.get(id)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false, canceledAt: clock.now() });
    // What was ended before stays as it was.
    expect(after.get(ended)).toEqual(before.find((row) => row.id === ended));
    // The other person's plan and their organization's subscription are untouched.
    expect(after.get(otherPlan)).toEqual(before.find((row) => row.id === otherPlan));
    expect(after.get(orgSubscription)).toEqual(before.find((row) => row.id === orgSubscription));
    expect(await cardsOf(other.id)).toEqual([{ id: otherCard!.id, removedAt: null, isDefault: true }]);

    // The card the person kept is still theirs and the default; a second removal of the same card is refused.
    expect((await cardsOf(me.id)).find((card) => card.id === firstCard!.id)).toMatchObject({ removedAt: null, isDefault: true });
    expect((await call(me.session, 'DELETE', `/v3/sso/me/cards/${secondCard.id}`)).json().code).toBe('billing.card_not_found');
    await client.mailTo('card-owner-a@example.com', /Your Bug Bounty subscription has ended/);
  });

  it('removing the only card ends the plans it paid and leaves no default; an AppSumo lifetime grant, paid by no card, stays', async () => {
    const me = await personWithCard(server, client, 'only-card@example.com');
    const [card] = await cardsOf(me.id);
    const plan = await subscribe(me.session, 'safechain.standard');
    const license = billingNode(server, clock).issueLicense('pwdmanager.lifetime', new Date(clock.now().getTime() + 30 * DAY));
    const redeemed = await call(me.session, 'POST', '/v3/sso/me/licenses/redeem', { token: license });
    expect(redeemed.statusCode).toBe(200);
    const lifetime = redeemed.json().subscription.id as string;
    const before = await statesOf([me.id]);

    const removed = (await call(me.session, 'DELETE', `/v3/sso/me/cards/${card!.id}`)).json() as { canceled_subscriptions: { id: string }[]; default_card_id: string | null };
    expect(removed.default_card_id).toBeNull();
    expect(removed.canceled_subscriptions.map((row) => row.id)).toEqual([plan]);
    const after = new Map((await statesOf([me.id])).map((row) => [row.id, row]));
    expect(after.get(plan)?.status).toBe('canceled');
    expect(after.get(lifetime)).toEqual(before.find((row) => row.id === lifetime));
    expect((await call(me.session, 'GET', '/v3/sso/me/cards')).json()).toEqual([]);
  });
});
