import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { eq, inArray, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { manualClock } from '../../../test/clock';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { codeOf } from '../../../test/operators';
import { deliveryWorker, webhookPeople, webhookSecrets as secrets } from '../../../test/webhooks';
import { oauthClients, oidcModels, operatorRoles, organizationMembers, organizations, users, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { runDeletionPurge } from '../account';
import { sweepExpired } from '../oauth';
import { createDeliveryWorker } from './delivery';

const clock = manualClock(new Date(Date.now() + 60_000));
let server: TestServer;
/** A second node on the same database with the production egress rule. */
let production: TestServer;
let client: ReturnType<typeof identityClient>;
const { tokens, ids, person, grant } = webhookPeople(() => ({ server, client }));
const worker = () => deliveryWorker(server, clock);

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
const call = (token: string | undefined, method: Method, url: string, payload?: object, node: TestServer = server) =>
  node.app.inject({ method, url, headers: { 'user-agent': 'webhooks-test', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });

/** A product's receiver: answers `plan` in turn (then 200), keeps every request, and what it accepted once by id. */
interface Received {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}
const receiver = {
  server: undefined as Server | undefined,
  url: '',
  plan: [] as number[],
  requests: [] as Received[],
  accepted: new Map<string, { type: string; data: Record<string, unknown> }>(),
  /** The order events were accepted in (duplicates dropped by webhook-id). */
  order: [] as string[],
  reset() {
    this.plan = [];
    this.requests = [];
    this.accepted.clear();
    this.order = [];
  },
};

/** A person who allowed the Notes app for one test: their grant, memberships and events go with it. */
async function personOfThisTest(name: string) {
  await person(name);
  await grant(name, 'notes-app');
  onTestFinished(async () => {
    await server.database.db.delete(oidcModels).where(eq(oidcModels.accountId, ids[name]!));
    await server.database.db.delete(organizationMembers).where(eq(organizationMembers.userId, ids[name]!));
    await server.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.subject, ids[name]!));
  });
}

let signingSecret = '';

beforeAll(async () => {
  receiver.server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = receiver.plan.shift() ?? 200;
      const id = String(request.headers['webhook-id']);
      receiver.requests.push({ id, headers: request.headers, body, status });
      if (status === 200 && !receiver.accepted.has(id)) {
        // What a receiver does: verify the signature, then drop an id it has already seen.
        const event = new Webhook(signingSecret).verify(body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
        receiver.accepted.set(id, event);
        receiver.order.push(`${event.type}:${String(event.data.name ?? event.data.id ?? '')}`);
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
  const address = receiver.server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;

  // The retries move the clock by minutes: the operators' proof of identity lasts the whole file.
  const env = { WEBHOOK_DELIVERY_INTERVAL_MS: '0', DELETION_JOB_INTERVAL_SECONDS: '0', REAUTH_MAX_AGE_SECONDS: '86400' };
  server = await startTestServer({ clock, env });
  production = await startTestServer({ clock, database: server.database, env: { ...env, EGRESS_ALLOW_LOOPBACK: 'false' } });
  client = identityClient(server.app, server.database);
  for (const name of ['owner', 'support', 'nobody', 'member']) await person(name);
  await server.database.db.insert(operatorRoles).values([
    { userId: ids.owner!, role: 'owner' },
    { userId: ids.support!, role: 'support' },
  ]);
  await server.database.db.insert(oauthClients).values([
    { clientId: 'notes-app', metadata: { client_name: 'Notes App' } },
    { clientId: 'other-app', metadata: { client_name: 'Other App' } },
  ]);
  // The people of the delivery tests signed in to the Notes app; `stranger` never did (only to
  // the other app), `fan` does later.
  for (const name of ['owner', 'support', 'nobody', 'member']) await grant(name, 'notes-app');
  for (const name of ['stranger', 'fan']) await person(name);
  await grant('stranger', 'other-app');
}, 60_000);
afterAll(async () => {
  await production?.close();
  await server?.close();
  await new Promise((resolve) => receiver.server?.close(resolve));
});
beforeEach(() => receiver.reset());

const ALL_EVENTS = ['user.created', 'user.updated', 'user.email_changed', 'user.deleted', 'organization.member_added', 'organization.member_removed'];
const setEndpoint = (token: string | undefined, clientId: string, body: object, node?: TestServer) => call(token, 'PUT', `/v3/admin/webhooks/${clientId}`, body, node);
const rename = (name: string, fullName: string) => call(tokens[name], 'PUT', '/v3/sso/me', { full_name: fullName, language: 'en' });
const deliveriesOf = (clientId: string) => server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.clientId, clientId)).orderBy(webhookDeliveries.id);

describe('webhooks: who may set an endpoint', () => {
  it('refuses anonymous callers, people who are not operators, and support for changes', async () => {
    const body = { url: receiver.url, events: ALL_EVENTS, reason: 'Notes wants account events' };
    expect((await setEndpoint(undefined, 'notes-app', body)).statusCode).toBe(401);
    for (const name of ['nobody', 'support']) {
      const refused = await setEndpoint(tokens[name], 'notes-app', body);
      expect([refused.statusCode, codeOf(refused)], name).toEqual([403, 'admin.forbidden']);
      const rotate = await call(tokens[name], 'POST', '/v3/admin/webhooks/notes-app/secret', { reason: 'Leaked, rotate' });
      expect([rotate.statusCode, codeOf(rotate)], name).toEqual([403, 'admin.forbidden']);
    }
    const read = await call(tokens.nobody, 'GET', '/v3/admin/webhooks');
    expect([read.statusCode, codeOf(read)]).toEqual([403, 'admin.forbidden']);
    // Support reads the list and the log (to answer a product team), and sees no endpoint was set.
    const list = await call(tokens.support, 'GET', '/v3/admin/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([
      { client_id: 'notes-app', client_name: 'Notes App', endpoint: null, pending: 0, failed: 0 },
      { client_id: 'other-app', client_name: 'Other App', endpoint: null, pending: 0, failed: 0 },
    ]);
  });

  it('refuses an endpoint on a private, loopback or metadata address under the production rule, and an unknown app', async () => {
    for (const url of ['http://10.0.0.5/hooks', 'https://10.0.0.5/hooks', 'https://169.254.169.254/latest', 'https://127.0.0.1/hooks', 'https://[::1]/hooks', receiver.url]) {
      const refused = await setEndpoint(tokens.owner, 'notes-app', { url, events: ['user.created'], reason: 'Notes wants account events' }, production);
      expect([refused.statusCode, codeOf(refused)], url).toEqual([400, 'validation_error']);
      expect(refused.json().details.fields.url.code, url).toBe('egress.url_refused');
    }
    const unknown = await setEndpoint(tokens.owner, 'no-such-app', { url: receiver.url, events: ['user.created'], reason: 'Notes wants account events' });
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'admin.not_found']);
    const noReason = await setEndpoint(tokens.owner, 'notes-app', { url: receiver.url, events: ['user.created'] });
    expect([noReason.statusCode, codeOf(noReason)]).toEqual([400, 'admin.reason_required']);
    const badEvent = await setEndpoint(tokens.owner, 'notes-app', { url: receiver.url, events: ['user.password'], reason: 'Notes wants account events' });
    expect(badEvent.statusCode).toBe(400);
    expect((await call(tokens.owner, 'GET', '/v3/admin/webhooks/notes-app')).json().endpoint).toBeNull();
  });

  it('an owner sets the endpoint: the signing secret is shown once, never read back', async () => {
    const saved = await setEndpoint(tokens.owner, 'notes-app', { url: receiver.url, events: ALL_EVENTS, reason: 'Notes wants account events' });
    expect(saved.statusCode).toBe(200);
    expect(saved.headers['cache-control']).toContain('no-store');
    signingSecret = saved.json().secret;
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const again = await setEndpoint(tokens.owner, 'notes-app', { url: receiver.url, events: ALL_EVENTS, reason: 'Same settings again' });
    expect(again.json().secret).toBeNull();
    const read = await call(tokens.support, 'GET', '/v3/admin/webhooks/notes-app');
    expect(read.json()).toMatchObject({ endpoint: { url: receiver.url, events: ALL_EVENTS, enabled: true } });
    expect(read.body).not.toContain('whsec_');
    // Stored sealed, not as the secret itself.
    const stored = await server.database.db.execute(sql`select secret from webhook_endpoints where client_id = 'notes-app'`);
    expect(JSON.stringify(stored.rows)).not.toContain(signingSecret.slice(6));
  });
});

describe('webhooks: delivery', () => {
  it('a receiver that fails twice then succeeds gets the event once by id, signed, and the log says so', async () => {
    receiver.plan = [500, 503];
    expect((await rename('member', 'Mia Member')).statusCode).toBe(200);
    const [queued] = (await deliveriesOf('notes-app')).filter((row) => row.status === 'pending');
    expect(queued).toMatchObject({ type: 'user.updated', subject: ids.member, attempts: 0 });
    // Nothing for the app that chose no events.
    expect(await deliveriesOf('other-app')).toEqual([]);

    await worker().run();
    clock.advance(6_000);
    await worker().run();
    clock.advance(6 * 60_000);
    await worker().run();
    expect(receiver.requests.map((request) => request.status)).toEqual([500, 503, 200]);
    expect(new Set(receiver.requests.map((request) => request.id))).toEqual(new Set([queued!.eventId]));
    expect(receiver.accepted.size).toBe(1);
    expect(receiver.accepted.get(queued!.eventId)).toEqual({ type: 'user.updated', timestamp: expect.any(String), data: expect.objectContaining({ id: ids.member, name: 'Mia Member', email: 'member@example.com' }) });

    const log = await call(tokens.support, 'GET', '/v3/admin/webhooks/notes-app/deliveries');
    expect(log.statusCode).toBe(200);
    expect(log.json().items[0]).toMatchObject({ event_id: queued!.eventId, type: 'user.updated', status: 'delivered', attempts: 3, last_status_code: 200, next_attempt_at: null });
  });

  it("delivers a person's events in order: a later one waits while an earlier one is retried", async () => {
    receiver.plan = [500];
    for (const name of ['First', 'Second', 'Third']) expect((await rename('member', name)).statusCode).toBe(200);
    await worker().run();
    // Only the first was sent (and failed): the others wait behind it.
    expect(receiver.requests).toHaveLength(1);
    clock.advance(6_000);
    await worker().run();
    await worker().run();
    await worker().run();
    expect(receiver.order).toEqual(['user.updated:First', 'user.updated:Second', 'user.updated:Third']);
  });

  it('two workers at once deliver each event once', async () => {
    const names = Array.from({ length: 30 }, (_, index) => `Name ${index}`);
    for (const name of names) await server.database.db.update(users).set({ fullName: name }).where(eq(users.id, index(names, name)));
    await Promise.all([worker().run(), worker().run(), worker().run()]);
    const ids = receiver.requests.map((request) => request.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect((await deliveriesOf('notes-app')).filter((row) => row.status !== 'delivered')).toEqual([]);
  });

  it('an owner redelivers: the same webhook-id, which the receiver drops', async () => {
    const [last] = (await call(tokens.owner, 'GET', '/v3/admin/webhooks/notes-app/deliveries?limit=1')).json().items;
    const support = await call(tokens.support, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${last.id}/redeliver`, { reason: 'Product lost it' });
    expect([support.statusCode, codeOf(support)]).toEqual([403, 'admin.forbidden']);
    const other = await call(tokens.owner, 'POST', `/v3/admin/webhooks/other-app/deliveries/${last.id}/redeliver`, { reason: 'Product lost it' });
    expect([other.statusCode, codeOf(other)]).toEqual([404, 'admin.not_found']);
    const again = await call(tokens.owner, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${last.id}/redeliver`, { reason: 'Product lost it' });
    expect(again.json()).toMatchObject({ status: 'pending', attempts: 0 });
    receiver.accepted.set(last.event_id, { type: last.type, data: {} });
    await worker().run();
    expect(receiver.requests.map((request) => request.id)).toEqual([last.event_id]);
    expect(receiver.order).toEqual([]);
  });

  it('a redelivery sends only what the person allows the app now: their narrowed consent cuts it, a revoked one refuses it', async () => {
    await personOfThisTest('narrowed');
    expect((await rename('narrowed', 'Nora Narrow')).statusCode).toBe(200);
    const organizationId = crypto.randomUUID();
    await server.database.db.insert(organizations).values({ id: organizationId, name: 'Narrow Co', adminEmail: 'owner@example.com' });
    await server.database.db.insert(organizationMembers).values({ organizationId, email: 'narrowed@example.com', userId: ids.narrowed!, role: 'member' });
    await worker().run();
    const logged = (await deliveriesOf('notes-app')).filter((row) => row.subject === ids.narrowed);
    expect(logged.map((row) => [row.type, row.status])).toEqual([['user.updated', 'delivered'], ['organization.member_added', 'delivered']]);
    const [updated, joined] = logged;
    const redeliver = (row: { id: number }) => call(tokens.owner, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${row.id}/redeliver`, { reason: 'Product lost it' });

    // The person now allows the app `openid` only: the name and email stay home, the membership is not sent.
    await server.database.db.update(oidcModels).set({ payload: sql`jsonb_set(${oidcModels.payload}, '{openid,scope}', '"openid"')` }).where(eq(oidcModels.id, 'grant-narrowed-notes-app'));
    expect((await redeliver(updated!)).statusCode).toBe(200);
    receiver.accepted.clear();
    await worker().run();
    expect(receiver.accepted.get(updated!.eventId)?.data).toEqual({ id: ids.narrowed });
    const refused = await redeliver(joined!);
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'admin.webhook_not_allowed']);
    expect((await deliveriesOf('notes-app')).find((row) => row.id === joined!.id)).toMatchObject({ status: 'delivered' });

    // Consent revoked: the app hears nothing more of the person, not even an update's id.
    await server.database.db.delete(oidcModels).where(eq(oidcModels.id, 'grant-narrowed-notes-app'));
    const revoked = await redeliver(updated!);
    expect([revoked.statusCode, codeOf(revoked)]).toEqual([409, 'admin.webhook_not_allowed']);
    expect((await deliveriesOf('notes-app')).find((row) => row.id === updated!.id)).toMatchObject({ status: 'delivered' });
    // Each went out once at first, the cut update once more; nothing else.
    expect(receiver.requests.filter((request) => request.id === updated!.eventId).length).toBe(2);
    expect(receiver.requests.filter((request) => request.id === joined!.eventId).length).toBe(1);
  });

  it('a delivery still waiting when the person narrows their consent goes cut to it; once they remove the app, it fails unsent', async () => {
    await personOfThisTest('waiting');
    // The receiver is down when the person renames themselves and joins an organization: both wait for a retry.
    receiver.plan = [503];
    expect((await rename('waiting', 'Wanda Waiting')).statusCode).toBe(200);
    const organizationId = crypto.randomUUID();
    await server.database.db.insert(organizations).values({ id: organizationId, name: 'Waiting Co', adminEmail: 'owner@example.com' });
    await server.database.db.insert(organizationMembers).values({ organizationId, email: 'waiting@example.com', userId: ids.waiting!, role: 'member' });
    await worker().run();
    const [updated, joined] = (await deliveriesOf('notes-app')).filter((row) => row.subject === ids.waiting);
    expect([updated, joined].map((row) => [row!.type, row!.status, row!.attempts])).toEqual([['user.updated', 'pending', 1], ['organization.member_added', 'pending', 0]]);

    // The person now allows the app `openid` only: the retry carries the id alone, the membership is not sent.
    await server.database.db.update(oidcModels).set({ payload: sql`jsonb_set(${oidcModels.payload}, '{openid,scope}', '"openid"')` }).where(eq(oidcModels.id, 'grant-waiting-notes-app'));
    clock.advance(6_000);
    await worker().run();
    expect(receiver.accepted.get(updated!.eventId)?.data).toEqual({ id: ids.waiting });
    expect(receiver.requests.filter((request) => request.id === joined!.eventId)).toEqual([]);
    const after = await deliveriesOf('notes-app');
    expect(after.find((row) => row.id === updated!.id)).toMatchObject({ status: 'delivered', payload: { data: { id: ids.waiting } } });
    expect(after.find((row) => row.id === joined!.id)).toMatchObject({ status: 'failed', lastError: 'not_allowed', attempts: 0 });

    // Another change waits behind a failing receiver, then the person removes the app: it is never sent.
    await server.database.db.update(oidcModels).set({ payload: sql`jsonb_set(${oidcModels.payload}, '{openid,scope}', '"openid profile email"')` }).where(eq(oidcModels.id, 'grant-waiting-notes-app'));
    receiver.plan = [503];
    expect((await rename('waiting', 'Wanda Gone')).statusCode).toBe(200);
    await worker().run();
    const [renamed] = (await deliveriesOf('notes-app')).filter((row) => row.subject === ids.waiting && row.status === 'pending');
    await server.database.db.delete(oidcModels).where(eq(oidcModels.id, 'grant-waiting-notes-app'));
    clock.advance(6_000);
    await worker().run();
    expect(receiver.requests.filter((request) => request.id === renamed!.eventId).map((request) => request.status)).toEqual([503]);
    // Its log row says why it went unsent, not the earlier attempt's 503.
    expect((await deliveriesOf('notes-app')).find((row) => row.id === renamed!.id)).toMatchObject({ status: 'failed', lastError: 'not_allowed', lastStatusCode: null, leaseUntil: null });
  });

  it('a delivery to a loopback receiver is refused at connection time under the production rule', async () => {
    await rename('owner', 'Olga Owner');
    await createDeliveryWorker({ db: server.database.db, clock, secrets, egress: { allowLoopback: false } }).run();
    expect(receiver.requests).toEqual([]);
    const row = (await deliveriesOf('notes-app')).filter((delivery) => delivery.subject === ids.owner).at(-1);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'refused_scheme' });
  });

  it('a removed endpoint gets nothing more, and its waiting deliveries fail', async () => {
    const support = await call(tokens.support, 'DELETE', '/v3/admin/webhooks/notes-app', { reason: 'Product retired' });
    expect([support.statusCode, codeOf(support)]).toEqual([403, 'admin.forbidden']);
    expect((await call(tokens.owner, 'DELETE', '/v3/admin/webhooks/notes-app', { reason: 'Product retired' })).statusCode).toBe(204);
    await rename('owner', 'Olga Again');
    await worker().run();
    expect(receiver.requests).toEqual([]);
    expect((await deliveriesOf('notes-app')).filter((row) => row.status === 'pending')).toEqual([]);
  });

  it('membership changes reach the app, and a deleted account is announced with its id only, its earlier payloads cut to the id', async () => {
    signingSecret = (await setEndpoint(tokens.owner, 'notes-app', { url: receiver.url, events: ALL_EVENTS, reason: 'Notes wants account events again' })).json().secret;
    const organizationId = crypto.randomUUID();
    await server.database.db.insert(organizations).values({ id: organizationId, name: 'Acme', adminEmail: 'owner@example.com' });
    await server.database.db.insert(organizationMembers).values({ organizationId, email: 'member@example.com', userId: ids.member!, role: 'member' });
    // The person's deletion is due (its request and window are the account module's, tested there).
    await server.database.db.update(users).set({ deletionRequestedAt: clock.now(), deletionDueAt: new Date(clock.now().getTime() - 1000) }).where(eq(users.id, ids.member!));
    expect(await runDeletionPurge(server.database.db, clock)).toBe(1);
    await worker().run();
    expect(receiver.order).toEqual(['organization.member_added:', 'organization.member_removed:', `user.deleted:${ids.member}`]);
    const deleted = [...receiver.accepted.values()].find((event) => event.type === 'user.deleted');
    expect(deleted!.data).toEqual({ id: ids.member });
    const left = JSON.stringify((await deliveriesOf('notes-app')).filter((row) => row.subject === ids.member).map((row) => row.payload));
    expect(left).not.toMatch(/member@example\.com|Mia Member|First/);
  });
});

describe('webhooks: an app hears only of the people who allowed it', () => {
  it('a person who never signed in to the app changes their name: the app gets nothing; once they allow it, it hears', async () => {
    expect((await rename('stranger', 'Sam Stranger')).statusCode).toBe(200);
    expect((await deliveriesOf('notes-app')).filter((row) => row.subject === ids.stranger)).toEqual([]);
    await worker().run();
    expect(receiver.requests).toEqual([]);

    await grant('fan', 'notes-app');
    expect((await rename('fan', 'Fay Fan')).statusCode).toBe(200);
    const rows = (await deliveriesOf('notes-app')).filter((row) => row.subject === ids.fan);
    expect(rows).toMatchObject([{ type: 'user.updated', status: 'pending' }]);
    await worker().run();
    expect(receiver.order).toEqual(['user.updated:Fay Fan']);
    expect(receiver.accepted.get(rows[0]!.eventId)!.data).toMatchObject({ id: ids.fan, email: 'fan@example.com' });
  });

  it('an app learns only the claims the person allowed it: no email without `email`, no name, username or language without `profile`', async () => {
    await server.database.db.insert(oauthClients).values([
      { clientId: 'id-only-app', metadata: { client_name: 'Id Only' } },
      { clientId: 'email-app', metadata: { client_name: 'Email App' } },
    ]);
    for (const clientId of ['id-only-app', 'email-app']) expect((await setEndpoint(tokens.owner, clientId, { url: receiver.url, events: ALL_EVENTS, reason: 'Scoped apps want account events' })).statusCode).toBe(200);
    // Their queue only is read here: nothing of theirs, nor of this person, is left for the other tests' deliveries.
    const scopedApps = ['id-only-app', 'email-app'];
    onTestFinished(async () => {
      await server.database.db.delete(webhookDeliveries).where(inArray(webhookDeliveries.clientId, scopedApps));
      await server.database.db.delete(webhookEndpoints).where(inArray(webhookEndpoints.clientId, scopedApps));
      if (!ids.scoped) return;
      await server.database.db.delete(organizationMembers).where(eq(organizationMembers.userId, ids.scoped));
      await server.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.subject, ids.scoped));
    });
    await person('scoped');
    const year = new Date(Date.now() + 365 * 86_400_000);
    await grant('scoped', 'id-only-app', year, 'openid');
    await grant('scoped', 'email-app', year, 'openid email');
    const payloads = async (clientId: string) => (await deliveriesOf(clientId)).filter((row) => row.subject === ids.scoped).map((row) => ({ type: row.type, data: (row.payload as { data: object }).data }));

    expect((await call(tokens.scoped, 'PUT', '/v3/sso/me', { full_name: 'Secret Name', language: 'vi', username: 'secretuser' })).statusCode).toBe(200);
    await server.database.db.update(users).set({ email: 'scoped.new@example.com' }).where(eq(users.id, ids.scoped!));
    expect(await payloads('id-only-app')).toEqual([{ type: 'user.updated', data: { id: ids.scoped } }]);
    expect(await payloads('email-app')).toEqual([
      { type: 'user.updated', data: { id: ids.scoped, email: 'scoped@example.com' } },
      { type: 'user.email_changed', data: { id: ids.scoped, email: 'scoped.new@example.com', previous_email: 'scoped@example.com' } },
    ]);
    // An app allowed `profile` too (the Notes app, for the delivery tests' people) reads the person whole.
    await grant('scoped', 'notes-app');
    expect((await call(tokens.scoped, 'PUT', '/v3/sso/me', { full_name: 'Open Name', language: 'en' })).statusCode).toBe(200);
    expect(await payloads('notes-app')).toEqual([
      { type: 'user.updated', data: expect.objectContaining({ id: ids.scoped, email: 'scoped.new@example.com', name: 'Open Name', username: 'secretuser', language: 'en' }) },
    ]);
    // Membership events (an organization and a role, which no claim releases) go with `profile` only.
    const organizationId = crypto.randomUUID();
    await server.database.db.insert(organizations).values({ id: organizationId, name: 'Scoped Co', adminEmail: 'owner@example.com' });
    await server.database.db.insert(organizationMembers).values({ organizationId, email: 'scoped.new@example.com', userId: ids.scoped!, role: 'member' });
    const joined = async (clientId: string) => (await payloads(clientId)).filter((row) => row.type === 'organization.member_added');
    expect([await joined('id-only-app'), await joined('email-app')]).toEqual([[], []]);
    expect(await joined('notes-app')).toEqual([{ type: 'organization.member_added', data: { organization_id: organizationId, user_id: ids.scoped, role: 'member' } }]);
  });

  it("membership events and the account's deletion reach only the apps the person had allowed, the grant looked up before the purge deletes it", async () => {
    const organizationId = crypto.randomUUID();
    await server.database.db.insert(organizations).values({ id: organizationId, name: 'Beta', adminEmail: 'owner@example.com' });
    await server.database.db.insert(organizationMembers).values([
      { organizationId, email: 'stranger@example.com', userId: ids.stranger!, role: 'member' },
      { organizationId, email: 'fan@example.com', userId: ids.fan!, role: 'member' },
    ]);
    const due = { deletionRequestedAt: clock.now(), deletionDueAt: new Date(clock.now().getTime() - 1000) };
    await server.database.db.update(users).set(due).where(eq(users.id, ids.stranger!));
    await server.database.db.update(users).set(due).where(eq(users.id, ids.fan!));
    expect(await runDeletionPurge(server.database.db, clock)).toBe(2);
    await worker().run();
    expect((await deliveriesOf('notes-app')).filter((row) => row.subject === ids.stranger)).toEqual([]);
    expect(receiver.requests.map((request) => JSON.parse(request.body).data.user_id ?? JSON.parse(request.body).data.id)).not.toContain(ids.stranger);
    expect(receiver.order).toEqual(['organization.member_added:', 'organization.member_removed:', `user.deleted:${ids.fan}`]);
    // The purge still deletes the grants, after the events were queued.
    const left = await server.database.db.select({ id: oidcModels.id }).from(oidcModels).where(eq(oidcModels.model, 'Grant'));
    expect(left.map((row) => row.id)).not.toEqual(expect.arrayContaining(['grant-fan-notes-app']));
    expect(left.map((row) => row.id)).not.toContain('grant-stranger-other-app');
  });
});

describe('webhooks: a deletion reaches every app the person ever allowed', () => {
  it('an app whose grant expired, and was swept, still hears user.deleted; an app never allowed does not', async () => {
    await person('lapsed');
    await grant('lapsed', 'notes-app', new Date(Date.now() - 86_400_000));
    // The provider's hourly sweep deletes expired grants: the app is still owed the deletion.
    await sweepExpired(server.database.db);
    expect(await server.database.db.select({ id: oidcModels.id }).from(oidcModels).where(eq(oidcModels.id, 'grant-lapsed-notes-app'))).toEqual([]);
    // An expired grant hears nothing else.
    expect((await rename('lapsed', 'Lee Lapsed')).statusCode).toBe(200);
    expect((await deliveriesOf('notes-app')).filter((row) => row.subject === ids.lapsed)).toEqual([]);

    const due = { deletionRequestedAt: clock.now(), deletionDueAt: new Date(clock.now().getTime() - 1000) };
    await server.database.db.update(users).set(due).where(eq(users.id, ids.lapsed!));
    expect(await runDeletionPurge(server.database.db, clock)).toBe(1);
    expect((await deliveriesOf('notes-app')).filter((row) => row.subject === ids.lapsed).map((row) => row.type)).toEqual(['user.deleted']);
    expect((await deliveriesOf('other-app')).filter((row) => row.subject === ids.lapsed)).toEqual([]);
    await worker().run();
    expect(receiver.order).toEqual([`user.deleted:${ids.lapsed}`]);
    // Once told, the app is forgotten with the account.
    const remembered = await server.database.db.execute(sql`select 1 from webhook_deletion_audiences where account_id = ${ids.lapsed!}`);
    expect(remembered.rows).toEqual([]);
  });
});

/** The id of the account a name is given to in the two-workers test: one of the four people, in turn. */
function index(names: string[], name: string): string {
  const people = [ids.owner, ids.support, ids.nobody, ids.member];
  return people[names.indexOf(name) % people.length]!;
}
