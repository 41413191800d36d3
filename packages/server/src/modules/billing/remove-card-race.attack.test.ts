import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personWithCard } from '../../../test/billing';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { paymentMethods, subscriptions } from '../../db/schema';

/**
 * Removing a card cancels all of the person's subscriptions. A start of a subscription with
 * that card, running at the same moment (another tab), must not leave a live subscription
 * behind on the removed card: the renewal would then charge whichever card the person adds
 * next, for a plan they ended by removing the card.
 */
let server: TestServer;
let client: ReturnType<typeof identityClient>;
afterAll(() => server?.close());
beforeAll(async () => {
  // The billing job stays off: only the two requests touch the person's subscriptions.
  server = await startTestServer({ env: { BILLING_JOB_INTERVAL_SECONDS: '0' } });
  client = identityClient(server.app, server.database);
});

const db = () => server.database.db;
const call = (token: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const tick = (turns: number) => (turns === 0 ? Promise.resolve() : new Promise<void>((resolve) => setImmediate(() => void tick(turns - 1).then(resolve))));

describe('a card removed while a subscription starts with it', () => {
  it('leaves no live subscription paid by the removed card, whichever request runs first', async () => {
    // The removal lands at several points of the start (before the charge, during it, after it).
    for (const delay of [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32]) {
      const person = await personWithCard(server, client, `race-${delay}@example.com`);
      const [card] = await db().select().from(paymentMethods).where(eq(paymentMethods.userId, person.id));
      const start = call(person.session, 'POST', '/v3/sso/me/subscriptions', { plan: 'endpoint.standard', months: 1, currency: 'USD', idempotency_key: `race-key-${delay}`, card_id: card!.id });
      await tick(delay);
      const removal = await call(person.session, 'DELETE', `/v3/sso/me/cards/${card!.id}`);
      expect(removal.statusCode).toBe(200);
      const started = await start;
      expect([201, 404, 402]).toContain(started.statusCode);

      const live = await db()
        .select({ id: subscriptions.id, status: subscriptions.status })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, person.id), ne(subscriptions.status, 'canceled')));
      expect({ delay, live }).toEqual({ delay, live: [] });
    }
  }, 120_000);
});
