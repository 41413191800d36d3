import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { type Authorized, CALLBACK, json, PASSWORD, PRODUCT_SECRET, relyingPartyTestServer, SPA_CALLBACK } from '../../../test/relying-party';
import { thirdPartyClients } from './clients';

/**
 * A certified relying party (openid-client) against the real server: discovery, the code flow with
 * PKCE and its claims (the plan claim included), refresh rotation and reuse detection,
 * introspection, revocation, client credentials.
 */
const rp = relyingPartyTestServer();
const { discover, signedInBrowser, signedInToProduct, authorize, codeFlow, pollApproved } = rp;

describe('openid-client against the portal', () => {
  it('discovers the provider: code flow only, S256, iss parameter, the endpoints', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(rp.origin);
    expect(metadata.authorization_endpoint).toBe(`${rp.origin}/o/authorize`);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.device_authorization_endpoint).toBe(`${rp.origin}/oidc/device/auth`);
    expect(metadata.end_session_endpoint).toBe(`${rp.origin}/oidc/session/end`);
    expect(metadata.backchannel_logout_supported).toBe(true);
    const jwks = await json(fetch(metadata.jwks_uri!));
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs a signed-in person straight in (SSO), with the ID token claims and userinfo', async () => {
    const { config, email, tokens } = await signedInToProduct();
    const claims = tokens.claims()!;
    expect(claims.email).toBe(email);
    expect(claims.email_verified).toBe(true);
    expect(claims.name).toBe('Test Person');
    expect(claims.locale).toBe('en');
    expect(claims.amr).toEqual(['pwd']);
    expect(typeof claims.auth_time).toBe('number');
    expect(claims.acr).toBe('urn:portal:loa:1');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.email).toBe(email);
    expect(tokens.refresh_token).toBeTruthy();
  });
});

describe('the plan claim (billing, through app.ts)', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("tells the product's own client its plan in the ID token and userinfo; a trialing subscription shows there", async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, token } = await signedInBrowser();
    const free = await codeFlow(config, browser, CALLBACK, 'openid email plan');
    expect(free.claims()!.plan).toMatchObject({ product: 'pwdmanager', plan: 'pwdmanager.free', tier: 'free', status: null });

    const card = await rp.server.app.inject({ method: 'POST', url: '/v3/billing/sandbox/tokens', payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' } });
    const added = await rp.server.app.inject({ method: 'POST', url: '/v3/sso/me/cards', headers: bearer(token), payload: { token: card.json().token, cardholder: 'Test Person', city: 'Hanoi', state: 'HN', zip: '100000' } });
    expect(added.statusCode).toBe(201);
    const started = await rp.server.app.inject({ method: 'POST', url: '/v3/sso/me/subscriptions', headers: bearer(token), payload: { plan: 'pwdmanager.premium', months: 12, currency: 'USD', idempotency_key: `plan-claim-${Date.now()}` } });
    expect(started.json().subscription.status).toBe('trialing');

    const tokens = await codeFlow(config, browser, CALLBACK, 'openid email plan');
    const expected = { product: 'pwdmanager', plan: 'pwdmanager.premium', tier: 'premium', status: 'trialing', period_end: started.json().subscription.trial_ends_at, trial_ends_at: started.json().subscription.trial_ends_at };
    expect(tokens.claims()!.plan).toEqual(expected);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.plan).toEqual(expected);

    // Without the `plan` scope there is no claim; another product's client sees its own product's plan.
    const plain = await codeFlow(config, browser);
    expect(plain.claims()!.plan).toBeUndefined();
    expect((await oidc.fetchUserInfo(config, plain.access_token, plain.claims()!.sub)).plan).toBeUndefined();
    const spa = await discover('test-spa', undefined, { token_endpoint_auth_method: 'none' });
    const secrets = await codeFlow(spa, browser, SPA_CALLBACK, 'openid plan');
    expect(secrets.claims()!.plan).toMatchObject({ product: 'secret', plan: 'secret.free', status: null });
  });

  it('gives an outside app no plan, even when it is granted the scope', async () => {
    const registered = await thirdPartyClients(rp.server.database.db).add({ name: 'Plan Reader', redirectUris: [CALLBACK] });
    const config = await discover(registered.clientId, registered.clientSecret);
    const { browser, token } = await signedInBrowser();
    const first = await authorize(config, browser, {}, CALLBACK, 'openid plan');
    const uid = first.callback.searchParams.get('interaction')!;
    const decision = await json(fetch(`${rp.origin}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers: { ...bearer(token), 'content-type': 'application/json' } }));
    const { url: callback } = await browser.walk(decision.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    expect(tokens.scope).toContain('plan');
    expect(tokens.claims()!.plan).toBeUndefined();
    expect((await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).plan).toBeUndefined();
  });
});

describe('tokens', () => {
  it('rotates refresh tokens; a replayed one revokes the whole family', async () => {
    const { config, tokens: first } = await signedInToProduct();
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.claims()?.amr).toEqual(['pwd']);
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);
    // The thief replays the first one: refused, and everything of the grant is revoked.
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(config, third.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(config, third.access_token)).active).toBe(false);
  });

  it('lets exactly one of ten parallel refreshes with the same token win, and then revokes the family (the others are replays)', async () => {
    const { config, tokens: first } = await signedInToProduct();
    // On PostgreSQL (a pool) the ten reads of the unused token really interleave; PGlite's one connection mostly serialises them.
    const answers = await Promise.allSettled(Array.from({ length: 10 }, () => oidc.refreshTokenGrant(config, first.refresh_token!)));
    const won = answers.filter((answer) => answer.status === 'fulfilled');
    const lost = answers.filter((answer) => answer.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const answer of lost) expect(answer.reason).toMatchObject({ error: 'invalid_grant' });
    // The rule: a concurrent second use is a replay, so the winner's tokens go with the family.
    const winner = won[0]!.value;
    await expect(oidc.refreshTokenGrant(config, winner.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(config, winner.access_token)).active).toBe(false);
  });

  it('introspects and revokes tokens (RFC 7662, RFC 7009)', async () => {
    const { config, tokens } = await signedInToProduct();
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspected).toMatchObject({ active: true, client_id: 'test-product', sub: tokens.claims()!.sub });
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("answers introspection of a token only to its own client or its product's back end; another app learns nothing", async () => {
    const { config: product, browser, tokens } = await signedInToProduct();
    // An outside app with a secret of its own (a confidential client) asks about the product's tokens.
    const registered = await thirdPartyClients(rp.server.database.db).add({ name: 'Curious App', redirectUris: [CALLBACK] });
    const outside = await discover(registered.clientId, registered.clientSecret);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      const answer = await oidc.tokenIntrospection(outside, token);
      expect(answer).toEqual({ active: false });
    }
    // Another product's token is not this product's back end's business either; its own desktop app's is.
    const other = await codeFlow(await discover('test-other'), browser, 'http://127.0.0.1:5179/other/callback');
    expect(await oidc.tokenIntrospection(product, other.access_token)).toEqual({ active: false });
    const desktop = await discover('test-desktop');
    const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid' });
    const { token } = await signedInBrowser();
    const approved = await rp.approveDevice(token, device);
    expect(approved.status).toBe(200);
    const desktopTokens = await pollApproved(desktop, device);
    expect(await oidc.tokenIntrospection(product, desktopTokens.access_token)).toMatchObject({ active: true, client_id: 'test-desktop' });
    // The token's own client still sees it.
    expect(await oidc.tokenIntrospection(product, tokens.access_token)).toMatchObject({ active: true, client_id: 'test-product' });
  }, 30_000);

  it("ends an app's tokens of one sign-in when it revokes its refresh token; the person's other browsers and their consent stay", async () => {
    const registered = await thirdPartyClients(rp.server.database.db).add({ name: 'Two Browser App', redirectUris: [CALLBACK] });
    const app = await discover(registered.clientId, registered.clientSecret);
    const { browser, email, token } = await signedInBrowser();
    const allow = async (authorized: Authorized, bearer: string, walker: TestBrowser) => {
      const uid = authorized.callback.searchParams.get('interaction')!;
      const decision = await json(fetch(`${rp.origin}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' } }));
      const { url } = await walker.walk(decision.redirect_to);
      return oidc.authorizationCodeGrant(app, url, { pkceCodeVerifier: authorized.verifier, expectedState: authorized.state, expectedNonce: authorized.nonce });
    };
    const laptop = await allow(await authorize(app, browser), token, browser);
    // The same person on a second browser: the consent is remembered, no question.
    const phoneToken = (await rp.identity.signIn(email, PASSWORD)).json().token as string;
    const phoneBrowser = new TestBrowser(rp.origin);
    phoneBrowser.setCookie('auth_token', phoneToken);
    const phoneSignIn = await authorize(app, phoneBrowser);
    expect(phoneSignIn.callback.href.startsWith(CALLBACK)).toBe(true);
    const phone = await oidc.authorizationCodeGrant(app, phoneSignIn.callback, { pkceCodeVerifier: phoneSignIn.verifier, expectedState: phoneSignIn.state, expectedNonce: phoneSignIn.nonce });

    // The app signs the person out on the laptop (RFC 7009, as mod_auth_openidc does at logout).
    await oidc.tokenRevocation(app, laptop.refresh_token!);
    await expect(oidc.refreshTokenGrant(app, laptop.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(app, laptop.access_token)).active).toBe(false);
    // The phone is still signed in to the app.
    expect((await oidc.tokenIntrospection(app, phone.access_token)).active).toBe(true);
    const refreshed = await oidc.refreshTokenGrant(app, phone.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    // The consent stays: listed in Connected apps, and the laptop's next sign-in is not asked again.
    const apps = (await json(fetch(`${rp.origin}/v3/sso/me/connected-apps`, { headers: { authorization: `Bearer ${token}` } }))).apps;
    expect(apps).toEqual([expect.objectContaining({ client_id: registered.clientId })]);
    const again = await authorize(app, browser);
    expect(again.callback.href.startsWith(CALLBACK)).toBe(true);

    // Revoking the phone's access token ends the phone's sign-in only as well.
    const laptopAgain = await oidc.authorizationCodeGrant(app, again.callback, { pkceCodeVerifier: again.verifier, expectedState: again.state, expectedNonce: again.nonce });
    await oidc.tokenRevocation(app, refreshed.access_token);
    await expect(oidc.refreshTokenGrant(app, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.refreshTokenGrant(app, laptopAgain.refresh_token!)).access_token).toBeTruthy();
  });

  it("gives a product's back end its own token by client credentials", async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const tokens = await oidc.clientCredentialsGrant(config, {});
    expect(tokens.access_token).toBeTruthy();
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true, client_id: 'test-product' });
    // A wrong secret is refused.
    const wrong = await discover('test-product', 'not-the-secret-of-the-product-000000');
    await expect(oidc.clientCredentialsGrant(wrong, {})).rejects.toThrow(/challenge|invalid_client/);
  });
});
