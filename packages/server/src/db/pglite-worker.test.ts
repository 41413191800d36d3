import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';
import { migrate } from './migrate';
import { users } from './schema';

/** PGlite opened from a data folder, as the server opens it: in a worker thread. */
let dataDir: string;
let database: DatabaseHandle;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-worker-'));
  database = await openDatabase({ dataDir });
  await migrate(database);
}, 60_000);
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const person = (id = randomUUID()) => ({ id, email: `${id}@example.com`, fullName: 'Worker', createdAt: new Date('2026-01-02T03:04:05.678Z'), updatedAt: new Date() });

describe('PGlite in a worker thread', () => {
  it('leaves the server thread free while the database works', async () => {
    // pg_sleep blocks the thread PGlite runs on: timers of this thread still fire meanwhile. On
    // the same thread none would fire until the sleep ends (one at most, after it); a busy CI
    // machine (three test processes on two cores) once let only 3 of 25 fire in half a second,
    // so the sleep is a second long and 5 of its 50 are enough to tell the two apart.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    await database.db.execute(sql`select pg_sleep(1)`);
    clearInterval(timer);
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('runs on a thread named pglite, as /proc shows it (the bench reads its CPU by that name)', () => {
    const names = readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
    expect(names).toContain('pglite');
  });

  it('round-trips rows, and keeps a transaction together or not at all', async () => {
    const kept = person();
    await database.db.transaction(async (tx) => {
      await tx.insert(users).values(kept);
      expect((await tx.select().from(users).where(eq(users.id, kept.id)))[0]?.createdAt.toISOString()).toBe('2026-01-02T03:04:05.678Z');
    });
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.id, kept.id))).toEqual([{ id: kept.id }]);
    const undone = person();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(users).values(undone);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await database.db.select().from(users).where(eq(users.id, undone.id))).toEqual([]);
  });

  it("answers PostgreSQL's error fields (code, constraint), and the transaction after a failed statement rolls back", async () => {
    const first = person();
    await database.db.insert(users).values(first);
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.insert(users).values({ ...person(), email: first.email });
      })
      .catch((error: { cause?: { code?: string; constraint?: string } }) => error.cause);
    expect(failure).toMatchObject({ code: '23505' });
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it('runs transactions one at a time: parallel read-modify-writes lose nothing', async () => {
    const counter = person();
    await database.db.insert(users).values({ ...counter, fullName: '0' });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.transaction(async (tx) => {
          const [row] = await tx.select({ fullName: users.fullName }).from(users).where(eq(users.id, counter.id));
          await tx.update(users).set({ fullName: String(Number(row!.fullName) + 1) }).where(eq(users.id, counter.id));
        }),
      ),
    );
    expect((await database.db.select({ fullName: users.fullName }).from(users).where(eq(users.id, counter.id)))[0]?.fullName).toBe('20');
  });

  it('delivers a notification before the statement that sent it answers', async () => {
    const heard: string[] = [];
    const subscription = await database.listen('worker_test', { message: (payload) => void heard.push(payload), gap: () => undefined });
    await database.db.execute(sql`select pg_notify('worker_test', 'hello')`);
    expect(heard).toEqual(['hello']);
    await subscription.close();
    await database.db.execute(sql`select pg_notify('worker_test', 'again')`);
    expect(heard).toEqual(['hello']);
  });

  it('keeps what it wrote in its folder when closed, for the next process', async () => {
    const lasting = person();
    await database.db.insert(users).values(lasting);
    await database.close();
    database = await openDatabase({ dataDir });
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.id, lasting.id))).toEqual([{ id: lasting.id }]);
  }, 60_000);
});
