import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type PortalEvent } from '../../../examples/webhook-receiver/receiver';
import { manualClock } from '../test/clock';
import { startTestServer, TEST_DATA_KEY, type TestServer } from '../test/harness';
import { identityClient } from '../test/identity';
import { oauthClients, oidcModels, operatorRoles, users } from './db/schema';
import { createDataProtection, parseDataKey } from './platform/data-protection';
import { createDeliveryWorker } from './modules/webhooks/index';

/**
 * The webhook receiver of docs/integrate.md (examples/webhook-receiver) against the portal's own
 * sender: an operator sets an app's endpoint, a person's change is delivered signed, a failed
 * attempt is retried and handled once, and a redelivery (the same webhook-id) is answered and
 * not handled again.
 */
const clock = manualClock(new Date(Date.now() + 60_000));
const secrets = createDataProtection(parseDataKey(TEST_DATA_KEY)!);
let server: TestServer;
let listener: Server;
let endpointUrl = '';
/** The example receiver, made once the endpoint's secret is known; the listener hands it each request. */
let receiver: Server | undefined;
const handled: string[] = [];
let failures = 0;
const tokens: Record<string, string> = {};

const worker = () => createDeliveryWorker({ db: server.database.db, clock, secrets, egress: { allowLoopback: true } });
const call = (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: { 'user-agent': 'example-receiver-test', authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  listener = createServer((request, response) => (receiver ? receiver.emit('request', request, response) : response.writeHead(503).end()));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  endpointUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/webhooks`;

  server = await startTestServer({ clock, env: { WEBHOOK_DELIVERY_INTERVAL_MS: '0', REAUTH_MAX_AGE_SECONDS: '86400' } });
  const client = identityClient(server.app, server.database);
  for (const name of ['owner', 'person']) {
    tokens[name] = await client.registeredUser(`${name}@example.com`);
    await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, `${name}@example.com`));
  }
  const [owner] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'owner@example.com'));
  await server.database.db.insert(operatorRoles).values({ userId: owner!.id, role: 'owner' });
  await server.database.db.insert(oauthClients).values({ clientId: 'notes-app', metadata: { client_name: 'Notes App' } });
  // The person signed in to Notes (the grant the provider stores): an app hears only of its people.
  const [person] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'person@example.com'));
  const expiresAt = new Date(Date.now() + 365 * 86_400_000);
  await server.database.db.insert(oidcModels).values({ model: 'Grant', id: 'grant-person-notes', payload: { accountId: person!.id, clientId: 'notes-app', kind: 'Grant', openid: { scope: 'openid profile email' } }, accountId: person!.id, clientId: 'notes-app', expiresAt });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('the example webhook receiver against the portal', () => {
  it('verifies the portal signature, handles a retried event once, and drops a redelivery by webhook-id', async () => {
    const saved = await call(tokens.owner!, 'PUT', '/v3/admin/webhooks/notes-app', { url: endpointUrl, events: ['user.updated'], reason: 'Notes wants account events' });
    expect(saved.statusCode).toBe(200);
    receiver = createWebhookReceiver({
      secret: saved.json().secret,
      async onEvent(event: PortalEvent, id) {
        // The product's handler fails once: the portal's retry delivers it again.
        if (failures++ === 0) throw new Error('database away');
        handled.push(`${id} ${event.type} ${String(event.data.name)}`);
      },
    });

    expect((await call(tokens.person!, 'PUT', '/v3/sso/me', { full_name: 'Pat Person', language: 'en' })).statusCode).toBe(200);
    await worker().run();
    expect(handled).toEqual([]);
    clock.advance(6_000);
    await worker().run();
    expect(handled).toHaveLength(1);
    expect(handled[0]).toMatch(/ user\.updated Pat Person$/);

    const [delivery] = (await call(tokens.owner!, 'GET', '/v3/admin/webhooks/notes-app/deliveries?limit=1')).json().items;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    expect(handled[0]!.startsWith(delivery.event_id)).toBe(true);
    expect((await call(tokens.owner!, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${delivery.id}/redeliver`, { reason: 'Notes lost it' })).statusCode).toBe(200);
    await worker().run();
    const [again] = (await call(tokens.owner!, 'GET', '/v3/admin/webhooks/notes-app/deliveries?limit=1')).json().items;
    expect(again).toMatchObject({ status: 'delivered', last_status_code: 200 });
    expect(handled).toHaveLength(1);
  });
});
