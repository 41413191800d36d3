import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { fileDatabase } from '../../../test/db-target';
import { sessions, users } from '../../db/schema';
import { sessionQueries } from './queries';
import { deleteEndedSessions } from './retention';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-28T12:00:00Z');
const RETENTION = { retentionDays: 90, idleTimeoutSeconds: 7 * 24 * 60 * 60 };

describe('deleting sessions that ended long ago', () => {
  const database = fileDatabase();

  async function person() {
    const id = randomUUID();
    await database.db.insert(users).values({ id, email: `retention-${randomBytes(4).toString('hex')}@example.com`, fullName: 'Retention', createdAt: NOW, updatedAt: NOW });
    return id;
  }

  /** A session created `daysAgo`, active until `activeDaysAgo`, expiring 30 days after creation; revoked `revokedDaysAgo` when given. */
  async function session(userId: string, deviceId: string | null, days: { created: number; active?: number; revoked?: number }) {
    const at = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY);
    const id = randomUUID();
    await database.db.insert(sessions).values({
      id,
      userId,
      tokenHash: randomBytes(32).toString('hex'),
      deviceId,
      ip: '203.0.113.7',
      location: 'Hanoi, Vietnam',
      createdAt: at(days.created),
      lastActiveAt: at(days.active ?? days.created),
      expiresAt: at(days.created - 30),
      revokedAt: days.revoked === undefined ? null : at(days.revoked),
    });
    return id;
  }

  const left = async (userId: string) => (await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).map((row) => row.id).sort();

  it('deletes what ended more than the retention ago, keeping the newest session of each device', async () => {
    const userId = await person();
    const expiredLongAgo = await session(userId, 'laptop', { created: 200 });
    const revokedLongAgo = await session(userId, 'laptop', { created: 110, revoked: 100 });
    const idleRecently = await session(userId, 'laptop', { created: 99, active: 96 }); // idle since 89 days: within the retention
    const idleLongAgo = await session(userId, 'laptop', { created: 99, active: 98 }); // idle since 91 days
    const revokedRecently = await session(userId, 'laptop', { created: 60, revoked: 50 });
    const live = await session(userId, 'laptop', { created: 1 });
    const phoneOnlySession = await session(userId, 'phone', { created: 400 });
    const noDeviceOld = await session(userId, null, { created: 300 });
    const noDeviceNewest = await session(userId, null, { created: 200 });

    expect(await deleteEndedSessions(database.db, manualClock(NOW), RETENTION)).toBe(4);
    expect(await left(userId)).toEqual([idleRecently, revokedRecently, live, phoneOnlySession, noDeviceNewest].sort());
    expect(await left(userId)).not.toContain(expiredLongAgo);
    expect(await left(userId)).not.toContain(revokedLongAgo);
    expect(await left(userId)).not.toContain(noDeviceOld);
    expect(await left(userId)).not.toContain(idleLongAgo);

    // Twice is once: nothing else qualifies.
    expect(await deleteEndedSessions(database.db, manualClock(NOW), RETENTION)).toBe(0);
  });

  it('keeps the new-device answers a sign-in reads as they were', async () => {
    const userId = await person();
    await session(userId, 'laptop', { created: 400 });
    await session(userId, 'laptop', { created: 300 });
    await session(userId, 'phone', { created: 500, revoked: 499 });
    await deleteEndedSessions(database.db, manualClock(NOW), RETENTION);
    expect(await left(userId)).toHaveLength(2);

    const queries = sessionQueries(database.db);
    const insert = (deviceId: string) =>
      queries.insert({ id: randomUUID(), userId, tokenHash: randomBytes(32).toString('hex'), deviceId, browser: null, device: null, ip: null, location: null, createdAt: NOW, lastActiveAt: NOW, expiresAt: new Date(NOW.getTime() + 30 * DAY), amr: ['pwd'] });
    expect(await insert('laptop')).toEqual({ hadSessions: true, deviceSeen: true });
    expect(await insert('phone')).toEqual({ hadSessions: true, deviceSeen: true });
    expect(await insert('tablet')).toEqual({ hadSessions: true, deviceSeen: false });
  });

  it('works through a backlog in batches, up to its bound per run, and a retention of 0 keeps everything', async () => {
    await deleteEndedSessions(database.db, manualClock(NOW), RETENTION); // what the other tests left behind
    const userId = await person();
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      id: randomUUID(),
      userId,
      tokenHash: randomBytes(32).toString('hex'),
      deviceId: 'script',
      createdAt: new Date(NOW.getTime() - (400 + i) * DAY),
      lastActiveAt: new Date(NOW.getTime() - (400 + i) * DAY),
      expiresAt: new Date(NOW.getTime() - (370 + i) * DAY),
    }));
    for (let i = 0; i < rows.length; i += 500) await database.db.insert(sessions).values(rows.slice(i, i + 500));

    expect(await deleteEndedSessions(database.db, manualClock(NOW), { ...RETENTION, retentionDays: 0 })).toBe(0);
    expect(await deleteEndedSessions(database.db, manualClock(NOW), RETENTION, { maxRows: 1_200 })).toBe(1_200);
    expect(await deleteEndedSessions(database.db, manualClock(NOW), RETENTION)).toBe(1_299);
    expect(await left(userId)).toEqual([rows[0]!.id]);
  });

  it('two nodes sweeping at once delete each row once and keep each device its newest', async () => {
    await deleteEndedSessions(database.db, manualClock(NOW), RETENTION);
    const userId = await person();
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(await session(userId, i % 2 ? 'laptop' : 'phone', { created: 400 + i }));
    const swept = await Promise.all([1, 2, 3].map(() => deleteEndedSessions(database.db, manualClock(NOW), RETENTION)));
    expect(swept.reduce((a, b) => a + b, 0)).toBe(298);
    expect(await left(userId)).toEqual([ids[0]!, ids[1]!].sort());
  });
});
