import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { MODERATORS_SCOPE } from '@portal/contracts';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { createDataProtection } from '../../platform/data-protection';
import { startProviderTestServer, startTestServer, TEST_DATA_KEY, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { thirdPartyClients } from './clients';
import { KEY_PUBLISH_AHEAD_SECONDS, rotateSigningKey } from './keys';

/**
 * A certified relying party (openid-client) against the real server: discovery, the code flow
 * with PKCE, userinfo, refresh rotation and reuse detection, introspection, revocation, client
 * credentials, the device flow, RP-initiated and back-channel logout.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const PRODUCT_SECRET = 'product-secret-of-the-tests-0123456789';
const CALLBACK = 'http://127.0.0.1:5179/callback';
const SPA_CALLBACK = 'http://127.0.0.1:5179/spa/callback';
const PASSWORD = 'plum-orbit-cactus-917';

let server: TestServer;
let origin: string;
let identity: ReturnType<typeof identityClient>;
let backchannel: Server;
const logoutTokens: string[] = [];
let users = 0;
/** The servers' time runs this far ahead of the machine's (the key rotation tests move it past a key's activation). */
let clockAhead = 0;
const clock = { now: () => new Date(Date.now() + clockAhead) };

const insecure = { execute: [oidc.allowInsecureRequests] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the API under test, checked by the expectations
const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

async function discover(clientId: string, secret?: string, metadata: Partial<oidc.ClientMetadata> = {}) {
  return oidc.discovery(new URL(origin), clientId, metadata, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), insecure);
}

/** A new person, signed in on a new browser. */
async function signedInBrowser(): Promise<{ browser: TestBrowser; email: string; token: string }> {
  const email = `rp${++users}-${Date.now()}@example.com`;
  const token = await identity.registeredUser(email, PASSWORD);
  const browser = new TestBrowser(origin);
  browser.setCookie('auth_token', token);
  return { browser, email, token };
}

interface Authorized {
  callback: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** Sends the browser through /o/authorize with PKCE, state and nonce; answers where it landed. */
async function authorize(config: oidc.Configuration, browser: TestBrowser, extra: Record<string, string> = {}, redirectUri = CALLBACK, scope = 'openid email profile offline_access'): Promise<Authorized> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const { url: callback } = await browser.walk(url.href);
  return { callback, verifier, state, nonce };
}

async function codeFlow(config: oidc.Configuration, browser: TestBrowser, redirectUri = CALLBACK, scope?: string) {
  const { callback, verifier, state, nonce } = await authorize(config, browser, {}, redirectUri, scope);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
}

beforeAll(async () => {
  backchannel = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token');
      if (token) logoutTokens.push(token);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => backchannel.listen(5179, '127.0.0.1', resolve));
  server = await startProviderTestServer({
    clientsFile: CLIENTS_FILE,
    secrets: { 'test-product': PRODUCT_SECRET },
    // Keys read again every second: the rotation tests wait for it, as an operator waits a minute.
    env: { TRUST_PROXY: '1', CHATWOOT_HMAC_SECRET: 'chatwoot-secret-of-the-tests', OIDC_KEYS_RELOAD_SECONDS: '1' },
    clock,
  });
  origin = server.url;
  identity = identityClient(server.app, server.database);
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => backchannel?.close(resolve));
});

/**
 * The device flow's token polling for a code already approved: openid-client waits the
 * provider's `interval` (5 s) before its first poll, which here would only be idle time.
 */
const pollApproved = (config: oidc.Configuration, device: oidc.DeviceAuthorizationResponse) => oidc.pollDeviceAuthorizationGrant(config, { ...device, interval: 0.01 });

describe('openid-client against the portal', () => {
  it('discovers the provider: code flow only, S256, iss parameter, the endpoints', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(origin);
    expect(metadata.authorization_endpoint).toBe(`${origin}/o/authorize`);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.device_authorization_endpoint).toBe(`${origin}/oidc/device/auth`);
    expect(metadata.end_session_endpoint).toBe(`${origin}/oidc/session/end`);
    expect(metadata.backchannel_logout_supported).toBe(true);
    const jwks = await json(fetch(metadata.jwks_uri!));
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs a signed-in person straight in (SSO), with the ID token claims and userinfo', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, email } = await signedInBrowser();
    const tokens = await codeFlow(config, browser);
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

    const card = await server.app.inject({ method: 'POST', url: '/v3/billing/sandbox/tokens', payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' } });
    const added = await server.app.inject({ method: 'POST', url: '/v3/sso/me/cards', headers: bearer(token), payload: { token: card.json().token, cardholder: 'Test Person', city: 'Hanoi', state: 'HN', zip: '100000' } });
    expect(added.statusCode).toBe(201);
    const started = await server.app.inject({ method: 'POST', url: '/v3/sso/me/subscriptions', headers: bearer(token), payload: { plan: 'pwdmanager.premium', months: 12, currency: 'USD', idempotency_key: `plan-claim-${Date.now()}` } });
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
    const registered = await thirdPartyClients(server.database.db).add({ name: 'Plan Reader', redirectUris: [CALLBACK] });
    const config = await discover(registered.clientId, registered.clientSecret);
    const { browser, token } = await signedInBrowser();
    const first = await authorize(config, browser, {}, CALLBACK, 'openid plan');
    const uid = first.callback.searchParams.get('interaction')!;
    const decision = await json(fetch(`${origin}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers: { ...bearer(token), 'content-type': 'application/json' } }));
    const { url: callback } = await browser.walk(decision.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    expect(tokens.scope).toContain('plan');
    expect(tokens.claims()!.plan).toBeUndefined();
    expect((await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).plan).toBeUndefined();
  });
});

describe('tokens', () => {
  it('rotates refresh tokens; a replayed one revokes the whole family', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const first = await codeFlow(config, browser);
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
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const first = await codeFlow(config, browser);
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
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const tokens = await codeFlow(config, browser);
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspected).toMatchObject({ active: true, client_id: 'test-product', sub: tokens.claims()!.sub });
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("answers introspection of a token only to its own client or its product's back end; another app learns nothing", async () => {
    const product = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const tokens = await codeFlow(product, browser);
    // An outside app with a secret of its own (a confidential client) asks about the product's tokens.
    const registered = await thirdPartyClients(server.database.db).add({ name: 'Curious App', redirectUris: [CALLBACK] });
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
    const approved = await fetch(`${origin}/v3/oauth/device/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_code: device.user_code, allow: true }),
    });
    expect(approved.status).toBe(200);
    const desktopTokens = await pollApproved(desktop, device);
    expect(await oidc.tokenIntrospection(product, desktopTokens.access_token)).toMatchObject({ active: true, client_id: 'test-desktop' });
    // The token's own client still sees it.
    expect(await oidc.tokenIntrospection(product, tokens.access_token)).toMatchObject({ active: true, client_id: 'test-product' });
  }, 30_000);

  it("ends an app's tokens of one sign-in when it revokes its refresh token; the person's other browsers and their consent stay", async () => {
    const registered = await thirdPartyClients(server.database.db).add({ name: 'Two Browser App', redirectUris: [CALLBACK] });
    const app = await discover(registered.clientId, registered.clientSecret);
    const { browser, email, token } = await signedInBrowser();
    const allow = async (authorized: Authorized, bearer: string, walker: TestBrowser) => {
      const uid = authorized.callback.searchParams.get('interaction')!;
      const decision = await json(fetch(`${origin}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' } }));
      const { url } = await walker.walk(decision.redirect_to);
      return oidc.authorizationCodeGrant(app, url, { pkceCodeVerifier: authorized.verifier, expectedState: authorized.state, expectedNonce: authorized.nonce });
    };
    const laptop = await allow(await authorize(app, browser), token, browser);
    // The same person on a second browser: the consent is remembered, no question.
    const phoneToken = (await identity.signIn(email, PASSWORD)).json().token as string;
    const phoneBrowser = new TestBrowser(origin);
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
    const apps = (await json(fetch(`${origin}/v3/sso/me/connected-apps`, { headers: { authorization: `Bearer ${token}` } }))).apps;
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

  it("hands a desktop app's private-scheme answer to /callback-app (in the fragment, never a server log), and the app redeems the code with its PKCE", async () => {
    const desktop = await discover('test-desktop');
    const { browser, token } = await signedInBrowser();
    const signedIn = await authorize(desktop, browser, {}, 'net.example.desktop:/callback', 'openid email');
    // Another app could claim a private scheme (RFC 8252 section 8.6): the person confirms, even for our own app.
    expect(signedIn.callback.pathname).toBe('/o/authorize');
    const uid = signedIn.callback.searchParams.get('interaction')!;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const decision = await json(fetch(`${origin}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers }));
    const { url: callbackApp } = await browser.walk(decision.redirect_to);
    expect(callbackApp.origin).toBe(origin);
    expect(callbackApp.pathname, callbackApp.href).toBe('/callback-app');
    expect(callbackApp.search).toBe('');
    const fragment = new URLSearchParams(callbackApp.hash.slice(1));
    const handedTo = new URL(fragment.get('to')!);
    expect(`${handedTo.protocol}${handedTo.pathname}`).toBe('net.example.desktop:/callback');
    // The page opens the target only as one of that app's registered private-scheme redirect URIs.
    expect(fragment.get('client_id')).toBe('test-desktop');
    expect(await json(fetch(`${origin}/v3/oauth/clients/test-desktop/app-redirects`))).toEqual({ redirect_uris: ['net.example.desktop:/callback'] });
    expect(await json(fetch(`${origin}/v3/oauth/clients/test-product/app-redirects`))).toEqual({ redirect_uris: [] });
    const unknown = await fetch(`${origin}/v3/oauth/clients/app_nobody/app-redirects`);
    expect([unknown.status, (await json(unknown)).code]).toEqual([404, 'not_found']);
    // A client id the provider never issues is refused as input, never looked up (a NUL byte was a database error: 500).
    for (const path of ['/v3/oauth/clients/app%00x/app-redirects', '/v3/oauth/clients/a%20b/logo']) {
      const refused = await fetch(`${origin}${path}`);
      expect([refused.status, (await json(refused)).code], path).toEqual([400, 'validation_error']);
    }
    const revoked = await fetch(`${origin}/v3/sso/me/connected-apps/%00`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect([revoked.status, (await json(revoked)).code]).toEqual([400, 'validation_error']);
    expect(handedTo.searchParams.get('state')).toBe(signedIn.state);
    const tokens = await oidc.authorizationCodeGrant(desktop, handedTo, { pkceCodeVerifier: signedIn.verifier, expectedState: signedIn.state, expectedNonce: signedIn.nonce });
    expect(tokens.claims()!.sub).toBeTruthy();
    // A loopback redirect is an http URL: it goes straight to the app's own listener.
    const loopback = await authorize(desktop, browser, {}, 'http://127.0.0.1:43123/callback', 'openid');
    const loopbackUid = loopback.callback.searchParams.get('interaction')!;
    const allowed = await json(fetch(`${origin}/v3/oauth/interactions/${loopbackUid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers }));
    expect((await browser.walk(allowed.redirect_to)).url.href.startsWith('http://127.0.0.1:43123/callback?')).toBe(true);
  });

  it('signs a desktop app in by the device flow (RFC 8628) once the person approves the code', async () => {
    const config = await discover('test-desktop');
    const { token } = await signedInBrowser();
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email offline_access' });
    expect(device.verification_uri).toBe(`${origin}/login/quick-app`);
    const api = (path: string, body: unknown) =>
      fetch(`${origin}/v3${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wrong = await api('/oauth/device/lookup', { user_code: 'BCDF-GHJK' });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).code).toBe('1002');
    const lookup = await api('/oauth/device/lookup', { user_code: device.user_code.toLowerCase() });
    expect(lookup.status).toBe(200);
    expect((await json(lookup)).app).toMatchObject({ client_id: 'test-desktop', name: 'Test Desktop' });
    expect((await api('/oauth/device/decision', { user_code: device.user_code, allow: true })).status).toBe(200);
    const tokens = await pollApproved(config, device);
    expect(tokens.claims()?.amr).toEqual(['pwd']);
    expect(tokens.refresh_token).toBeTruthy();
    // A used code is not valid any more.
    expect((await json(api('/oauth/device/decision', { user_code: device.user_code, allow: true }))).code).toBe('1002');
  }, 30_000);
});

describe('logout', () => {
  it('RP-initiated logout signs the person out of the portal and tells the products back-channel', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, token } = await signedInBrowser();
    const tokens = await codeFlow(config, browser);
    const before = logoutTokens.length;
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5179/' });
    const question = await browser.request(url.href);
    const html = await question.text();
    expect(question.status).toBe(200);
    // The browser follows the confirm form's 303 to the app only if the page's form-action names the app's origin.
    const formAction = /form-action ([^;]+)/.exec(question.headers.get('content-security-policy') ?? '')?.[1]?.split(' ');
    expect(formAction).toEqual(["'self'", 'http://127.0.0.1:5179']);
    const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1]!;
    const action = html.match(/action="([^"]+)"/)![1]!;
    const { url: landed } = await browser.walk(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(landed.href).toBe('http://127.0.0.1:5179/');
    expect(browser.cookies.has('auth_token')).toBe(false);
    const me = await fetch(`${origin}/v3/sso/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    await expect.poll(() => logoutTokens.length).toBeGreaterThan(before);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('RP-initiated logout from a browser already signed out posts itself on to the app: its script and the app are allowed by the CSP', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const tokens = await codeFlow(config, browser);
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5179/' });
    // Another browser (no provider session): no question, the provider's form posts itself by an inline script.
    const elsewhere = new TestBrowser(origin);
    const answer = await elsewhere.request(url.href);
    const html = await answer.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'strict-dynamic' 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(/form-action ([^;]+)/.exec(csp)?.[1]?.split(' ')).toEqual(["'self'", 'http://127.0.0.1:5179']);
    const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1]!;
    const action = html.match(/action="([^"]+)"/)![1]!;
    const { url: landed } = await elsewhere.walk(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(landed.href).toBe('http://127.0.0.1:5179/');
    // Without a post-logout URI the form stays on our own origin.
    const plain = await new TestBrowser(origin).request(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }).href);
    expect(/form-action ([^;]+)/.exec(plain.headers.get('content-security-policy') ?? '')?.[1]).toBe("'self'");
  });

  it("signing out of the portal ends the provider session, its tokens, and tells the products", async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, token } = await signedInBrowser();
    const tokens = await codeFlow(config, browser);
    const before = logoutTokens.length;
    const out = await fetch(`${origin}/v3/sso/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBeLessThan(300);
    await expect.poll(() => logoutTokens.length).toBeGreaterThan(before);
    const [, payload] = logoutTokens.at(-1)!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: tokens.claims()!.sub, sid: tokens.claims()!.sid, aud: 'test-product' });
    expect(claims.events).toHaveProperty(['http://schemas.openid.net/event/backchannel-logout']);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The next authorization asks for a sign-in again (the browser still has the provider's cookie).
    const { callback } = await authorize(config, browser);
    expect(callback.pathname).toBe('/login');
  });
});

describe('ending portal sessions', () => {
  it('revoking the session on the device-activity page ends its provider session and tokens; other sessions keep theirs', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, email } = await signedInBrowser();
    const tokens = await codeFlow(config, browser);
    // The same person on a second device.
    const other = await identity.signIn(email, PASSWORD);
    const otherToken = other.json().token as string;
    const otherBrowser = new TestBrowser(origin);
    otherBrowser.setCookie('auth_token', otherToken);
    const otherTokens = await codeFlow(config, otherBrowser);
    const sessions = await json(fetch(`${origin}/v3/sso/me/sessions`, { headers: { authorization: `Bearer ${otherToken}` } }));
    const first = sessions.find((session: { current: boolean }) => !session.current);
    const before = logoutTokens.length;
    const revoked = await fetch(`${origin}/v3/sso/me/sessions/${first.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${otherToken}` } });
    expect(revoked.status).toBe(204);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect.poll(() => logoutTokens.length).toBeGreaterThan(before);
    expect((await oidc.refreshTokenGrant(config, otherTokens.refresh_token!)).access_token).toBeTruthy();
  });
});

describe('a password reset', () => {
  it("ends every provider session and token of the person, a desktop app's device sign-in included", async () => {
    const product = await discover('test-product', PRODUCT_SECRET);
    const desktop = await discover('test-desktop');
    const { browser, email, token } = await signedInBrowser();
    const tokens = await codeFlow(product, browser);
    const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid offline_access' });
    const decided = await fetch(`${origin}/v3/oauth/device/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_code: device.user_code, allow: true }),
    });
    expect(decided.status).toBe(200);
    const desktopTokens = await pollApproved(desktop, device);

    await identity.post('/v3/sso/password/forgot/verify-email', { identifier: email, email });
    const [, code] = await identity.mailTo(email, /\b(\d{6})\b/);
    const { reset_token } = (await identity.post('/v3/sso/password/forgot/verify-code', { identifier: email, code })).json();
    const NEW = 'new-plum-orbit-cactus-918';
    expect((await identity.post('/v3/sso/password/reset', { token: reset_token, new_password: NEW, confirm_password: NEW })).statusCode).toBe(204);

    await expect(oidc.refreshTokenGrant(product, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(desktop, desktopTokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(product, tokens.access_token)).active).toBe(false);
  }, 30_000);
});

describe('an account deletion', () => {
  it("ends the person's provider sessions and tokens when the deletion is requested", async () => {
    const product = await discover('test-product', PRODUCT_SECRET);
    const { browser, token } = await signedInBrowser();
    const tokens = await codeFlow(product, browser);
    const requested = await fetch(`${origin}/v3/sso/me/deletion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD, confirmation: 'DELETE' }),
    });
    expect(requested.status).toBeLessThan(300);
    await expect(oidc.refreshTokenGrant(product, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(product, tokens.access_token)).active).toBe(false);
    // The browser's provider session went with it: the product's next request asks the person to sign in.
    const { callback } = await authorize(product, browser, { prompt: 'none' });
    expect(callback.searchParams.get('error')).toBe('login_required');
  }, 30_000);
});

describe('an outside app with consent', () => {
  it('asks once (Allow), remembers, lists it in Connected apps, and Revoke ends its tokens; Deny sends access_denied', async () => {
    const logo = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#2b8a3e' } }).png().toBuffer();
    const registered = await thirdPartyClients(server.database.db).add({ name: 'Outside App', redirectUris: [CALLBACK], site: 'https://outside.example' }, logo);
    const config = await discover(registered.clientId, registered.clientSecret);
    const { browser, token } = await signedInBrowser();
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${origin}/v3${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });

    const first = await authorize(config, browser);
    expect(first.callback.origin).toBe(origin);
    expect(first.callback.pathname).toBe('/o/authorize');
    const uid = first.callback.searchParams.get('interaction')!;
    const request = await json(api(`/oauth/interactions/${uid}`));
    expect(request.app).toMatchObject({ client_id: registered.clientId, name: 'Outside App', client_uri: 'https://outside.example', first_party: false });
    // The logo comes from our own origin (the page's CSP allows no other), cacheable by its version.
    expect(request.app.logo_uri).toBe(`/v3/oauth/clients/${registered.clientId}/logo?v=1`);
    const served = await fetch(`${origin}${request.app.logo_uri}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(128);
    expect((await fetch(`${origin}/v3/oauth/clients/app_nobody/logo`)).status).toBe(404);
    expect(request.scopes).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    const decision = await json(api(`/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }) }));
    const { url: callback } = await browser.walk(decision.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    expect(tokens.claims()!.sub).toBeTruthy();
    // An outside app's ID token is RS256, the algorithm every OpenID Connect library verifies (the products' are ES256).
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${origin}/oidc/jwks`)), { issuer: origin, audience: registered.clientId });

    // Remembered: the next authorization goes straight through.
    const again = await authorize(config, browser);
    expect(again.callback.href.startsWith(CALLBACK)).toBe(true);

    const apps = (await json(api('/sso/me/connected-apps'))).apps;
    expect(apps).toEqual([expect.objectContaining({ client_id: registered.clientId, name: 'Outside App', scopes: expect.arrayContaining(['openid', 'email']) })]);
    expect((await api(`/sso/me/connected-apps/${registered.clientId}`, { method: 'DELETE' })).status).toBe(204);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await json(api('/sso/me/connected-apps'))).apps).toEqual([]);

    // Asked again, the person denies.
    const denied = await authorize(config, browser);
    const deniedUid = denied.callback.searchParams.get('interaction')!;
    const refusal = await json(api(`/oauth/interactions/${deniedUid}/consent`, { method: 'POST', body: JSON.stringify({ allow: false }) }));
    const { url: back } = await browser.walk(refusal.redirect_to);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(denied.state);
    expect(back.searchParams.get('iss')).toBe(origin);
  });

  it('refuses a consent posted by another site (403), and the consent page cannot be framed', async () => {
    const registered = await thirdPartyClients(server.database.db).add({ name: 'Framed App', redirectUris: [CALLBACK] });
    const config = await discover(registered.clientId, registered.clientSecret);
    const { browser } = await signedInBrowser();
    const { callback } = await authorize(config, browser);
    const uid = callback.searchParams.get('interaction')!;
    const forged = await browser.request(`/v3/oauth/interactions/${uid}/consent`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ allow: true }),
    });
    expect(forged.status).toBe(403);
    const page = await browser.request(callback.href);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('RFC 9700 (OAuth 2.0 Security BCP) negatives', () => {
  const rawAuthorize = (browser: TestBrowser, params: Record<string, string>) => browser.walk(`/o/authorize?${new URLSearchParams(params)}`);
  const pkce = async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
  };

  it("refuses an outside app asking for a product back end's scope (invalid_scope at its redirect URI, no consent page)", async () => {
    const registered = await thirdPartyClients(server.database.db).add({ name: 'Scope Grabber', redirectUris: [CALLBACK] });
    const { browser } = await signedInBrowser();
    const { challenge } = await pkce();
    const { url } = await rawAuthorize(browser, {
      client_id: registered.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: `openid ${MODERATORS_SCOPE}`, state: 's', code_challenge: challenge, code_challenge_method: 'S256',
    });
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    expect(url.searchParams.get('error')).toBe('invalid_scope');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('shows an error page and never redirects for a redirect URI not registered, or only a prefix of one', async () => {
    const { browser } = await signedInBrowser();
    const { challenge } = await pkce();
    for (const redirectUri of ['http://127.0.0.1:5179/elsewhere', `${CALLBACK}/more`, `${CALLBACK}?x=1`, 'http://127.0.0.1:5179/callbac']) {
      const { response, url } = await rawAuthorize(browser, {
        client_id: 'test-product', redirect_uri: redirectUri, response_type: 'code', scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', state: 's',
      });
      expect(url.origin).toBe(origin);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('not registered');
    }
    const unknown = await rawAuthorize(browser, { client_id: 'nobody', redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' });
    expect(unknown.response.status).toBe(400);
    expect(unknown.url.origin).toBe(origin);
  });

  it('refuses a public client without PKCE or with plain PKCE', async () => {
    const { browser } = await signedInBrowser();
    const base = { client_id: 'test-spa', redirect_uri: SPA_CALLBACK, response_type: 'code', scope: 'openid', state: 'st' };
    const missing = await rawAuthorize(browser, base);
    expect(missing.url.href.startsWith(SPA_CALLBACK)).toBe(true);
    expect(missing.url.searchParams.get('error')).toBe('invalid_request');
    expect(missing.url.searchParams.get('code')).toBeNull();
    const plain = await rawAuthorize(browser, { ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    expect(plain.url.searchParams.get('error')).toBe('invalid_request');
    expect(plain.url.searchParams.get('code')).toBeNull();
  });

  it('refuses the implicit and hybrid flows: no token in a URL', async () => {
    const { browser } = await signedInBrowser();
    const { challenge } = await pkce();
    for (const responseType of ['token', 'id_token', 'code id_token', 'id_token token']) {
      const { url } = await rawAuthorize(browser, {
        client_id: 'test-product', redirect_uri: CALLBACK, response_type: responseType, scope: 'openid', nonce: 'n', state: 's', code_challenge: challenge, code_challenge_method: 'S256',
      });
      expect(url.searchParams.get('error') ?? new URLSearchParams(url.hash.slice(1)).get('error')).toBe('unsupported_response_type');
      expect(url.href).not.toMatch(/access_token|id_token=/);
    }
  });

  it('redeems a code once: a second use fails and revokes what the first issued', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const { callback, verifier, state, nonce } = await authorize(config, browser);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('round-trips state and nonce, and a wrong verifier is refused', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const { callback, verifier, state, nonce } = await authorize(config, browser);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(origin);
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'another state', expectedNonce: nonce })).rejects.toThrow();
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: state, expectedNonce: nonce })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const second = await authorize(config, browser);
    const tokens = await oidc.authorizationCodeGrant(config, second.callback, { pkceCodeVerifier: second.verifier, expectedState: second.state, expectedNonce: second.nonce });
    expect(tokens.claims()!.nonce).toBe(second.nonce);
  });

  it('refuses a code issued to one client when another redeems it', async () => {
    const product = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const { callback, verifier } = await authorize(product, browser);
    const code = callback.searchParams.get('code')!;
    const response = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier, client_id: 'test-spa' }).toString(),
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe('invalid_grant');
  });

  it('refuses an expired code', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const { callback, verifier, state, nonce } = await authorize(config, browser);
    const { oidcModels } = await import('../../db/schema');
    const { eq } = await import('drizzle-orm');
    await server.database.db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oidcModels.model, 'AuthorizationCode'));
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('asks a signed-in person again for prompt=login and an exceeded max_age', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const fresh = await authorize(config, browser, { prompt: 'login' });
    expect(fresh.callback.pathname).toBe('/login');
    expect(fresh.callback.searchParams.get('prompt')).toBe('login');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const old = await authorize(config, browser, { max_age: '0' });
    expect(old.callback.pathname).toBe('/login');
    const none = await authorize(config, new TestBrowser(origin), { prompt: 'none' });
    expect(none.callback.searchParams.get('error')).toBe('login_required');
  });

  /** Signs `email` in again on the portal's API (with the authenticator's code when asked) and puts the new session in the browser. */
  async function signInAgain(browser: TestBrowser, email: string, totpSecret?: string): Promise<void> {
    // The interaction counts a sign-in as made for it from the second after it began.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const post = (path: string, body: object) => fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let answer = await json(post('/v3/sso/auth', { email, password: PASSWORD }));
    if (totpSecret) {
      // A code of the next step: the one that turned two-step on cannot be used again.
      const code = await generate({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 });
      answer = await json(post('/v3/sso/auth/mfa', { mfa_token: answer.mfa_token, code }));
    }
    expect(answer.token).toBeTruthy();
    browser.setCookie('auth_token', answer.token);
  }

  it('steps up for acr_values=loa:2: a one-factor session signs in again with its second step, then the ID token says loa:2', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, email, token } = await signedInBrowser();
    const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { secret } = await json(fetch(`${origin}/v3/sso/me/2fa/totp/setup`, { method: 'POST', headers: bearer, body: '{}' }));
    const enabled = await fetch(`${origin}/v3/sso/me/2fa/totp/enable`, { method: 'POST', headers: bearer, body: JSON.stringify({ code: await generate({ secret }) }) });
    expect(enabled.status).toBe(200);

    const request = await authorize(config, browser, { acr_values: 'urn:portal:loa:2' });
    expect(request.callback.pathname).toBe('/login');
    expect(request.callback.searchParams.get('prompt')).toBe('login');
    await signInAgain(browser, email, secret);
    const { url: callback } = await browser.walk(`${origin}${request.callback.searchParams.get('next')}`);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce });
    expect(tokens.claims()!.acr).toBe('urn:portal:loa:2');
    expect(tokens.claims()!.amr).toEqual(expect.arrayContaining(['pwd', 'otp', 'mfa']));

    // The two-factor session now goes straight through the same requirement.
    const again = await authorize(config, browser, { acr_values: 'urn:portal:loa:2' });
    expect(again.callback.origin + again.callback.pathname).toBe(CALLBACK);
    expect(again.callback.searchParams.get('code')).toBeTruthy();
  });

  it('answers unmet_authentication_requirements for loa:2 when the person has no second step, never a one-factor login', async () => {
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser, email } = await signedInBrowser();
    const request = await authorize(config, browser, { acr_values: 'urn:portal:loa:2' });
    expect(request.callback.pathname).toBe('/login');
    await signInAgain(browser, email);
    const { url: callback } = await browser.walk(`${origin}${request.callback.searchParams.get('next')}`);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect(callback.searchParams.get('code')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(request.state);

    // loa:1 or either level is met by the same session.
    const either = await authorize(config, browser, { acr_values: 'urn:portal:loa:2 urn:portal:loa:1' });
    expect(either.callback.searchParams.get('code')).toBeTruthy();
  });
});

describe("the products' view of the user (access tokens on /v3/{product}_platform)", () => {
  const OTHER_CALLBACK = 'http://127.0.0.1:5179/other/callback';
  const pmUser = (product: string, token: string) => fetch(`${origin}/v3/${product}_platform/pm/users/me`, { headers: { authorization: `Bearer ${token}` } });

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
    const locker = await discover('test-product', PRODUCT_SECRET);
    const { browser, email } = await signedInBrowser();
    const tokens = await codeFlow(locker, browser);
    const chat = (product: string) => fetch(`${origin}/v3/${product}_platform/pm/users/me/chatwoot`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
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
    const config = await discover('test-product', PRODUCT_SECRET);
    const { browser } = await signedInBrowser();
    const revoked = await codeFlow(config, browser);
    expect((await pmUser('locker', revoked.access_token)).status).toBe(200);
    await oidc.tokenRevocation(config, revoked.access_token);
    expect((await pmUser('locker', revoked.access_token)).status).toBe(401);

    const expiring = await codeFlow(config, browser);
    const { oidcModels } = await import('../../db/schema');
    const { and, eq } = await import('drizzle-orm');
    await server.database.db
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

describe('signing key rotation, live on every node', () => {
  it('publishes rotated keys on both nodes before either signs with them, signs with them from their activation, and keeps the old keys published', async () => {
    // A second node of the same deployment: same database, same origin, its own key reloads.
    const second = await startTestServer({
      database: server.database,
      clock,
      env: { PLATFORM_ORIGIN: origin, OAUTH_CLIENTS_FILE: CLIENTS_FILE, OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}`, OIDC_KEYS_RELOAD_SECONDS: '1' },
    });
    try {
      const config = await discover('test-product', PRODUCT_SECRET);
      const { browser } = await signedInBrowser();
      const kidOfNewIdToken = async () => decodeProtectedHeader((await codeFlow(config, browser)).id_token!).kid;
      const published = async () => ({
        first: ((await json(fetch(`${origin}/oidc/jwks`))).keys as Array<{ kid: string; d?: string }>).map((key) => key.kid),
        second: ((await second.app.inject({ url: '/oidc/jwks' })).json().keys as Array<{ kid: string }>).map((key) => key.kid),
      });
      const before = await kidOfNewIdToken();
      const initial = (await published()).first;
      expect(initial).toHaveLength(2); // RS256 for outside apps, ES256 (this product's) second
      expect(initial[1]).toBe(before);

      const rotated = await rotateSigningKey(server.database.db, createDataProtection(Buffer.from(TEST_DATA_KEY, 'hex')), { now: clock.now() });
      // Both nodes publish the new keys at their next reload, and still sign with the old ones.
      await expect.poll(published, { timeout: 5000 }).toEqual({ first: [...initial, ...rotated.kids], second: [...initial, ...rotated.kids] });
      expect(await kidOfNewIdToken()).toBe(before);

      // Past their activation, tokens are signed with the new keys; the old ones stay published.
      clockAhead = (KEY_PUBLISH_AHEAD_SECONDS + 1) * 1000;
      await expect.poll(kidOfNewIdToken, { timeout: 5000 }).toBe(rotated.kids[1]);
      await expect.poll(published, { timeout: 5000 }).toEqual({ first: [...rotated.kids, ...initial], second: [...rotated.kids, ...initial] });
      // A product verifies the new token with the JWKS, as any node serves it.
      const idToken = (await codeFlow(config, browser)).id_token!;
      expect(decodeProtectedHeader(idToken).alg).toBe('ES256');
      const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${origin}/oidc/jwks`)), { issuer: origin, audience: 'test-product' });
      expect(payload.sub).toBeTruthy();
    } finally {
      clockAhead = 0;
      await second.close();
    }
  });

  it('never publishes a private key', async () => {
    for (const key of (await json(fetch(`${origin}/oidc/jwks`))).keys as Array<Record<string, unknown>>) {
      expect(Object.keys(key).filter((name) => ['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(name))).toEqual([]);
    }
  });
});
