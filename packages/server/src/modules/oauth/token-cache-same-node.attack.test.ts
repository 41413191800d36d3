import { describe, expect, it } from 'vitest';
import { deliverNotificationsLate } from '../../../test/late-notifications';
import { PASSWORD, PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';
import { OAUTH_CHANNEL } from './change-feed';

/**
 * A product's API introspects a token on the node that has just revoked it. The node keeps the
 * tokens it has just read (token-cache.ts) and forgets them when the database's notification of
 * their deletion arrives; over PostgreSQL that notification comes on another connection, after
 * the deleting statement has answered. The person's revocation must hold on its own node from
 * the moment its response leaves, not once the notification has caught up.
 *
 * The node's notifications of tokens and grants arrive late here, on either database (PGlite's
 * listen, the oauth feed's own pg connection): the real database and a real feed, behind as
 * PostgreSQL's can be. The identity feed stays on time: on PostgreSQL its read-your-writes
 * barrier waits on its own connection, which orders nothing on the oauth feed's.
 */
deliverNotificationsLate(OAUTH_CHANNEL);
const rp = relyingPartyTestServer();
const PRODUCT = `Basic ${Buffer.from(`test-product:${PRODUCT_SECRET}`).toString('base64')}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function activeOnRp(token: string): Promise<boolean> {
  const response = await rp.server.app.inject({ method: 'POST', url: '/oidc/token/introspection', headers: { ...FORM, authorization: PRODUCT }, payload: new URLSearchParams({ token }).toString() });
  expect(response.statusCode).toBe(200);
  return response.json<{ active: boolean }>().active;
}

/** Introspected twice: the second answer comes from the node's cache. */
async function kept(token: string) {
  expect(await activeOnRp(token)).toBe(true);
  expect(await activeOnRp(token)).toBe(true);
}

describe('a token revoked on the node that keeps it is inactive there as soon as the revocation answers', () => {
  it('the person revokes the app in Connected apps', async () => {
    const { tokens, token } = await rp.signedInToProduct();
    await kept(tokens.access_token);
    const revoked = await rp.server.app.inject({ method: 'DELETE', url: '/v3/sso/me/connected-apps/test-product', headers: { authorization: `Bearer ${token}` } });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    expect(await activeOnRp(tokens.access_token)).toBe(false);
  });

  it('the person signs out the session the app signed in on, from another session', async () => {
    const { tokens, email } = await rp.signedInToProduct();
    await kept(tokens.access_token);
    const other = (await rp.identity.signIn(email, PASSWORD)).json<{ token: string }>().token;
    const ended = await rp.server.app.inject({ method: 'POST', url: '/v3/sso/me/sessions/revoke-others', headers: { authorization: `Bearer ${other}` } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await activeOnRp(tokens.access_token)).toBe(false);
  });

  it('its app revokes it at the revocation endpoint', async () => {
    const { tokens } = await rp.signedInToProduct();
    await kept(tokens.access_token);
    const revoked = await rp.server.app.inject({ method: 'POST', url: '/oidc/token/revocation', headers: { ...FORM, authorization: PRODUCT }, payload: new URLSearchParams({ token: tokens.access_token }).toString() });
    expect(revoked.statusCode).toBe(200);
    expect(await activeOnRp(tokens.access_token)).toBe(false);
  });
});
