import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DATA_KEY, type TestServer } from '../../../test/harness';
import { webhookDeliveries } from '../../db/schema';
import { systemClock } from '../../platform/clock';
import { createDataProtection, parseDataKey } from '../../platform/data-protection';
import { createDeliveryWorker } from './delivery';

/**
 * Delivery paces itself on a node: a backlog is sent a bounded few at a time, never the whole
 * claimed batch at once, so the requests the node serves meanwhile keep their share of it.
 */
const secrets = createDataProtection(parseDataKey(TEST_DATA_KEY)!);
let server: TestServer;
let receiver: Server;
let url = '';
let inFlight = 0;
let most = 0;
const received: string[] = [];

beforeAll(async () => {
  // A slow receiver: each answer takes 30 ms, so deliveries sent together overlap and are counted.
  receiver = createServer((request, response) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    request.resume();
    request.on('end', () =>
      setTimeout(() => {
        received.push(String(request.headers['webhook-id']));
        inFlight -= 1;
        response.writeHead(200).end();
      }, 30),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  server = await startTestServer({ env: { WEBHOOK_DELIVERY_INTERVAL_MS: '0' } });
  const db = server.database.db;
  await db.execute(sql`insert into oauth_clients (client_id, metadata) values ('paced-app', '{"client_name":"Paced App"}'::jsonb)`);
  await db.execute(sql`insert into webhook_endpoints (client_id, url, events, secret) values ('paced-app', ${url}, array['user.created'], ${secrets.seal(`whsec_${'a'.repeat(43)}=`)})`);
  // 30 people who allowed the app (a grant each), so each one's user.created is queued for it.
  await db.execute(sql`
    insert into oidc_models (model, id, payload, account_id, client_id)
    select 'Grant', 'paced-' || n, '{}'::jsonb, gen_random_uuid()::text, 'paced-app' from generate_series(1, 30) n`);
  await db.execute(sql`
    insert into users (id, email, full_name, activated_at)
    select account_id::uuid, 'paced-' || id || '@example.com', 'Paced ' || id, now() from oidc_models where model = 'Grant' and id like 'paced-%'`);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhook delivery pacing', () => {
  it('sends a backlog at most `concurrency` at a time, claimed in batches, and delivers every event once', async () => {
    const queued = await server.database.db.select({ eventId: webhookDeliveries.eventId }).from(webhookDeliveries);
    expect(queued).toHaveLength(30);
    const worker = createDeliveryWorker({ db: server.database.db, clock: systemClock, secrets, egress: { allowLoopback: true }, batchSize: 10, concurrency: 3 });
    expect(await worker.run()).toBe(30);
    // Bounded, and used: three lanes ran side by side, never a fourth.
    expect(most).toBe(3);
    expect(received.sort()).toEqual(queued.map((row) => row.eventId).sort());
    const pending = await server.database.db.execute<{ count: number }>(sql`select count(*)::int as count from webhook_deliveries where status <> 'delivered'`);
    expect(Number(pending.rows[0]!.count)).toBe(0);
  }, 60_000);
});
