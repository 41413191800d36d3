import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { CALLBACK, PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';
import { thirdPartyClients } from './clients';
import { ACR_SINGLE } from './portal-identity';

/**
 * A plain authorization request from a browser signed in to the portal is signed in by the
 * request itself, with no interaction (portal-sign-on.ts). Asked as an attacker: can the
 * request choose whom it signs in, or how strongly; does an ended portal session, another
 * person's provider session, an outside app without consent, or a request that asks anything
 * of the sign-in get through the shortcut?
 */
const rp = relyingPartyTestServer();
const SCOPE = 'openid email profile offline_access';

/** Walks one authorization request in `browser`: the paths it took, where it stopped, and its verifier. */
const walkAuthorization = (config: oidc.Configuration, browser: TestBrowser, extra: Record<string, string> = {}) => rp.walkAuthorization(config, browser, SCOPE, extra);
const browserWith = (token: string) => rp.browserWith(token);

/** The ID token's sign-in claims of a code the walk ended with. */
async function signInClaims(config: oidc.Configuration, walk: { landed: URL; verifier: string }) {
  expect(walk.landed.searchParams.get('code'), walk.landed.href).toBeTruthy();
  const claims = (await oidc.authorizationCodeGrant(config, walk.landed, { pkceCodeVerifier: walk.verifier })).claims()!;
  return { sub: claims.sub, email: claims.email, acr: claims.acr, amr: claims.amr, auth_time: claims.auth_time };
}

const wentToInteraction = (visited: string[]) => visited.some((path) => path.startsWith('/o/interaction/'));

describe('signing in from the portal session within the authorization request', () => {
  it("signs in the portal session's own person, as the interaction would, whatever login_hint names", async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { token } = await rp.signedInBrowser();
    const { email: otherEmail } = await rp.signedInBrowser();
    // The sign-in time must be the portal session's, not the authorization's: a second later.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const plain = await walkAuthorization(config, browserWith(token), { login_hint: otherEmail });
    expect(plain.visited).toEqual(['/o/authorize']);
    const shortcut = await signInClaims(config, plain);

    // The same person through the interaction (max_age: the interaction route weighs it): the same claims.
    const throughInteraction = await walkAuthorization(config, browserWith(token), { max_age: '3600' });
    expect(wentToInteraction(throughInteraction.visited), throughInteraction.visited.join(' -> ')).toBe(true);
    expect(shortcut).toEqual(await signInClaims(config, throughInteraction));
    expect(shortcut.email).not.toBe(otherEmail);
    expect(shortcut.acr).toBe(ACR_SINGLE);
  });

  it('signs in no one without a live portal session: none, an unknown one, one signed out', async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { token } = await rp.signedInBrowser();
    expect((await fetch(`${rp.origin}/v3/sso/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBeLessThan(300);
    for (const browser of [new TestBrowser(rp.origin), browserWith('not-a-session-token'), browserWith(token)]) {
      const { landed, visited } = await walkAuthorization(config, browser);
      expect({ at: landed.pathname, code: landed.searchParams.get('code') }, visited.join(' -> ')).toEqual({ at: '/login', code: null });
    }
  });

  it('keeps the consent of an outside app, and the interaction for a request that asks anything of the sign-in', async () => {
    const app = await thirdPartyClients(rp.server.database.db).add({ name: 'Sign-on Outside App', redirectUris: [CALLBACK], site: 'https://outside.example' });
    const outside = await rp.discover(app.clientId, app.clientSecret);
    const product = await rp.discover('test-product', PRODUCT_SECRET);
    const { token } = await rp.signedInBrowser();

    const consent = await walkAuthorization(outside, browserWith(token));
    expect({ at: consent.landed.pathname, asked: consent.landed.searchParams.has('interaction') }).toEqual({ at: '/o/authorize', asked: true });

    // A fresh sign-in, a second factor the session lacks: the sign-in page. No sign-in without a page: login_required.
    for (const extra of [{ prompt: 'login' }, { acr_values: 'urn:portal:loa:2' }] as Record<string, string>[]) {
      const { landed, visited } = await walkAuthorization(product, browserWith(token), extra);
      expect({ at: landed.pathname, code: landed.searchParams.get('code'), interaction: wentToInteraction(visited) }).toEqual({ at: '/login', code: null, interaction: true });
    }
    const none = await walkAuthorization(product, browserWith(token), { prompt: 'none' });
    expect(none.landed.searchParams.get('error')).toBe('login_required');
  });

  it("does not switch a browser's provider session to another person without asking", async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { browser } = await rp.signedInBrowser();
    const { token: other } = await rp.signedInBrowser();
    const first = await walkAuthorization(config, browser);
    expect(first.landed.searchParams.get('code')).toBeTruthy();

    // Another person's portal session in the same browser: no code for either of them without the provider's sign-out question.
    browser.setCookie('auth_token', other);
    const { landed, visited } = await walkAuthorization(config, browser);
    expect({ code: landed.searchParams.get('code'), interaction: wentToInteraction(visited) }).toEqual({ code: null, interaction: true });
  });
});
