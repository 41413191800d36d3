import { describe, expect, it } from 'vitest';
import { CALLBACK, json, relyingPartyTestServer } from '../../../test/relying-party';
import { thirdPartyClients } from './clients';

/**
 * A consent to an outside app is remembered per person and app, and a new browser's sign-in
 * reads it with its interaction (adapter-statements.ts, findInteraction; remembered-read-ahead.ts).
 * Asked as an attacker: does one person's consent pass another person through, does consent to
 * one app pass another app through, and does a revoked consent or an ended portal session
 * still let a new browser through?
 */
const rp = relyingPartyTestServer();

/** A new browser signed in to the portal with `token` (a new provider session: the remembered grant is read). */
const newBrowser = (token: string) => rp.browserWith(token);

const wentStraightThrough = (callback: URL) => callback.href.startsWith(CALLBACK) && callback.searchParams.has('code');
const askedConsent = (callback: URL) => callback.origin === rp.origin && callback.pathname === '/o/authorize' && callback.searchParams.has('interaction');

describe('a remembered consent, read with the interaction', () => {
  it("passes only its own person and app through, and stops at once when revoked or the portal session ends", async () => {
    const apps = thirdPartyClients(rp.server.database.db);
    const appA = await apps.add({ name: 'Remembered A', redirectUris: [CALLBACK], site: 'https://a.example' });
    const appB = await apps.add({ name: 'Remembered B', redirectUris: [CALLBACK], site: 'https://b.example' });
    const configA = await rp.discover(appA.clientId, appA.clientSecret);
    const configB = await rp.discover(appB.clientId, appB.clientSecret);
    const { browser, token } = await rp.signedInBrowser();
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${rp.origin}/v3${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });

    // The person allows app A once.
    const first = await rp.authorize(configA, browser);
    expect(askedConsent(first.callback), first.callback.href).toBe(true);
    const decision = await json(api(`/oauth/interactions/${first.callback.searchParams.get('interaction')}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }) }));
    expect(wentStraightThrough((await browser.walk(decision.redirect_to)).url)).toBe(true);

    // A new browser of theirs goes straight through: the remembered consent is found.
    expect(wentStraightThrough((await rp.authorize(configA, newBrowser(token))).callback)).toBe(true);
    // App B is asked for, whatever the person allowed A.
    expect(askedConsent((await rp.authorize(configB, newBrowser(token))).callback)).toBe(true);
    // Another person is asked for A.
    const { browser: other } = await rp.signedInBrowser();
    expect(askedConsent((await rp.authorize(configA, other)).callback)).toBe(true);

    // Revoked in Connected apps: a new browser is asked again at once, twice in a row.
    expect((await api(`/sso/me/connected-apps/${appA.clientId}`, { method: 'DELETE' })).status).toBe(204);
    for (let attempt = 0; attempt < 2; attempt++) expect(askedConsent((await rp.authorize(configA, newBrowser(token))).callback)).toBe(true);

    // Allowed again, then the portal session ends: its browsers get no code, new or not.
    const again = await rp.authorize(configA, browser);
    const allowed = await json(api(`/oauth/interactions/${again.callback.searchParams.get('interaction')}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }) }));
    expect(wentStraightThrough((await browser.walk(allowed.redirect_to)).url)).toBe(true);
    expect((await api('/sso/logout', { method: 'POST' })).status).toBeLessThan(300);
    for (const ended of [browser, newBrowser(token)]) {
      const { callback } = await rp.authorize(configA, ended);
      expect(callback.searchParams.has('code'), callback.href).toBe(false);
    }
  });
});
