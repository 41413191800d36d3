import { PGlite } from '@electric-sql/pglite';
import * as oidc from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/browser';
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
const NOTIFICATION_DELAY_MS = 300;
const late = <T extends unknown[]>(deliver: (...args: T) => void) => (...args: T) => void setTimeout(() => deliver(...args), NOTIFICATION_DELAY_MS);
const pgliteListen = PGlite.prototype.listen;
const pgEmit = pg.Client.prototype.emit;
// Registered before the server's own beforeAll, so its node listens through the late delivery.
beforeAll(() => {
  PGlite.prototype.listen = function (this: PGlite, channel: string, callback: (payload: string) => void, ...rest: unknown[]) {
    return (pgliteListen as (...args: unknown[]) => ReturnType<PGlite['listen']>).call(this, channel, channel === IDENTITY_CHANNEL ? late(callback) : callback, ...rest);
  };
  pg.Client.prototype.emit = function (this: pg.Client, event: string | symbol, ...args: unknown[]) {
    if (event !== 'notification' || (args[0] as pg.Notification).channel !== IDENTITY_CHANNEL) return pgEmit.call(this, event, ...args);
    late(() => pgEmit.call(this, event, ...args))();
    return true;
  };
});
afterAll(() => {
  PGlite.prototype.listen = pgliteListen;
  pg.Client.prototype.emit = pgEmit;
});
const rp = relyingPartyTestServer({ backchannelLogout: true });

const meStatus = async (token: string) => (await fetch(`${rp.origin}/v3/sso/me`, { headers: { authorization: `Bearer ${token}` } })).status;

/** Answers yes in `browser` to the provider's logout form (`html`, its page). */
async function confirmLogout(browser: TestBrowser, html: string): Promise<void> {
  const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1]!;
  const action = html.match(/action="([^"]+)"/)![1]!;
  await browser.walk(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: rp.origin },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
}

describe('a portal session ended by RP-initiated logout', () => {
  it('is refused on the node that ended it as soon as the logout answers', async () => {
    const { config, browser, token, tokens } = await rp.signedInToProduct();
    // Twice: the second answer comes from the node's identity cache.
    expect(await meStatus(token)).toBe(200);
    expect(await meStatus(token)).toBe(200);
    const question = await browser.request(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5179/' }).href);
    expect(question.status).toBe(200);
    await confirmLogout(browser, await question.text());
    expect(await meStatus(token)).toBe(401);
  });
});
