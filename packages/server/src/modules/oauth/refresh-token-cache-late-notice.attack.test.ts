import { describe, expect, it } from 'vitest';
import { activeForProduct, productRefresh } from '../../../test/product-token-endpoint';
import { deliverNotificationsLate } from '../../../test/late-notifications';
import { PASSWORD, relyingPartyTestServer } from '../../../test/relying-party';
import { OAUTH_CHANNEL } from './change-feed';

/**
 * A node keeps the refresh tokens it has just read (token-cache.ts) and answers one from there to
 * the refresh grant, whose conditional consume is the authority: a token the portal deleted on
 * another node (its app revoked, its session signed out) is refused on the node that keeps it
 * before that deletion's notice arrives there, and of two uses of one token on two nodes at
 * once exactly one gets tokens. The nodes' notices of tokens and grants arrive late here (PGlite's
 * listen, the feed's pg connection), later than the steps of each test.
 */
deliverNotificationsLate(OAUTH_CHANNEL, 3000);
const rp = relyingPartyTestServer({ secondNode: true });

/** A person signed in to the product, whose refresh token the second node has read (so keeps). */
async function keptOnSecond() {
  const signedIn = await rp.signedInToProduct();
  expect(await activeForProduct(rp.second, signedIn.tokens.refresh_token!)).toBe(true);
  return signedIn;
}

describe('a refresh token kept by a node, deleted by the portal on the other before its notice arrives', () => {
  it('the person revokes the app in Connected apps: refused here', async () => {
    const { tokens, token } = await keptOnSecond();
    const revoked = await rp.server.app.inject({ method: 'DELETE', url: '/v3/sso/me/connected-apps/test-product', headers: { authorization: `Bearer ${token}` } });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    expect(await productRefresh(rp.second, tokens.refresh_token!)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('the person signs out the session the app signed in on, from another session: refused here', async () => {
    const { tokens, email } = await keptOnSecond();
    const other = (await rp.identity.signIn(email, PASSWORD)).json<{ token: string }>().token;
    const ended = await rp.server.app.inject({ method: 'POST', url: '/v3/sso/me/sessions/revoke-others', headers: { authorization: `Bearer ${other}` } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await productRefresh(rp.second, tokens.refresh_token!)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });
});

describe('one refresh token used on both nodes at once, each keeping it', () => {
  it('one use gets tokens; the other is refused and revokes them', async () => {
    const { tokens } = await keptOnSecond();
    const token = tokens.refresh_token!;
    // The first node keeps it too (it read it from the database).
    expect(await activeForProduct(rp.server, token)).toBe(true);
    const uses = await Promise.all([productRefresh(rp.server, token), productRefresh(rp.second, token)]);
    expect(uses.map((use) => use.status).sort()).toEqual([200, 400]);
    const winner = uses.find((use) => use.status === 200)!;
    expect(uses.find((use) => use.status === 400)).toMatchObject({ error: 'invalid_grant' });
    // The reuse detection revoked the grant: what the winner got is refused on either node.
    expect(await activeForProduct(rp.server, winner.access_token!)).toBe(false);
    expect(await productRefresh(rp.second, winner.refresh_token!)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(await productRefresh(rp.server, winner.refresh_token!)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });
});
