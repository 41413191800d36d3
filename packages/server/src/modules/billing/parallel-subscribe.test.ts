import { and, count, eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { personWithCard } from '../../../test/billing';
import { manualClock } from '../../../test/clock';
import { fileServerWithClient } from '../../../test/server-with-client';
import { orders, sandboxCharges, subscriptions } from '../../db/schema';

const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
const { server, client } = fileServerWithClient({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0' } });

const subscribe = (session: string, plan: string, key: string) =>
  server.app.inject({ method: 'POST', url: '/v3/sso/me/subscriptions', headers: { authorization: `Bearer ${session}` }, payload: { plan, months: 1, currency: 'USD', idempotency_key: key } });
const chargesOf = async (userId: string) => {
  const rows = await server.database.db.select({ key: orders.idempotencyKey }).from(orders).where(eq(orders.userId, userId));
  const [row] = await server.database.db.select({ n: count() }).from(sandboxCharges);
  return { orders: rows.length, charges: row!.n };
};
const liveSubscriptions = (userId: string) =>
  server.database.db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, 'canceled')));

const change = (session: string, id: string, key: string) =>
  server.app.inject({ method: 'POST', url: `/v3/sso/me/subscriptions/${id}/change`, headers: { authorization: `Bearer ${session}` }, payload: { plan: 'vulnscan.standard', months: 12, idempotency_key: key } });

describe('two subscribe requests at once with different idempotency keys', () => {
  it('end in one subscription and one charge', async () => {
    const { id, session } = await personWithCard(server, client, 'twice@example.com');
    const before = await chargesOf(id);
    const answers = await Promise.all(['race-key-a1', 'race-key-b2', 'race-key-c3'].map((key) => subscribe(session, 'vulnscan.standard', key)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) expect(['billing.already_subscribed', 'billing.idempotency_conflict']).toContain(refused.json().code);
    expect(await liveSubscriptions(id)).toHaveLength(1);
    const after = await chargesOf(id);
    expect(after.charges - before.charges).toBe(1);
    expect(after.orders - before.orders).toBe(1);
    // The person can still retry later: the next start is refused only because one is live.
    expect((await subscribe(session, 'vulnscan.standard', 'race-key-d4')).json().code).toBe('billing.already_subscribed');
  });

  it('end in one trial and no charge where the plan has a trial', async () => {
    const { id, session } = await personWithCard(server, client, 'trial-twice@example.com');
    const before = await chargesOf(id);
    const answers = await Promise.all(['trial-key-a1', 'trial-key-b2', 'trial-key-c3'].map((key) => subscribe(session, 'pwdmanager.premium', key)));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    const live = await liveSubscriptions(id);
    expect(live).toHaveLength(1);
    expect(live[0]!.status).toBe('trialing');
    expect(await chargesOf(id)).toEqual(before);
  });

  it('two changes of one subscription at once with different keys charge once', async () => {
    const { id, session } = await personWithCard(server, client, 'change-twice@example.com');
    const started = await subscribe(session, 'vulnscan.standard', 'change-start-1');
    expect(started.statusCode).toBe(201);
    const before = await chargesOf(id);
    const answers = await Promise.all(['change-key-a1', 'change-key-b2'].map((key) => change(session, started.json().subscription.id, key)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await chargesOf(id)).charges - before.charges).toBe(1);
  });
});
