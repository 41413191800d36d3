import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';

/**
 * The products' APIs (/v3/{product}_platform) as a relying party's access token reaches them:
 * the user, the support-chat identity, and the tokens they refuse.
 */
const rp = relyingPartyTestServer();
const { discover, signedInBrowser, signedInToProduct, codeFlow } = rp;

describe("the products' view of the user (access tokens on /v3/{product}_platform)", () => {
  const OTHER_CALLBACK = 'http://127.0.0.1:5179/other/callback';
  const pmUser = (product: string, token: string) => fetch(`${rp.origin}/v3/${product}_platform/pm/users/me`, { headers: { authorization: `Bearer ${token}` } });

  it("answers a product's access token on its own API and on userinfo; another product's API refuses it (401)", async () => {
    const locker = await discover('test-product', PRODUCT_SECRET);
    const other = await discover('test-other');
    const { browser, email } = await signedInBrowser();
    const lockerTokens = await codeFlow(locker, browser);
    const otherTokens = await codeFlow(other, browser, OTHER_CALLBACK);

    for (const product of ['locker', 'pwdmanager']) {
      const response = await pmUser(product, lockerTokens.access_token);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({ email, full_name: 'Test Person' });
    }
    expect((await oidc.fetchUserInfo(locker, lockerTokens.access_token, lockerTokens.claims()!.sub)).email).toBe(email);
    const refused = await pmUser('safechain', lockerTokens.access_token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'unauthorized' });

    expect((await pmUser('safechain', otherTokens.access_token)).status).toBe(200);
    expect((await pmUser('locker', otherTokens.access_token)).status).toBe(401);
    expect((await oidc.fetchUserInfo(other, otherTokens.access_token, otherTokens.claims()!.sub)).email).toBe(email);
  });

  it("answers the support-chat identity to a product's access token on its own API only", async () => {
    const { email, tokens } = await signedInToProduct();
    const chat = (product: string) => fetch(`${rp.origin}/v3/${product}_platform/pm/users/me/chatwoot`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const own = await chat('locker');
    expect(own.status).toBe(200);
    const identity = (await own.json()) as { email: string; identifier: string; user_hash: string };
    expect(identity.email).toBe(email);
    expect(identity.user_hash).toMatch(/^[0-9a-f]{64}$/);
    const refused = await chat('safechain');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'unauthorized' });
  });

  it("refuses a revoked or expired access token, a product back end's client-credentials token, and nonsense", async () => {
    const { config, browser, tokens: revoked } = await signedInToProduct();
    expect((await pmUser('locker', revoked.access_token)).status).toBe(200);
    await oidc.tokenRevocation(config, revoked.access_token);
    expect((await pmUser('locker', revoked.access_token)).status).toBe(401);

    const expiring = await codeFlow(config, browser);
    const { oidcModels } = await import('../../db/schema');
    const { and, eq } = await import('drizzle-orm');
    await rp.server.database.db
      .update(oidcModels)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oidcModels.model, 'AccessToken'), eq(oidcModels.id, expiring.access_token)));
    expect((await pmUser('locker', expiring.access_token)).status).toBe(401);

    const machine = await oidc.clientCredentialsGrant(config, {});
    expect((await pmUser('locker', machine.access_token)).status).toBe(401);
    expect((await pmUser('locker', 'x'.repeat(600))).status).toBe(401);
    expect((await pmUser('locker', 'not-a-token')).status).toBe(401);
  });
});
