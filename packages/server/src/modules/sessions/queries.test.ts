import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { sessions, users } from '../../db/schema';
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
