import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CALLBACK, json, relyingPartyTestServer } from '../../../test/relying-party';
import { thirdPartyClients } from './clients';

/**
 * An outside app as a relying party (openid-client): the consent it asks once, Connected apps,
 * revocation and denial, and a consent no other site can post or frame.
 */
const rp = relyingPartyTestServer();
const { discover, signedInBrowser, authorize } = rp;

describe('an outside app with consent', () => {
  it('asks once (Allow), remembers, lists it in Connected apps, and Revoke ends its tokens; Deny sends access_denied', async () => {
    const logo = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#2b8a3e' } }).png().toBuffer();
    const registered = await thirdPartyClients(rp.server.database.db).add({ name: 'Outside App', redirectUris: [CALLBACK], site: 'https://outside.example' }, logo);
    const config = await discover(registered.clientId, registered.clientSecret);
    const { browser, token } = await signedInBrowser();
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${rp.origin}/v3${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });

    const first = await authorize(config, browser);
    expect(first.callback.origin).toBe(rp.origin);
    expect(first.callback.pathname).toBe('/o/authorize');
    const uid = first.callback.searchParams.get('interaction')!;
    const request = await json(api(`/oauth/interactions/${uid}`));
    expect(request.app).toMatchObject({ client_id: registered.clientId, name: 'Outside App', client_uri: 'https://outside.example', first_party: false });
    // The logo comes from our own origin (the page's CSP allows no other), cacheable by its version.
    expect(request.app.logo_uri).toBe(`/v3/oauth/clients/${registered.clientId}/logo?v=1`);
    const served = await fetch(`${rp.origin}${request.app.logo_uri}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(128);
    expect((await fetch(`${rp.origin}/v3/oauth/clients/app_nobody/logo`)).status).toBe(404);
    expect(request.scopes).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    const decision = await json(api(`/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }) }));
    const { url: callback } = await browser.walk(decision.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    expect(tokens.claims()!.sub).toBeTruthy();
    // An outside app's ID token is RS256, the algorithm every OpenID Connect library verifies (the products' are ES256).
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${rp.origin}/oidc/jwks`)), { issuer: rp.origin, audience: registered.clientId });

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
    expect(back.searchParams.get('iss')).toBe(rp.origin);
  });

  it('refuses a consent posted by another site (403), and the consent page cannot be framed', async () => {
    const registered = await thirdPartyClients(rp.server.database.db).add({ name: 'Framed App', redirectUris: [CALLBACK] });
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
