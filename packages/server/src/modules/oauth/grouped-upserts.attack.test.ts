import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { oidcModels } from '../../db/schema';
import { hotStatements } from './adapter-statements';

const database = fileDatabase();

/** One client-credentials token as the upsert statement takes it (parallel arrays of one row). */
const token = (id: string, scope = 'moderators') => ({
  model: ['ClientCredentials'],
  id: [id],
  payload: [JSON.stringify({ jti: id, kind: 'ClientCredentials', clientId: 'test-product', scope })],
  grantId: [null],
  userCode: [null],
  uid: [null],
  accountId: [null],
  clientId: ['test-product'],
  sessionUid: [null],
  expiresAt: [new Date(Date.now() + 600_000).toISOString()],
});

/**
 * The rows of concurrent requests go to the database in one statement (grouped-upserts.ts). An
 * attacker sends a request whose row the database refuses (jsonb takes no NUL character, which a
 * request parameter can carry into a payload) while other people's requests end: theirs must
 * still be stored and answered, only the attacker's fails.
 */
describe('a row the database refuses, grouped with others', () => {
  it('fails its own request only: the others are stored and answered', async () => {
    const { upsert } = hotStatements(database.db);
    const stamp = Date.now();
    const good = [`good-a-${stamp}`, `good-b-${stamp}`];
    const refused = token(`refused-${stamp}`, 'nul \u0000 here');
    const results = await Promise.allSettled([
      upsert.execute(token(`in-flight-${stamp}`)),
      upsert.execute(token(good[0]!)),
      upsert.execute(refused),
      upsert.execute(token(good[1]!)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const stored = await database.db.select({ id: oidcModels.id }).from(oidcModels).where(inArray(oidcModels.id, [...good, `refused-${stamp}`]));
    expect(stored.map((row) => row.id).sort()).toEqual([...good].sort());
  });
});
