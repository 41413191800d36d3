import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDatabase, testDatabaseKind } from '../../test/db-target';
import { users } from './schema';

const database = fileDatabase();

describe('database client', () => {
  it('round-trips timestamps to the millisecond, in and out of transactions', async () => {
    const id = randomUUID();
    const at = new Date('2026-11-21T04:41:26.123Z');
    await database.db.transaction(async (tx) => {
      await tx.insert(users).values({ id, email: `${id}@example.com`, fullName: 'Clock', createdAt: at, updatedAt: at });
      const [inside] = await tx.select().from(users).where(eq(users.id, id));
      expect(inside!.createdAt.toISOString()).toBe(at.toISOString());
    });
    const [row] = await database.db.select().from(users).where(eq(users.id, id));
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(row!.createdAt.toISOString()).toBe(at.toISOString());
    expect(row!.activatedAt).toBeNull();
  });

  it('rolls a failed transaction back', async () => {
    const id = randomUUID();
    const now = new Date();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(users).values({ id, email: `${id}@example.com`, fullName: 'Gone', createdAt: now, updatedAt: now });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await database.db.select().from(users).where(eq(users.id, id))).toEqual([]);
  });

  it.runIf(testDatabaseKind() === 'postgres')('survives its connections being cut, and connects again', async () => {
    await Promise.all([database.ping(), database.ping(), database.ping()]);
    await database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    // Idle clients whose backends were cut are discarded; the process goes on and the next queries connect again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect.poll(async () => database.ping().then(() => 'up', () => 'down'), { timeout: 5000 }).toBe('up');
  });
});
