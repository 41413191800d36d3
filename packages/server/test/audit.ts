import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { organizationAuditEvents, organizationMembers } from '../src/db/schema';
import { createOrganizationService } from '../src/modules/organizations';
import { manualClock } from './clock';
import { startTestServer, type TestServer } from './harness';
import { identityClient } from './identity';
import { visitorAddresses, visitorCalls } from './visitor-calls';

export const PASSWORD = 'plum-orbit-cactus-917';
export const UA = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

/** Factor-change entries are written beside the notice, without holding up the answer. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A test server on a manual clock with two organizations for the audit log: Acme (boss the
 * owner who made it, owner an owner, worker a member, ghost a member without an account) and
 * Globex (chief), and loner in none; everyone's session in `tokens`. Starts before the file's
 * tests and closes after them.
 */
export function auditTestServer() {
  const clock = manualClock(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000));
  let server: TestServer;
  const tokens: Record<string, string> = {};
  /** What the file's beforeAll makes, there from its first test on (the answer below is this object). */
  const started = {} as { server: TestServer; client: ReturnType<typeof identityClient>; organizations: ReturnType<typeof createOrganizationService>; acme: string; globex: string };

  beforeAll(async () => {
    server = await startTestServer({ clock });
    const client = identityClient(server.app, server.database);
    const organizations = createOrganizationService({ db: server.database.db, clock });
    for (const email of ['boss@acme.example', 'owner@acme.example', 'worker@acme.example', 'loner@example.com', 'chief@globex.example']) tokens[email] = await client.registeredUser(email, PASSWORD);
    const acme = (await organizations.create({ name: 'Acme', adminEmail: 'boss@acme.example', adminUserId: null }))!.id;
    await organizations.addMember(acme, 'worker@acme.example');
    await organizations.addMember(acme, 'owner@acme.example');
    await organizations.addMember(acme, 'ghost@acme.example');
    await server.database.db.update(organizationMembers).set({ role: 'owner' }).where(eq(organizationMembers.email, 'owner@acme.example'));
    const globex = (await organizations.create({ name: 'Globex', adminEmail: 'chief@globex.example', adminUserId: null }))!.id;
    Object.assign(started, { server, client, organizations, acme, globex });
  });
  afterAll(() => server.close());

  const nextAddress = visitorAddresses('10.66');
  const call = visitorCalls(() => server, nextAddress, UA);

  return Object.assign(started, {
    clock,
    tokens,
    nextAddress,
    call,
    signIn: (email: string, password = PASSWORD, ip?: string) => call('POST', '/v3/sso/auth', { body: { email, password }, ip }),
    events: (organizationId: string) =>
      server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.organizationId, organizationId)).orderBy(organizationAuditEvents.id),
    allEvents: () => server.database.db.select().from(organizationAuditEvents),
    list: (organizationId: string, token: string, query = '') => call('GET', `/v3/organizations/${organizationId}/audit-events${query}`, { token }),
    exportCsv: (organizationId: string, token: string, query = '') => call('GET', `/v3/organizations/${organizationId}/audit-events.csv${query}`, { token }),
  });
}
