/**
 * An app trying to be told what the person no longer allows it, or to have one delivery sent
 * twice: "a delivery goes as the person allows the app when it is sent" (migration 0046,
 * queries.ts claim and redeliver) against an account's erasure, lapsed grants, grants of other
 * apps, a subject that is nobody, and workers and redeliveries at once. Built as
 * webhooks.test.ts is, on a database of its own.
 */
import { createServer, type Server } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { codeOf } from '../../../test/operators';
import { deliveryWorker, webhookPeople } from '../../../test/webhooks';
import { oauthClients, oidcModels, operatorRoles, organizationMembers, organizations, users, webhookDeliveries } from '../../db/schema';
import { runDeletionPurge } from '../account';
import { webhookQueries } from './queries';

const clock = manualClock(new Date(Date.now() + 60_000));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const { tokens, ids, person, grant } = webhookPeople(() => ({ server, client }));
const worker = () => deliveryWorker(server, clock);

/** A product's receiver: answers `plan` in turn (then 200) and keeps every request's id, status and body. */
const receiver = {
  server: undefined as Server | undefined,
  url: '',
  plan: [] as number[],
  requests: [] as Array<{ id: string; status: number; type: string; data: Record<string, unknown> }>,
  reset() {
    this.plan = [];
    this.requests = [];
  },
};
/** What reached the receiver with a 200 for one event id. */
const accepted = (eventId: string) => receiver.requests.filter((request) => request.id === eventId && request.status === 200);

const call = (token: string, method: 'PUT' | 'POST', url: string, payload: object) =>
  server.app.inject({ method, url, headers: { 'user-agent': 'webhooks-attack', authorization: `Bearer ${token}` }, payload });
const rename = (name: string, fullName: string) => call(tokens[name]!, 'PUT', '/v3/sso/me', { full_name: fullName, language: 'en' });
const ofPerson = async (name: string) =>
  server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subject, ids[name]!)).orderBy(webhookDeliveries.id);

async function joinOrganization(name: string) {
  const organizationId = crypto.randomUUID();
  await server.database.db.insert(organizations).values({ id: organizationId, name: `${name} Co`, adminEmail: 'owner@example.com' });
  await server.database.db.insert(organizationMembers).values({ organizationId, email: `${name}@example.com`, userId: ids[name]!, role: 'admin' });
  return organizationId;
}

async function erase(name: string) {
  await server.database.db.update(users).set({ deletionRequestedAt: clock.now(), deletionDueAt: new Date(clock.now().getTime() - 1000) }).where(eq(users.id, ids[name]!));
  expect(await runDeletionPurge(server.database.db, clock)).toBe(1);
}

beforeAll(async () => {
  receiver.server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = receiver.plan.shift() ?? 200;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: Record<string, unknown> };
      receiver.requests.push({ id: String(request.headers['webhook-id']), status, type: event.type, data: event.data });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
  const address = receiver.server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;

  server = await startTestServer({ clock, env: { WEBHOOK_DELIVERY_INTERVAL_MS: '0', DELETION_JOB_INTERVAL_SECONDS: '0', REAUTH_MAX_AGE_SECONDS: '86400' } });
  client = identityClient(server.app, server.database);
  await person('owner');
  await server.database.db.insert(operatorRoles).values({ userId: ids.owner!, role: 'owner' });
  await server.database.db.insert(oauthClients).values([
    { clientId: 'notes-app', metadata: { client_name: 'Notes App' } },
    { clientId: 'other-app', metadata: { client_name: 'Other App' } },
  ]);
  const events = ['user.created', 'user.updated', 'user.email_changed', 'user.deleted', 'organization.member_added', 'organization.member_removed'];
  const saved = await call(tokens.owner!, 'PUT', '/v3/admin/webhooks/notes-app', { url: receiver.url, events, reason: 'Notes wants account events' });
  expect(saved.statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.server?.close(resolve));
});
beforeEach(() => receiver.reset());

describe('webhooks attack: the erased-account exception', () => {
  // A membership queued while the person allowed the app, waiting for a retry when they remove
  // it, must not go once their account is erased: the erasure's exception (webhook_sendable) is
  // for what was still allowed at the erasure, which fails the rest (webhook_erasure_refusals).
  it('a membership waiting when the person removes the app is not sent once their account is erased', async () => {
    await person('quitter');
    await grant('quitter', 'notes-app');
    receiver.plan = [503];
    const organizationId = await joinOrganization('quitter');
    await worker().run();
    const [joined] = await ofPerson('quitter');
    expect(joined).toMatchObject({ type: 'organization.member_added', status: 'pending', attempts: 1 });

    // The person removes the app from their connected apps (revokeApp deletes every grant), then
    // their deletion comes due before the retry (the delivery job and the purge are separate jobs).
    await server.database.db.delete(oidcModels).where(eq(oidcModels.accountId, ids.quitter!));
    await erase('quitter');
    clock.advance(6_000);
    await worker().run();

    const told = accepted(joined!.eventId);
    expect(told.map((request) => request.data), `the app was told quitter's membership of ${organizationId} after consent ended`).toEqual([]);
    expect((await ofPerson('quitter')).find((row) => row.id === joined!.id)).toMatchObject({ status: 'failed', lastError: 'not_allowed' });
  });

  // An owner's redelivery asks what the grant allows now, with no exception for an erased
  // account: the erasure deletes the grants, and the log holds 30 days of the person's events.
  it('after the erasure, a redelivery of a membership refused not_allowed is still refused', async () => {
    await person('refuser');
    await grant('refuser', 'notes-app');
    receiver.plan = [503];
    await joinOrganization('refuser');
    await worker().run();
    const [joined] = await ofPerson('refuser');
    await server.database.db.delete(oidcModels).where(eq(oidcModels.accountId, ids.refuser!));
    clock.advance(6_000);
    await worker().run();
    // The claim refuses it once the grant is gone.
    expect((await ofPerson('refuser')).find((row) => row.id === joined!.id)).toMatchObject({ status: 'failed', lastError: 'not_allowed' });
    const refusedBefore = await call(tokens.owner!, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${joined!.id}/redeliver`, { reason: 'Product lost it' });
    expect([refusedBefore.statusCode, codeOf(refusedBefore)]).toEqual([409, 'admin.webhook_not_allowed']);

    await erase('refuser');
    const again = await call(tokens.owner!, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${joined!.id}/redeliver`, { reason: 'Product lost it' });
    await worker().run();
    expect(accepted(joined!.eventId).map((request) => request.data), 'the app was told the membership the person had refused').toEqual([]);
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'admin.webhook_not_allowed']);
  });
});

describe('webhooks attack: grants the claim must not count', () => {
  it('an expired grant not yet swept, or a live grant for another app, does not let a waiting event go', async () => {
    await person('expiring');
    await grant('expiring', 'notes-app');
    await grant('expiring', 'other-app');
    receiver.plan = [503];
    expect((await rename('expiring', 'Eve Expiring')).statusCode).toBe(200);
    await worker().run();
    const [updated] = await ofPerson('expiring');
    expect(updated).toMatchObject({ type: 'user.updated', status: 'pending', attempts: 1 });
    // The grant lapses (the hourly sweep has not deleted it yet); the other app's grant is live.
    await server.database.db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oidcModels.id, 'grant-expiring-notes-app'));
    clock.advance(6_000);
    await worker().run();
    expect(accepted(updated!.eventId)).toEqual([]);
    expect((await ofPerson('expiring')).find((row) => row.id === updated!.id)).toMatchObject({ status: 'failed', lastError: 'not_allowed', leaseUntil: null });
  });

  it("a person's wide grant that expired does not widen their live narrow one", async () => {
    await person('twice');
    await grant('twice', 'notes-app', new Date(Date.now() + 365 * 86_400_000), 'openid profile email', 'grant-twice-wide');
    await grant('twice', 'notes-app', new Date(Date.now() + 365 * 86_400_000), 'openid', 'grant-twice-narrow');
    receiver.plan = [503];
    expect((await rename('twice', 'Tess Twice')).statusCode).toBe(200);
    await worker().run();
    const [updated] = await ofPerson('twice');
    // Queued under both grants (the union): the wide one lapses before the retry.
    expect((updated!.payload as { data: object }).data).toMatchObject({ name: 'Tess Twice', email: 'twice@example.com' });
    await server.database.db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oidcModels.id, 'grant-twice-wide'));
    clock.advance(6_000);
    await worker().run();
    expect(accepted(updated!.eventId).map((request) => request.data)).toEqual([{ id: ids.twice }]);
  });

  it('a queued event whose subject is no account and has no grant is refused, whatever its stored payload says', async () => {
    const subject = crypto.randomUUID();
    const [row] = await server.database.db
      .insert(webhookDeliveries)
      .values({ eventId: crypto.randomUUID(), clientId: 'notes-app', type: 'user.updated', subject, payload: { type: 'user.updated', timestamp: '2030-01-01T00:00:00.000Z', data: { id: subject, email: 'ghost@example.com', name: 'Ghost' } } })
      .returning();
    await worker().run();
    expect(accepted(row!.eventId)).toEqual([]);
    const [after] = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row!.id));
    expect(after).toMatchObject({ status: 'failed', lastError: 'not_allowed' });
    expect(JSON.stringify(after!.payload)).not.toMatch(/ghost@example\.com|Ghost/);
  });
});

describe('webhooks attack: one delivery, one worker', () => {
  it('claims at once from many workers never hand out one delivery twice, nor two of one person', async () => {
    const people = ['p0', 'p1', 'p2', 'p3', 'p4'];
    for (const name of people) {
      await person(name);
      await grant(name, 'notes-app');
    }
    // Five events each, every one due now.
    for (let round = 0; round < 5; round++) for (const name of people) await server.database.db.update(users).set({ fullName: `${name} ${round}` }).where(eq(users.id, ids[name]!));
    const queries = webhookQueries(server.database.db);
    const claims = await Promise.all(Array.from({ length: 8 }, () => queries.claim(clock.now(), 3, 60_000)));
    const handed = claims.flatMap((claim) => claim.deliveries);
    expect(new Set(handed.map((delivery) => delivery.id)).size).toBe(handed.length);
    const subjects = await server.database.db.select({ id: webhookDeliveries.id, subject: webhookDeliveries.subject }).from(webhookDeliveries).where(sql`${webhookDeliveries.leaseUntil} is not null`);
    expect(new Set(subjects.map((row) => row.subject)).size).toBe(subjects.length);
    expect(subjects.length).toBe(people.length);
    // Released for the rest of the file.
    await server.database.db.update(webhookDeliveries).set({ status: 'failed', leaseUntil: null }).where(eq(webhookDeliveries.status, 'pending'));
  });

  // A redelivery of a delivery a worker is sending leaves its lease alone: cleared, the next
  // claim would hand the same delivery to a second worker while the first still sends it.
  it('a redelivery of a delivery in flight does not hand it to a second worker', async () => {
    await person('inflight');
    await grant('inflight', 'notes-app');
    expect((await rename('inflight', 'Ivy Inflight')).statusCode).toBe(200);
    const queries = webhookQueries(server.database.db);
    const first = await queries.claim(clock.now(), 10, 60_000);
    const held = first.deliveries.find((delivery) => delivery.payload.data && (delivery.payload as { data: { id?: string } }).data.id === ids.inflight);
    expect(held).toBeDefined();
    const redelivered = await call(tokens.owner!, 'POST', `/v3/admin/webhooks/notes-app/deliveries/${held!.id}/redeliver`, { reason: 'Product lost it' });
    expect(redelivered.statusCode === 200 || redelivered.statusCode === 409).toBe(true);
    const second = await queries.claim(clock.now(), 10, 60_000);
    expect(second.deliveries.map((delivery) => delivery.id), 'handed to a second worker while the first holds its lease').not.toContain(held!.id);
  });
});
