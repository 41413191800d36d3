import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientCredentialsRow } from '../../../test/client-credentials-row';
import { fileDatabase } from '../../../test/db-target';
import { oidcModels } from '../../db/schema';
import { hotStatements } from './adapter-statements';

const database = fileDatabase();


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
    const refused = clientCredentialsRow(`refused-${stamp}`, 'nul \u0000 here');
    const results = await Promise.allSettled([
      upsert.execute([clientCredentialsRow(`in-flight-${stamp}`)]),
      upsert.execute([clientCredentialsRow(good[0]!)]),
      upsert.execute([refused]),
      upsert.execute([clientCredentialsRow(good[1]!)]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const stored = await database.db.select({ id: oidcModels.id }).from(oidcModels).where(inArray(oidcModels.id, [...good, `refused-${stamp}`]));
    expect(stored.map((row) => row.id).sort()).toEqual([...good].sort());
  });

  it('keeps a value that looks like more of the document as the value it is: one row, stored exactly', async () => {
    const { upsert } = hotStatements(database.db);
    const id = `quoted-"\\-${Date.now()}`;
    // A scope or claim a client chose, shaped to close the row and open another in the statement's JSON document.
    const scope = `x"},{"model":"Grant","id":"injected-${id}","payload":{}}] \\ é 🔑`;
    await upsert.execute([{ ...clientCredentialsRow(id, scope), clientId: 'a "quoted" client' }]);
    const rows = await database.db.select().from(oidcModels).where(inArray(oidcModels.id, [id, `injected-${id}`]));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'ClientCredentials', id, clientId: 'a "quoted" client', grantId: null });
    expect(rows[0]!.payload).toEqual({ jti: id, kind: 'ClientCredentials', clientId: 'test-product', scope });
  });
});
