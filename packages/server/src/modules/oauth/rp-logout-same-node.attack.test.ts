import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { deliverNotificationsLate } from '../../../test/late-notifications';
import { confirmLogout } from '../../../test/logout-form';
import { relyingPartyTestServer } from '../../../test/relying-party';
import { IDENTITY_CHANNEL } from '../sessions';

/**
 * A person signs out of a product with RP-initiated logout, which signs them out of the portal
 * too; whoever holds their portal session token tries it at once on the same node. The node
 * answers sessions from its identity cache and forgets one when the database's notification
 * of the change arrives; over PostgreSQL that comes on another connection, after the revoking
 * statement answered. The portal's own routes wait for it before answering (read-your-writes),
 * but the provider writes its answer itself, outside those hooks: the sign-out must hold on its
 * node from the moment the logout answers, not once the notification has caught up.
 *
 * The node's identity notifications arrive late here, on either database (PGlite's listen, the
 * feed's own pg connection): the real database and a real feed, behind as PostgreSQL's can be.
 */
deliverNotificationsLate(IDENTITY_CHANNEL);
const rp = relyingPartyTestServer();

const meStatus = async (token: string) => (await fetch(`${rp.origin}/v3/sso/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('a portal session ended by RP-initiated logout', () => {
  it('is refused on the node that ended it as soon as the logout answers', async () => {
    const { config, browser, token, tokens } = await rp.signedInToProduct();
    // Twice: the second answer comes from the node's identity cache.
    expect(await meStatus(token)).toBe(200);
    expect(await meStatus(token)).toBe(200);
    const question = await browser.request(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5179/' }).href);
    expect(question.status).toBe(200);
    await confirmLogout(browser, await question.text(), rp.origin);
    expect(await meStatus(token)).toBe(401);
  });
});
