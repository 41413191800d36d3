import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/clock';
import { startTestServer, type TestServer } from '../../test/harness';
import { identityClient } from '../../test/identity';
import { runDeletionPurge } from '../modules/account';
import { openDatabase } from './client';
import { personalColumns } from './personal-columns';
import * as schema from './schema';

const tables: PgTable[] = (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable);
const isPersonal = (handling: unknown) => handling !== 'no' && !(typeof handling === 'object' && handling && 'kept' in handling);

describe('the list of personal columns', () => {
  it('classifies every column of every table, and nothing else', () => {
    const inSchema = tables.map((table) => getTableConfig(table)).map(({ name, columns }) => [name, columns.map((column) => column.name).sort()] as const);
    const unlisted = inSchema.flatMap(([name, columns]) => columns.filter((column) => !personalColumns[name]?.[column]).map((column) => `${name}.${column}`));
    expect(unlisted, 'classify these in db/personal-columns/').toEqual([]);
    const schemaColumns = new Set(inSchema.flatMap(([name, columns]) => columns.map((column) => `${name}.${column}`)));
    const stale = Object.entries(personalColumns).flatMap(([name, columns]) => Object.keys(columns).map((column) => `${name}.${column}`)).filter((key) => !schemaColumns.has(key));
    expect(stale, 'no longer in the schema').toEqual([]);
  });
});

const PASSWORD = 'plum-orbit-cactus-917';
const DAY = 24 * 60 * 60 * 1000;
const EMAIL = 'victim@example.com';
/** Every personal value the fixture writes carries one of these (or the account's or session's id). */
const MARKER = /victim|203\.0\.113\.77/i;
/** Where the account's money went and came from: kept with the books for 10 years, then cleared. */
const COUNTERPARTY = '0x00000000000000000000000000000000000000aa';
const clock = manualClock(new Date('2030-03-10T08:00:00Z'));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { DELETION_JOB_INTERVAL_SECONDS: '0', SESSION_IDLE_TIMEOUT_SECONDS: String(30 * DAY / 1000) } });
});
afterAll(() => server.close());

/** Every row of a table as JSON text, by column name. */
async function rowsOf(table: string): Promise<Record<string, unknown>[]> {
  const result = await server.database.db.execute(sql`select row_to_json(t) as row from ${sql.identifier(table)} t`);
  return (result.rows as { row: Record<string, unknown> | string }[]).map(({ row }) => (typeof row === 'string' ? JSON.parse(row) : row));
}

/** Where a personal value of the account still sits: `table.column` for each. */
async function personalValuesLeft(needles: string[]): Promise<string[]> {
  const found: string[] = [];
  // The ids count only where rows must be gone: an anonymised address is made from the id.
  const named = (value: unknown, byId: boolean) => {
    const text = JSON.stringify(value ?? null);
    return MARKER.test(text) || (byId && needles.some((needle) => text.includes(needle)));
  };
  for (const [table, columns] of Object.entries(personalColumns)) {
    const rowDeleting = Object.values(columns).includes('deleteRow');
    for (const row of await rowsOf(table)) {
      for (const [column, value] of Object.entries(row)) {
        // A table whose rows are the account's own must have none left at all (ids included);
        // elsewhere the columns listed as personal must name nobody.
        if ((rowDeleting || isPersonal(columns[column])) && named(value, rowDeleting)) found.push(`${table}.${column}`);
      }
    }
  }
  return [...new Set(found)].sort();
}

/** An account with a row, naming it, in every table that holds personal data. */
async function seedVictim() {
  const client = identityClient(server.app, server.database);
  const token = await client.registeredUser(EMAIL);
  const db = server.database.db;
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, EMAIL));
  const userId = user!.id;
  await db
    .update(schema.users)
    .set({ username: 'victimuser', fullName: 'Victim Person', phone: '0909000111', company: 'Victim Co', organization: 'Victim Org', address: '1 Victim Street', country: 'VN', recoveryEmail: 'victim-backup@example.com', recoveryEmailVerifiedAt: clock.now(), educationEmail: 'victim@school.edu', totpSecret: 'VICTIMTOTPSECRET' })
    .where(eq(schema.users.id, userId));

  const sessionId = randomUUID();
  await db.insert(schema.sessions).values({ id: sessionId, userId, tokenHash: 'victim-session-hash', deviceId: 'victim-device', browser: 'VictimBrowser 1.0', device: 'Victim phone', ip: '203.0.113.77', location: 'Victim town', expiresAt: new Date(clock.now().getTime() + 365 * DAY) });
  await db.insert(schema.sessionProofs).values({ sessionId, provedAt: clock.now() });
  await db.insert(schema.securityAlerts).values({ id: randomUUID(), sessionId, kind: 'new_device_sign_in', brand: 'platform', detail: 'VictimBrowser 1.0 · Victim phone · 203.0.113.77', nextAttemptAt: clock.now() });
  await db.insert(schema.oidcSessionLinks).values({ sessionUid: 'victim-oidc-session', portalSessionId: sessionId });
  await db.insert(schema.oidcModels).values({ model: 'Grant', id: 'victim-grant', payload: { accountId: userId }, accountId: userId, clientId: 'victim-app' });
  await db.insert(schema.oneTimeTokens).values({ id: randomUUID(), userId, purpose: 'email_change', tokenHash: 'victim-ott', expiresAt: clock.now(), payload: { email: 'victim-new@example.com' } });
  await db.insert(schema.mailOutbox).values({ id: randomUUID(), to: EMAIL, subject: 'Hello Victim', text: 'Victim', html: 'Victim' });
  await db.insert(schema.recoveryCodes).values({ id: randomUUID(), userId, codeHash: 'victim-code' });
  await db.insert(schema.passkeys).values({ id: randomUUID(), userId, credentialId: 'victim-credential', publicKey: Buffer.from('victim'), name: 'Victim key' });
  await db.insert(schema.webauthnChallenges).values({ id: randomUUID(), challengeHash: 'victim-challenge', purpose: 'register', userId, expiresAt: clock.now() });
  await db.insert(schema.avatars).values({ userId, content: Buffer.from('victim'), contentType: 'image/webp' });
  await db.insert(schema.apiKeys).values({ id: randomUUID(), userId, name: 'Victim CI', prefix: 'pk_victim', keyHash: 'victim-key', scopes: ['me:read'] });
  await db.insert(schema.notifications).values({ id: randomUUID(), userId, type: 'security', title: 'Victim signed in', metadata: { ip: '203.0.113.77' } });

  const organizationId = randomUUID();
  await db.insert(schema.organizations).values({ id: organizationId, name: 'Acme', adminEmail: EMAIL, adminUserId: userId });
  await db.insert(schema.organizationMembers).values({ organizationId, email: EMAIL, userId, role: 'owner' });
  await db.insert(schema.organizationInvitations).values([
    { id: randomUUID(), organizationId, email: EMAIL, role: 'admin', tokenHash: 'victim-invitation', expiresAt: clock.now() },
    { id: randomUUID(), organizationId, email: 'colleague@example.com', role: 'member', tokenHash: 'colleague-invitation', invitedBy: userId, expiresAt: clock.now() },
  ]);
  await db.insert(schema.organizationAuditEvents).values([
    { organizationId, action: 'sign_in', actorUserId: userId, actorEmail: EMAIL, ip: '203.0.113.77', userAgent: 'VictimBrowser 1.0' },
    { organizationId, action: 'member_invited', actorUserId: null, targetEmail: EMAIL, ip: '198.51.100.1', userAgent: 'Operator' },
  ]);
  await db.insert(schema.companySsoIdentities).values({ organizationId, subject: 'victim-subject', userId, email: EMAIL });
  await db.insert(schema.companySsoRequests).values({ id: 'victim-request', organizationId, brand: 'platform', expiresAt: clock.now(), subject: 'victim-sso', email: EMAIL, fullName: 'Victim Person' });
  await db.insert(schema.socialIdentities).values({ provider: 'google', subject: 'victim-google', userId, email: EMAIL, linkedAt: clock.now() });
  await db.insert(schema.socialSignups).values({ id: randomUUID(), tokenHash: 'victim-signup', provider: 'github', subject: 'victim-gh', providerEmail: EMAIL, providerEmailVerified: true, fullName: 'Victim Person', email: EMAIL, expiresAt: clock.now() });
  await db.insert(schema.websiteModerators).values({ id: randomUUID(), clientId: 'cs', serviceScope: 'cs', websiteId: 'w1', websiteName: 'Site', email: EMAIL, tokenHash: 'victim-moderator', userId, expiresAt: clock.now() });

  await db.insert(schema.billingCustomers).values({ userId, processor: 'stripe', customerRef: 'cus_victim' });
  const paymentMethodId = randomUUID();
  await db.insert(schema.paymentMethods).values({ id: paymentMethodId, userId, processor: 'sandbox', processorRef: 'pm_victim', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, cardholder: 'VICTIM PERSON', city: 'Victim City', state: 'HN', zip: '100000', country: 'VN', isDefault: true });
  const subscriptionId = randomUUID();
  await db.insert(schema.subscriptions).values({ id: subscriptionId, userId, product: 'locker', plan: 'premium', months: 1, currency: 'USD', price: 1000, status: 'active', paymentMethodId, currentPeriodStart: clock.now() });
  const order = { cardholder: 'VICTIM PERSON', city: 'Victim City', state: 'HN', zip: '100000', country: 'VN' };
  await db.insert(schema.orders).values({ id: randomUUID(), number: 'INV-VICTIM-1', userId, subscriptionId, product: 'locker', plan: 'premium', months: 1, currency: 'USD', price: 1000, discount: 0, subtotal: 1000, credit: 0, total: 1000, status: 'paid', kind: 'subscribe', paymentMethodId, paymentMethodLabel: 'Visa 4242 (Victim)', billingAddress: order, idempotencyKey: 'victim-order', paidAt: clock.now(), createdAt: clock.now() });
  await db.insert(schema.trialUsages).values({ person: `email:${EMAIL}`, product: 'locker' });
  await db.insert(schema.idempotencyKeys).values({ scope: `subscribe:${userId}`, key: 'k1', requestHash: 'h', state: 'done', response: { billing_address: order } });

  const entryId = randomUUID();
  const made = clock.now();
  await db.insert(schema.walletEntries).values({ id: entryId, kind: 'transfer', currency: 'WHC', status: 'completed', initiatedBy: userId, destination: COUNTERPARTY, note: 'Rent for Victim', createdAt: made });
  await db.insert(schema.walletPartnerTransfers).values({ entryId, userId, currency: 'WHC', recipient: 'partner-account-1', amountMinor: 5, note: 'Victim savings', status: 'completed', allowanceDay: '2030-03-10', createdAt: made });
  await db.insert(schema.walletChainWithdrawals).values({ entryId, userId, address: COUNTERPARTY, amountMinor: 5, status: 'completed', createdAt: made });
  await db.insert(schema.walletWhcDeposits).values({ txHash: '0x01', logIndex: 0, blockNumber: 1, blockHash: '0x02', userId, address: '0x00000000000000000000000000000000000000bb', fromAddress: COUNTERPARTY, amountToken: '5', amountMinor: 5, status: 'completed', entryId, createdAt: made });
  await db.insert(schema.walletKnownAddresses).values({ userId, address: '0x00000000000000000000000000000000000000aa' });
  await db.insert(schema.researcherSettings).values({ userId, payoutCurrency: 'WHC', profilePublic: true });
  await db.insert(schema.operatorRoles).values({ userId, role: 'support' });
  await db.insert(schema.operatorApiKeys).values({ id: randomUUID(), userId, name: 'Victim script', prefix: 'victimpr', keyHash: 'victim-operator-key', scopes: ['admin:people'] });
  await db.insert(schema.operatorAuditEvents).values({ actorUserId: userId, actorEmail: EMAIL, via: 'session', action: 'POST /admin/operators', summary: 'Grant', target: {}, reason: 'Routine check', ip: '203.0.113.77', userAgent: 'VictimBrowser 1.0' });
  await db.insert(schema.oauthClients).values({ clientId: 'victim-hooks', metadata: { client_name: 'Hooks' } });
  await db.insert(schema.webhookDeliveries).values({ eventId: randomUUID(), clientId: 'victim-hooks', type: 'user.updated', subject: userId, payload: { type: 'user.updated', timestamp: made.toISOString(), data: { id: userId, email: EMAIL, name: 'Victim Person' } } });
  return { token, userId, sessionId, organizationId };
}

describe('the deletion purge', () => {
  it('leaves no personal value of a deleted account in any table, only the invoice it must keep', async () => {
    const victim = await seedVictim();
    const needles = [victim.userId, victim.sessionId];
    // The fixture covers every table with a personal column.
    const coveredBefore = new Set((await personalValuesLeft(needles)).map((place) => place.split('.')[0]));
    const personalTables = Object.entries(personalColumns).filter(([, columns]) => Object.values(columns).some(isPersonal)).map(([table]) => table);
    expect(personalTables.filter((table) => !coveredBefore.has(table))).toEqual([]);

    const deletion = await server.app.inject({ method: 'POST', url: '/v3/sso/me/deletion', payload: { password: PASSWORD, confirmation: 'DELETE' }, headers: { authorization: `Bearer ${victim.token}` } });
    expect(deletion.statusCode).toBe(200);
    // The deletion's notice is mailed after the answer: in life it is in the outbox 14 days before
    // the purge; here the clock jumps, so the purge must wait for it as the days would.
    await server.mailer.settled();
    clock.advance(14 * DAY + 60_000);
    expect(await runDeletionPurge(server.database.db, clock)).toBe(1);

    expect(await personalValuesLeft(needles)).toEqual([]);
    const db = server.database.db;
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.number, 'INV-VICTIM-1'));
    expect(order).toMatchObject({ total: 1000, currency: 'USD', billingAddress: { cardholder: 'VICTIM PERSON', city: 'Victim City' }, paymentMethodLabel: null });
    const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, victim.userId));
    expect(subscription!.status).toBe('canceled');
    const [organization] = await db.select().from(schema.organizations).where(eq(schema.organizations.id, victim.organizationId));
    expect(organization).toMatchObject({ adminEmail: `deleted-${victim.userId}@deleted.invalid`, adminUserId: null });
    const audit = await db.select().from(schema.organizationAuditEvents).where(eq(schema.organizationAuditEvents.organizationId, victim.organizationId)).orderBy(schema.organizationAuditEvents.id);
    expect(audit.map((event) => [event.action, event.actorEmail ?? event.targetEmail, event.ip])).toEqual([
      ['sign_in', `deleted-${victim.userId}@deleted.invalid`, null],
      ['member_invited', `deleted-${victim.userId}@deleted.invalid`, '198.51.100.1'],
    ]);
    // The audit log stays append-only for everything else.
    await expect(db.execute(sql`update organization_audit_events set action = 'x'`)).rejects.toThrow();
    await expect(db.execute(sql`update organization_audit_events set target_email = 'someone@example.com'`)).rejects.toThrow();
    await expect(db.execute(sql`update organization_audit_events set ip = '192.0.2.1'`)).rejects.toThrow();

    // Ten years after the end of the invoice's year, its billing name and address go too.
    clock.set(new Date('2040-12-31T23:00:00Z'));
    await runDeletionPurge(db, clock);
    expect((await db.select().from(schema.orders).where(eq(schema.orders.number, 'INV-VICTIM-1')))[0]!.billingAddress).not.toBeNull();
    expect(JSON.stringify(await rowsOf('wallet_whc_deposits'))).toContain(COUNTERPARTY);
    clock.set(new Date('2041-01-01T00:00:01Z'));
    await runDeletionPurge(db, clock);
    expect((await db.select().from(schema.orders).where(eq(schema.orders.number, 'INV-VICTIM-1')))[0]).toMatchObject({ billingAddress: null, number: 'INV-VICTIM-1', total: 1000 });
    const records = await Promise.all(['wallet_entries', 'wallet_partner_transfers', 'wallet_chain_withdrawals', 'wallet_whc_deposits'].map(rowsOf));
    expect(records.map((rows) => rows.length)).toEqual([1, 1, 1, 1]);
    expect(JSON.stringify(records)).not.toContain(COUNTERPARTY.slice(2));
    expect(JSON.stringify(records)).not.toContain('partner-account-1');
  });

  it('purges two accounts that name each other in an audit log at once (two connections on PostgreSQL)', async () => {
    const db = server.database.db;
    const due = new Date(clock.now().getTime() - DAY);
    const [first, second] = [randomUUID(), randomUUID()];
    const people = [first, second].map((id, index) => ({ id, email: `pair-${index}@example.com`, fullName: 'Pair', deletionRequestedAt: due, deletionDueAt: due }));
    await db.insert(schema.users).values(people);
    const organizationId = randomUUID();
    // Each is the actor of one event and the target of the other: purges that locked these rows in
    // two statements each could wait on one another.
    await db.insert(schema.organizationAuditEvents).values([
      { organizationId, action: 'member_removed', actorUserId: first, actorEmail: people[0]!.email, targetUserId: second, targetEmail: people[1]!.email, ip: '192.0.2.1' },
      { organizationId, action: 'member_removed', actorUserId: second, actorEmail: people[1]!.email, targetUserId: first, targetEmail: people[0]!.email, ip: '192.0.2.2' },
    ]);
    const other = server.database.url ? await openDatabase({ url: server.database.url }) : server.database;
    try {
      const counts = await Promise.all([runDeletionPurge(db, clock, { maxAccounts: 1 }), runDeletionPurge(other.db, clock, { maxAccounts: 1 })]);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2);
    } finally {
      if (other !== server.database) await other.close();
    }
    const events = await db.select().from(schema.organizationAuditEvents).where(eq(schema.organizationAuditEvents.organizationId, organizationId)).orderBy(schema.organizationAuditEvents.id);
    expect(events.map((event) => [event.actorEmail, event.targetEmail, event.ip])).toEqual([
      [`deleted-${first}@deleted.invalid`, `deleted-${second}@deleted.invalid`, null],
      [`deleted-${second}@deleted.invalid`, `deleted-${first}@deleted.invalid`, null],
    ]);
  });
});
