import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { securityAlerts, sessions, users } from '../../db/schema';
import { sessionQueries } from './queries';

const DEVICES = ['laptop', 'phone', 'tablet'];
const HISTORY = 3_000;

describe('the session insert, for a person with a long history', () => {
  const database = fileDatabase();
  const userId = randomUUID();

  beforeAll(async () => {
    const now = new Date();
    await database.db.insert(users).values({ id: userId, email: `history-${randomBytes(4).toString('hex')}@example.com`, fullName: 'Long History', createdAt: now, updatedAt: now });
    // Sessions stay for the device history (ended ones for SESSION_RETENTION_DAYS): thousands for one person is what an automated client leaves in months.
    const rows = Array.from({ length: HISTORY }, (_, i) => ({
      id: randomUUID(),
      userId,
      tokenHash: randomBytes(32).toString('hex'),
      deviceId: DEVICES[i % DEVICES.length]!,
      createdAt: now,
      lastActiveAt: now,
      expiresAt: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await database.db.insert(sessions).values(rows.slice(i, i + 500));
    await database.db.execute(sql`analyze sessions`);
  }, 60_000);

  it('tells whether the person and the device were seen before', async () => {
    const queries = sessionQueries(database.db);
    const now = new Date();
    const session = (deviceId: string) => ({
      id: randomUUID(),
      userId,
      tokenHash: randomBytes(32).toString('hex'),
      deviceId,
      browser: null,
      device: null,
      ip: null,
      location: null,
      createdAt: now,
      lastActiveAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
      amr: ['pwd'],
    });
    expect(await queries.insert(session('phone'))).toEqual({ hadSessions: true, deviceSeen: true });
    expect(await queries.insert(session('new-desktop'))).toEqual({ hadSessions: true, deviceSeen: false });
    expect(await queries.insert(session('new-desktop'))).toEqual({ hadSessions: true, deviceSeen: true });
  });

  it("answers 'seen this device before?' with one index probe, not by reading the person's every session", async () => {
    // The question the insert's RETURNING asks, for a device never seen (the worst case: nothing ends the scan early).
    const { rows } = await database.db.execute<{ 'QUERY PLAN': unknown }>(
      sql`explain (format json) select exists(select 1 from ${sessions} earlier where earlier.user_id = ${userId} and earlier.device_id = ${'never-seen'})`,
    );
    const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
    expect(plan).toContain('sessions_user_device_idx');
    expect(plan).toMatch(/"Index Cond":"\(\(user_id = .*\) AND \(device_id = .*\)\)"/);
    expect(plan).not.toContain('"Filter"');
  });
});

describe('the session insert with the alerts it means', () => {
  const database = fileDatabase();
  const userId = randomUUID();

  beforeAll(async () => {
    const now = new Date();
    await database.db.insert(users).values({ id: userId, email: `alerts-${randomBytes(4).toString('hex')}@example.com`, fullName: 'Alerted', createdAt: now, updatedAt: now });
  });

  const session = (deviceId: string) => {
    const now = new Date();
    return { id: randomUUID(), userId, tokenHash: randomBytes(32).toString('hex'), deviceId, browser: 'Chrome 130', device: 'Linux', ip: '192.0.2.7', location: null, createdAt: now, lastActiveAt: now, expiresAt: new Date(now.getTime() + 60_000), amr: ['pwd'] };
  };
  const alerts = { brand: 'platform', mailTo: 'owner@example.com', always: [], ifNewDevice: { kind: 'new_device_sign_in', detail: 'Chrome 130 · Linux' } };
  const alertsOf = (sessionId: string) =>
    database.db.select({ kind: securityAlerts.kind, brand: securityAlerts.brand, detail: securityAlerts.detail, mailTo: securityAlerts.mailTo }).from(securityAlerts).where(eq(securityAlerts.sessionId, sessionId));

  it('writes the new-device alert only for a device never seen on an account that had sessions', async () => {
    const queries = sessionQueries(database.db);
    const first = session('laptop-0001');
    expect(await queries.insert(first, alerts)).toEqual({ hadSessions: false, deviceSeen: false });
    expect(await alertsOf(first.id)).toEqual([]);
    const returning = session('laptop-0001');
    expect(await queries.insert(returning, alerts)).toEqual({ hadSessions: true, deviceSeen: true });
    expect(await alertsOf(returning.id)).toEqual([]);
    const fresh = session('phone-000002');
    expect(await queries.insert(fresh, alerts)).toEqual({ hadSessions: true, deviceSeen: false });
    expect(await alertsOf(fresh.id)).toEqual([{ kind: 'new_device_sign_in', brand: 'platform', detail: 'Chrome 130 · Linux', mailTo: 'owner@example.com' }]);
  });

  it('writes the alerts a sign-in always means, whatever the device', async () => {
    const queries = sessionQueries(database.db);
    const known = session('laptop-0001');
    await queries.insert(known, { ...alerts, always: [{ kind: 'deletion_cancelled' }, { kind: 'social_linked', detail: 'Google' }] });
    const written = await alertsOf(known.id);
    expect(written.map(({ kind, detail }) => ({ kind, detail })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'deletion_cancelled', detail: null },
      { kind: 'social_linked', detail: 'Google' },
    ]);
  });

  it('writes neither the session nor its alerts when the statement fails', async () => {
    const queries = sessionQueries(database.db);
    const duplicate = session('tablet-00003');
    await queries.insert(duplicate);
    // The same token hash again (unique): the statement fails as a whole.
    const again = { ...session('tablet-00004'), tokenHash: duplicate.tokenHash };
    await expect(queries.insert(again, { ...alerts, always: [{ kind: 'deletion_cancelled' }] })).rejects.toThrow();
    expect(await database.db.select().from(sessions).where(eq(sessions.id, again.id))).toEqual([]);
    expect(await alertsOf(again.id)).toEqual([]);
  });
});
