import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { json, relyingPartyTestServer } from '../../../test/relying-party';

/**
 * A desktop app as a relying party (openid-client): a private-scheme redirect handed over by
 * /callback-app, a loopback redirect, and the device flow (RFC 8628).
 */
const rp = relyingPartyTestServer();
const { discover, signedInBrowser, authorize, pollApproved } = rp;

describe('desktop apps', () => {
  it("hands a desktop app's private-scheme answer to /callback-app (in the fragment, never a server log), and the app redeems the code with its PKCE", async () => {
    const desktop = await discover('test-desktop');
    const { browser, token } = await signedInBrowser();
    const signedIn = await authorize(desktop, browser, {}, 'net.example.desktop:/callback', 'openid email');
    // Another app could claim a private scheme (RFC 8252 section 8.6): the person confirms, even for our own app.
    expect(signedIn.callback.pathname).toBe('/o/authorize');
    const uid = signedIn.callback.searchParams.get('interaction')!;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const decision = await json(fetch(`${rp.origin}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers }));
    const { url: callbackApp } = await browser.walk(decision.redirect_to);
    expect(callbackApp.origin).toBe(rp.origin);
    expect(callbackApp.pathname, callbackApp.href).toBe('/callback-app');
    expect(callbackApp.search).toBe('');
    const fragment = new URLSearchParams(callbackApp.hash.slice(1));
    const handedTo = new URL(fragment.get('to')!);
    expect(`${handedTo.protocol}${handedTo.pathname}`).toBe('net.example.desktop:/callback');
    // The page opens the target only as one of that app's registered private-scheme redirect URIs.
    expect(fragment.get('client_id')).toBe('test-desktop');
    expect(await json(fetch(`${rp.origin}/v3/oauth/clients/test-desktop/app-redirects`))).toEqual({ redirect_uris: ['net.example.desktop:/callback'] });
    expect(await json(fetch(`${rp.origin}/v3/oauth/clients/test-product/app-redirects`))).toEqual({ redirect_uris: [] });
    const unknown = await fetch(`${rp.origin}/v3/oauth/clients/app_nobody/app-redirects`);
    expect([unknown.status, (await json(unknown)).code]).toEqual([404, 'not_found']);
    // A client id the provider never issues is refused as input, never looked up (a NUL byte was a database error: 500).
    for (const path of ['/v3/oauth/clients/app%00x/app-redirects', '/v3/oauth/clients/a%20b/logo']) {
      const refused = await fetch(`${rp.origin}${path}`);
      expect([refused.status, (await json(refused)).code], path).toEqual([400, 'validation_error']);
    }
    const revoked = await fetch(`${rp.origin}/v3/sso/me/connected-apps/%00`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect([revoked.status, (await json(revoked)).code]).toEqual([400, 'validation_error']);
    expect(handedTo.searchParams.get('state')).toBe(signedIn.state);
    const tokens = await oidc.authorizationCodeGrant(desktop, handedTo, { pkceCodeVerifier: signedIn.verifier, expectedState: signedIn.state, expectedNonce: signedIn.nonce });
    expect(tokens.claims()!.sub).toBeTruthy();
    // A loopback redirect is an http URL: it goes straight to the app's own listener.
    const loopback = await authorize(desktop, browser, {}, 'http://127.0.0.1:43123/callback', 'openid');
    const loopbackUid = loopback.callback.searchParams.get('interaction')!;
    const allowed = await json(fetch(`${rp.origin}/v3/oauth/interactions/${loopbackUid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers }));
    expect((await browser.walk(allowed.redirect_to)).url.href.startsWith('http://127.0.0.1:43123/callback?')).toBe(true);
  });

  it('signs a desktop app in by the device flow (RFC 8628) once the person approves the code', async () => {
    const config = await discover('test-desktop');
    const { token } = await signedInBrowser();
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email offline_access' });
    expect(device.verification_uri).toBe(`${rp.origin}/login/quick-app`);
    const api = (path: string, body: unknown) =>
      fetch(`${rp.origin}/v3${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
