import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { confirmLogout } from '../../../test/logout-form';
import { json, PASSWORD, PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';

/**
 * Signing out as the products see it (openid-client): RP-initiated logout, the portal's sign-out,
 * a revoked session, a password reset and an account deletion end the provider sessions and
 * tokens, and the products are told back-channel.
 */
const rp = relyingPartyTestServer({ backchannelLogout: true });
const { discover, signedInBrowser, signedInToProduct, authorize, codeFlow, pollApproved } = rp;

describe('logout', () => {
  it('RP-initiated logout signs the person out of the portal and tells the products back-channel', async () => {
    const { config, browser, token, tokens } = await signedInToProduct();
    const before = rp.logoutTokens.length;
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5179/' });
    const question = await browser.request(url.href);
    const html = await question.text();
    expect(question.status).toBe(200);
    // The browser follows the confirm form's 303 to the app only if the page's form-action names the app's origin.
    const formAction = /form-action ([^;]+)/.exec(question.headers.get('content-security-policy') ?? '')?.[1]?.split(' ');
    expect(formAction).toEqual(["'self'", 'http://127.0.0.1:5179']);
    const landed = await confirmLogout(browser, html, rp.origin);
    expect(landed.href).toBe('http://127.0.0.1:5179/');
    expect(browser.cookies.has('auth_token')).toBe(false);
    const me = await fetch(`${rp.origin}/v3/sso/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    await expect.poll(() => rp.logoutTokens.length).toBeGreaterThan(before);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('RP-initiated logout from a browser already signed out posts itself on to the app: its script and the app are allowed by the CSP', async () => {
    const { config, tokens } = await signedInToProduct();
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:5179/' });
    // Another browser (no provider session): no question, the provider's form posts itself by an inline script.
    const elsewhere = new TestBrowser(rp.origin);
    const answer = await elsewhere.request(url.href);
    const html = await answer.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'strict-dynamic' 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(/form-action ([^;]+)/.exec(csp)?.[1]?.split(' ')).toEqual(["'self'", 'http://127.0.0.1:5179']);
    const landed = await confirmLogout(elsewhere, html, rp.origin);
    expect(landed.href).toBe('http://127.0.0.1:5179/');
    // Without a post-logout URI the form stays on our own origin.
    const plain = await new TestBrowser(rp.origin).request(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }).href);
    expect(/form-action ([^;]+)/.exec(plain.headers.get('content-security-policy') ?? '')?.[1]).toBe("'self'");
  });

  it("signing out of the portal ends the provider session, its tokens, and tells the products", async () => {
    const { config, browser, token, tokens } = await signedInToProduct();
    const before = rp.logoutTokens.length;
    const out = await fetch(`${rp.origin}/v3/sso/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBeLessThan(300);
    await expect.poll(() => rp.logoutTokens.length).toBeGreaterThan(before);
    const [, payload] = rp.logoutTokens.at(-1)!.split('.');
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
    const { config, email, tokens } = await signedInToProduct();
    // The same person on a second device.
    const other = await rp.identity.signIn(email, PASSWORD);
    const otherToken = other.json().token as string;
    const otherBrowser = new TestBrowser(rp.origin);
    otherBrowser.setCookie('auth_token', otherToken);
    const otherTokens = await codeFlow(config, otherBrowser);
    const sessions = await json(fetch(`${rp.origin}/v3/sso/me/sessions`, { headers: { authorization: `Bearer ${otherToken}` } }));
    const first = sessions.find((session: { current: boolean }) => !session.current);
    const before = rp.logoutTokens.length;
    const revoked = await fetch(`${rp.origin}/v3/sso/me/sessions/${first.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${otherToken}` } });
    expect(revoked.status).toBe(204);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect.poll(() => rp.logoutTokens.length).toBeGreaterThan(before);
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
    const decided = await rp.approveDevice(token, device);
    expect(decided.status).toBe(200);
    const desktopTokens = await pollApproved(desktop, device);

    await rp.identity.post('/v3/sso/password/forgot/verify-email', { identifier: email, email });
    const [, code] = await rp.identity.mailTo(email, /\b(\d{6})\b/);
    const { reset_token } = (await rp.identity.post('/v3/sso/password/forgot/verify-code', { identifier: email, code })).json();
    const NEW = 'new-plum-orbit-cactus-918';
    expect((await rp.identity.post('/v3/sso/password/reset', { token: reset_token, new_password: NEW, confirm_password: NEW })).statusCode).toBe(204);

    await expect(oidc.refreshTokenGrant(product, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(desktop, desktopTokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(product, tokens.access_token)).active).toBe(false);
  }, 30_000);
});

describe('an account deletion', () => {
  it("ends the person's provider sessions and tokens when the deletion is requested", async () => {
    const { config: product, browser, token, tokens } = await signedInToProduct();
    const requested = await fetch(`${rp.origin}/v3/sso/me/deletion`, {
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
