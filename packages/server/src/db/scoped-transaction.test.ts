import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/db-target';
import type { DatabaseHandle } from './client';
import { afterCommit, inOneTransaction, transactionScoped } from './scoped-transaction';

/**
 * Work asked to run after the commit (afterCommit) of an operator's action: it sees the change
 * committed, never runs for a rollback, and is done before the action's transaction resolves.
 */
let database: DatabaseHandle;
const rows = async () => Number((await database.db.execute<{ n: number }>(sql`select count(*)::int as n from after_commit_probe`)).rows[0]!.n);
const insert = () => database.db.execute(sql`insert into after_commit_probe values (1)`);

beforeAll(async () => {
  database = await freshDatabase();
  transactionScoped(database.db);
  await database.db.execute(sql`create table after_commit_probe (n int)`);
});
afterAll(() => database?.close());

describe('afterCommit', () => {
  it('runs at once outside a transaction', async () => {
    let ran = false;
    await afterCommit(async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it('runs after the action, once its change committed, before inOneTransaction resolves', async () => {
    await database.db.execute(sql`delete from after_commit_probe`);
    const seen: string[] = [];
    await inOneTransaction(database.db, async () => {
      await insert();
      await afterCommit(async () => {
        seen.push(`rows ${await rows()}`);
      });
      seen.push('action done');
    });
    seen.push('resolved');
    expect(seen).toEqual(['action done', 'rows 1', 'resolved']);
  });

  it('never runs when the transaction rolls back', async () => {
    await database.db.execute(sql`delete from after_commit_probe`);
    let ran = false;
    const failed = inOneTransaction(database.db, async () => {
      await insert();
      await afterCommit(async () => {
        ran = true;
      });
      throw new Error('the audit row could not be written');
    });
    await expect(failed).rejects.toThrow('the audit row could not be written');
    expect([ran, await rows()]).toEqual([false, 0]);
  });

  it('inside a nested transaction, waits for the outermost commit', async () => {
    await database.db.execute(sql`delete from after_commit_probe`);
    let ran = false;
    const failed = inOneTransaction(database.db, async () => {
      await inOneTransaction(database.db, async () => {
        await insert();
        await afterCommit(async () => {
          ran = true;
        });
      });
      expect(ran).toBe(false);
      throw new Error('the outer action failed');
    });
    await expect(failed).rejects.toThrow('the outer action failed');
    expect([ran, await rows()]).toEqual([false, 0]);
  });

  it('never runs for a nested transaction that rolled back, though the outer one commits', async () => {
    await database.db.execute(sql`delete from after_commit_probe`);
    const ran: string[] = [];
    // A nested inOneTransaction, and a plain transaction opened inside the scope (a savepoint too):
    // each fails, the outer action goes on and commits.
    const nested = [
      (work: () => Promise<void>) => inOneTransaction(database.db, work),
      (work: () => Promise<void>) => database.db.transaction(() => work()),
    ];
    await inOneTransaction(database.db, async () => {
      for (const [index, open] of nested.entries()) {
        await open(async () => {
          await insert();
          await afterCommit(async () => void ran.push(`rolled back ${index}`));
          throw new Error('the nested change failed');
        }).catch(() => undefined);
      }
      await database.db.transaction(async () => {
        await afterCommit(async () => void ran.push('committed'));
      });
    });
    expect([ran, await rows()]).toEqual([['committed'], 0]);
  });
});

