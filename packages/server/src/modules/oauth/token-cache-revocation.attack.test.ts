import { describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { createAdapterFactory } from './adapter';
import { tokenCache } from './token-cache';

const database = fileDatabase();

/**
 * A token revoked on this node while the product's API introspects it on the same node: reads
 * that start as the revocation forgets the token, and answer before its delete commits, must not
 * put it back in the cache once the revocation has answered. The database's notification of the
 * delete would forget it too, but over PostgreSQL it comes later, on another connection: this
 * feed is live and delivers none, as one that has not caught up yet.
 */
describe('a token revoked on this node while it is being read', () => {
  it('is not found once the revocation has answered, whatever the reads in between kept', async () => {
    const tokens = tokenCache();
    tokens.follow({ live: true, close: async () => undefined });
    const factory = createAdapterFactory(database.db, { tokens, currentRequest: () => undefined });
    const accessTokens = factory.adapterFor('AccessToken');
    for (let round = 0; round < 20; round++) {
      const id = `revoked-while-read-${round}-${Date.now()}`;
      await accessTokens.upsert(id, { jti: id, kind: 'AccessToken', clientId: 'test-product', accountId: 'someone', exp: Math.floor(Date.now() / 1000) + 600 }, 600);
      let revoked = false;
      const revocation = accessTokens.destroy(id).then(() => (revoked = true));
      const reads: Array<Promise<unknown>> = [];
      while (!revoked) {
        reads.push(accessTokens.find(id));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await revocation;
      expect(await accessTokens.find(id), `round ${round}`).toBeUndefined();
      await Promise.all(reads);
      expect(await accessTokens.find(id), `round ${round}, the reads settled`).toBeUndefined();
    }
  });
});
