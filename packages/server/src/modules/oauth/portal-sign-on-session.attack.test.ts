import { and, eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { oauthClients, oidcModels, users } from '../../db/schema';
import { TestBrowser } from '../../../test/browser';
import { CALLBACK, json, PASSWORD, PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';
import { thirdPartyClients } from './clients';
import { ACR_MULTI, OIDC_ROUTES } from './provider';

/**
 * The portal session a plain authorization request signs in with (portal-sign-on.ts), asked as
 * an attacker: does an account an operator locked still sign in to apps while its session waits
 * to be ended; does a provider session cookie planted in the browser before the sign-in name the
 * signed-in session after it; does an app whose registration asks for two-step or a recent
 * sign-in by default (default_acr_values, default_max_age) get signed in by a request that
 * itself asks nothing?
 */
const rp = relyingPartyTestServer();
const SCOPE = 'openid email';

/** Walks one plain authorization request of `config` in `browser`. */
const walkAuthorization = (config: oidc.Configuration, browser: TestBrowser) => rp.walkAuthorization(config, browser, SCOPE);
const browserWith = (token: string) => rp.browserWith(token);

const SESSION_COOKIE = '_session';

describe('the portal session the authorization request signs in with', () => {
  it('signs no one in whose account an operator locked, even before their sessions are ended', async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { token, email } = await rp.signedInBrowser();
    // The lock is written first and the sessions ended after it (people.ts): in between, or if
    // ending them failed, the portal session is still live. The API refuses it already.
    await rp.server.database.db.update(users).set({ lockedAt: new Date() }).where(eq(users.email, email));
    expect((await fetch(`${rp.origin}/v3/sso/me/connected-apps`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

    const { landed, visited } = await walkAuthorization(config, browserWith(token));
    expect({ at: landed.pathname, code: landed.searchParams.get('code') }, visited.join(' -> ')).toEqual({ at: '/login', code: null });
  });

  it("replaces a provider session the browser already had: a cookie planted before the sign-in names no signed-in session", async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { token } = await rp.signedInBrowser();
    const browser = browserWith(token);
    // A provider session with no one signed in: the logout page keeps its question in one.
    expect((await browser.request(OIDC_ROUTES.end_session)).status).toBe(200);
    const planted = browser.cookies.get(SESSION_COOKIE);
    expect(planted).toBeTruthy();

    const { landed, visited } = await walkAuthorization(config, browser);
    expect(visited).toEqual(['/o/authorize']);
    expect(landed.searchParams.get('code'), landed.href).toBeTruthy();
    expect(browser.cookies.get(SESSION_COOKIE)).toBeTruthy();
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(planted);

    // Whoever kept the planted cookie holds no session: the one it named is gone, the person's is under a new id.
    const stored = async (id: string) => (await rp.server.database.db.select({ accountId: oidcModels.accountId }).from(oidcModels).where(and(eq(oidcModels.model, 'Session'), eq(oidcModels.id, id)))).length;
    expect({ planted: await stored(planted!), signedIn: await stored(browser.cookies.get(SESSION_COOKIE)!) }).toEqual({ planted: 0, signedIn: 1 });
  });

  it("leaves an app's default two-step or sign-in age to the interaction: the request signs no one in by itself", async () => {
    const apps = thirdPartyClients(rp.server.database.db);
    const { token } = await rp.signedInBrowser();
    // The portal sign-in is over a second old when the app that wants one within a second asks.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const [name, defaults] of [
      ['Two-step by default', { default_acr_values: [ACR_MULTI] }],
      ['Recent sign-in by default', { default_max_age: 1 }],
    ] as const) {
      const app = await apps.add({ name, redirectUris: [CALLBACK], site: 'https://defaults.example' });
      const [row] = await rp.server.database.db.select({ metadata: oauthClients.metadata }).from(oauthClients).where(eq(oauthClients.clientId, app.clientId));
      await rp.server.database.db.update(oauthClients).set({ metadata: { ...row!.metadata, ...defaults } }).where(eq(oauthClients.clientId, app.clientId));
      const browser = browserWith(token);
      const { landed, visited } = await walkAuthorization(await rp.discover(app.clientId, app.clientSecret), browser);
      // The interaction sends the person to sign in again (with their second step), and no provider session was signed in on the way.
      expect({ name, at: landed.pathname, prompt: landed.searchParams.get('prompt'), interaction: visited.some((path) => path.startsWith('/o/interaction/')) }).toEqual({
        name,
        at: '/login',
        prompt: 'login',
        interaction: true,
      });
      expect({ name, providerSession: browser.cookies.has(SESSION_COOKIE) }).toEqual({ name, providerSession: false });
    }
  });
});

describe('the same person signed in to the portal again in a browser that kept its provider session', () => {
  /** Revokes `session` on the device-activity page of the session `by`: answers whether the tokens got before and after are active. */
  async function afterRevoking(config: oidc.Configuration, first: string, by: string, before: oidc.TokenEndpointResponse, after: oidc.TokenEndpointResponse) {
    const sessions = (await json(fetch(`${rp.origin}/v3/sso/me/sessions`, { headers: { authorization: `Bearer ${by}` } }))) as Array<{ id: string; current: boolean }>;
    const [firstSession] = sessions.filter((session) => !session.current);
    const revoked = await fetch(`${rp.origin}/v3/sso/me/sessions/${firstSession!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${by}` } });
    expect(revoked.status).toBeLessThan(300);
    expect((await fetch(`${rp.origin}/v3/sso/me/connected-apps`, { headers: { authorization: `Bearer ${first}` } })).status).toBe(401);
    const active = async (token: string) => (await oidc.tokenIntrospection(config, token)).active;
    return {
      before: { access: await active(before.access_token), refresh: await active(before.refresh_token!) },
      after: { access: await active(after.access_token), refresh: await active(after.refresh_token!) },
    };
  }
  const ENDED_AND_KEPT = { before: { access: false, refresh: false }, after: { access: true, refresh: true } };

  /** Signs `email` in again on the portal's API and puts the new session in the browser (the portal cookie is the new one's, the provider's stays). */
  async function signInAgain(browser: TestBrowser, email: string): Promise<string> {
    const again = await rp.identity.signIn(email, PASSWORD);
    expect(again.statusCode, again.body).toBe(200);
    const token = again.json().token as string;
    browser.setCookie('auth_token', token);
    return token;
  }

  it("keeps the tokens issued before on the portal session they were got through: revoking that one on the device-activity page ends them, the new session's stay", async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { browser, email, token: first } = await rp.signedInBrowser();
    const before = await rp.codeFlow(config, browser);
    // Signed in again on top of the session before (or after it went idle).
    const second = await signInAgain(browser, email);
    const after = await rp.codeFlow(config, browser);
    // The provider session before is kept under its uid for its portal session (its apps hear of its end), the browser's is a new one.
    const [account] = await rp.server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const providerSessions = () => rp.server.database.db.select({ uid: oidcModels.uid }).from(oidcModels).where(and(eq(oidcModels.model, 'Session'), eq(oidcModels.accountId, account!.id)));
    expect(await providerSessions()).toHaveLength(2);
    expect(await afterRevoking(config, first, second, before, after)).toEqual(ENDED_AND_KEPT);
    expect(await providerSessions()).toHaveLength(1);
  });

  it('the same when the app asked for a fresh sign-in (prompt=login) and the person signed in again through the interaction', async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { browser, email, token: first } = await rp.signedInBrowser();
    const before = await rp.codeFlow(config, browser);
    const request = await rp.authorize(config, browser, { prompt: 'login' });
    expect(request.callback.pathname).toBe('/login');
    // The interaction counts a sign-in as made for it from the second after it began.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await signInAgain(browser, email);
    const { url: callback } = await browser.walk(`${rp.origin}${request.callback.searchParams.get('next')}`);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    const after = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce });
    expect(await afterRevoking(config, first, second, before, after)).toEqual(ENDED_AND_KEPT);
  });
});
