import { MODERATORS_SCOPE } from '@portal/contracts';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { CALLBACK, json, PASSWORD, PRODUCT_SECRET, relyingPartyTestServer, SPA_CALLBACK } from '../../../test/relying-party';
import { thirdPartyClients } from './clients';

/**
 * The authorization endpoint against a relying party's mistakes and an attacker's requests
 * (RFC 9700, OAuth 2.0 Security BCP): redirect URIs, PKCE, response types, codes, state and
 * nonce, and re-authentication (prompt=login, max_age, acr_values step-up).
 */
const rp = relyingPartyTestServer();
const { discover, signedInBrowser, authorize } = rp;

describe('RFC 9700 (OAuth 2.0 Security BCP) negatives', () => {
  const rawAuthorize = (browser: TestBrowser, params: Record<string, string>) => browser.walk(`/o/authorize?${new URLSearchParams(params)}`);
  const pkce = async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
  };

  it("refuses an outside app asking for a product back end's scope (invalid_scope at its redirect URI, no consent page)", async () => {
    const registered = await thirdPartyClients(rp.server.database.db).add({ name: 'Scope Grabber', redirectUris: [CALLBACK] });
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
      expect(url.origin).toBe(rp.origin);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('not registered');
    }
    const unknown = await rawAuthorize(browser, { client_id: 'nobody', redirect_uri: CALLBACK, response_type: 'code', scope: 'openid' });
    expect(unknown.response.status).toBe(400);
    expect(unknown.url.origin).toBe(rp.origin);
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
    expect(callback.searchParams.get('iss')).toBe(rp.origin);
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
    const response = await fetch(`${rp.origin}/oidc/token`, {
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
    await rp.server.database.db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oidcModels.model, 'AuthorizationCode'));
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
    const none = await authorize(config, new TestBrowser(rp.origin), { prompt: 'none' });
    expect(none.callback.searchParams.get('error')).toBe('login_required');
  });

  /** Signs `email` in again on the portal's API (with the authenticator's code when asked) and puts the new session in the browser. */
  async function signInAgain(browser: TestBrowser, email: string, totpSecret?: string): Promise<void> {
    // The interaction counts a sign-in as made for it from the second after it began.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const post = (path: string, body: object) => fetch(`${rp.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
    const { secret } = await json(fetch(`${rp.origin}/v3/sso/me/2fa/totp/setup`, { method: 'POST', headers: bearer, body: '{}' }));
    const enabled = await fetch(`${rp.origin}/v3/sso/me/2fa/totp/enable`, { method: 'POST', headers: bearer, body: JSON.stringify({ code: await generate({ secret }) }) });
    expect(enabled.status).toBe(200);

    const request = await authorize(config, browser, { acr_values: 'urn:portal:loa:2' });
    expect(request.callback.pathname).toBe('/login');
    expect(request.callback.searchParams.get('prompt')).toBe('login');
    await signInAgain(browser, email, secret);
    const { url: callback } = await browser.walk(`${rp.origin}${request.callback.searchParams.get('next')}`);
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
    const { url: callback } = await browser.walk(`${rp.origin}${request.callback.searchParams.get('next')}`);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect(callback.searchParams.get('code')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(request.state);

    // loa:1 or either level is met by the same session.
    const either = await authorize(config, browser, { acr_values: 'urn:portal:loa:2 urn:portal:loa:1' });
    expect(either.callback.searchParams.get('code')).toBeTruthy();
  });
});
