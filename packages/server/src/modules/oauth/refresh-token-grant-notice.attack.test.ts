import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { oidcModels } from '../../db/schema';
import { createAdapterFactory } from './adapter';
import { tokenCache } from './token-cache';

const database = fileDatabase();

/**
 * A refresh grant on this node reads its token with its grant; while it runs, another node
 * deletes that grant but not the rotated token this request stores (a revocation whose delete of
 * the grant's tokens took its snapshot before this request's write committed; the provider's
 * revoke helper, which leaves refresh tokens when the revoking client may not use them), and the
 * deletion's notice reaches this node before the request's writes are made. The new refresh
 * token must not be kept with the grant read before that notice (a read that overlaps a change
 * is not kept): a later refresh grant would hand the deleted grant to the provider, where reading
 * the token from the database finds no grant and is refused.
 */
describe('a grant deleted on another node while a refresh grant here reads it', () => {
  it('the refresh token that grant issues is not answered with the deleted grant afterwards', async () => {
    const tokens = tokenCache();
    tokens.follow({ live: true, close: async () => undefined });
    let request: object | undefined;
    const factory = createAdapterFactory(database.db, { tokens, currentRequest: () => request });
    const grants = factory.adapterFor('Grant');
    const refreshTokens = factory.adapterFor('RefreshToken');
    const refreshGrant = () => ({ oidc: { route: 'token', params: { grant_type: 'refresh_token' } } });
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const grantId = `grant-${Date.now()}`;
    const token = (jti: string) => ({ jti, kind: 'RefreshToken', grantId, clientId: 'test-product', accountId: 'someone', scope: 'openid', exp });

    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'someone', clientId: 'test-product', openid: { scope: 'openid' }, exp }, 3600);
    await refreshTokens.upsert('old-refresh', token('old-refresh'), 3600);

    // The refresh grant: its token, with its grant, from the database.
    request = refreshGrant();
    expect(await refreshTokens.find('old-refresh')).toMatchObject({ grantId });
    expect(await grants.find(grantId)).toMatchObject({ accountId: 'someone' });
    // The other node deletes the grant; its notice arrives here (change-feed: tokens.forgetGrant).
    await database.db.delete(oidcModels).where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId)));
    tokens.forgetGrant(grantId);
    // The grant's writes: the old token used, the rotated one stored.
    await refreshTokens.consume('old-refresh');
    await refreshTokens.upsert('new-refresh', token('new-refresh'), 3600);
    await factory.flushRequest(request);

    // The next refresh grant here: the database has the token but no grant for it.
    request = refreshGrant();
    expect(await refreshTokens.find('new-refresh')).toMatchObject({ grantId });
    expect(await grants.find(grantId), 'the grant deleted, its notice received').toBeUndefined();
    await factory.flushRequest(request);
  });
});
