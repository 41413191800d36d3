import { describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { oidcModels } from '../../db/schema';
import { hotStatements } from './adapter-statements';

const database = fileDatabase();

/**
 * The find by id is one prepared statement for one model and one for three (adapter-statements.ts):
 * fewer than three models are padded with the last, more are asked three at a time. Whatever the
 * number asked, it answers exactly the rows of the models asked, each once, with its live grant.
 */
describe('the find by id among models', () => {
  it('answers the rows of the models asked, each once, for any number of models', async () => {
    const id = `find-models-${Date.now()}`;
    const grantId = `${id}-grant`;
    const stored = ['AccessToken', 'ClientCredentials', 'RefreshToken', 'AuthorizationCode', 'DeviceCode'];
    const expiresAt = new Date(Date.now() + 3600_000);
    await database.db.insert(oidcModels).values([
      ...stored.map((model) => ({ model, id, payload: { kind: model }, grantId, expiresAt })),
      { model: 'Grant', id: grantId, payload: { kind: 'Grant' }, expiresAt },
    ]);
    const { find } = hotStatements(database.db);

    const asked = [[], ['RefreshToken'], ['AccessToken', 'RefreshToken'], ['RefreshToken', 'AccessToken', 'Session'], stored.slice(0, 4), stored, [...stored, 'Session']];
    for (const models of asked) {
      const rows = await find.execute({ id, models });
      expect(rows.map((row) => row.model).sort(), models.join(', ')).toEqual(models.filter((model) => stored.includes(model)).sort());
      for (const row of rows) expect(row).toMatchObject({ payload: { kind: row.model }, grantPayload: { kind: 'Grant' }, consumedAt: null });
    }
  });
});
