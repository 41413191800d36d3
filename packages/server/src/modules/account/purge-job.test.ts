import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { startTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { DELETION_JOB_INTERVAL_SECONDS: '1' } });
});
afterAll(() => server.close());

describe('the scheduled deletion purge', () => {
  it('starts with the app and purges accounts past their date on its own', async () => {
    const now = Date.now();
    const due = { id: randomUUID(), email: 'due@example.com', fullName: 'Due', deletionRequestedAt: new Date(now - 15 * 86_400_000), deletionDueAt: new Date(now - 86_400_000) };
    const notYet = { id: randomUUID(), email: 'not-yet@example.com', fullName: 'Not yet', deletionRequestedAt: new Date(now), deletionDueAt: new Date(now + 86_400_000) };
    await server.database.db.insert(users).values([due, notYet]);
    const deadline = Date.now() + 10_000;
    let row = (await server.database.db.select().from(users).where(eq(users.id, due.id)))[0]!;
    while (!row.purgedAt && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = (await server.database.db.select().from(users).where(eq(users.id, due.id)))[0]!;
    }
    expect(row).toMatchObject({ email: `deleted-${due.id}@deleted.invalid`, fullName: 'Deleted user' });
    expect((await server.database.db.select().from(users).where(eq(users.id, notYet.id)))[0]!.purgedAt).toBeNull();
  });
});
