import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { startProviderTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';

/**
 * An interaction belongs to the browser whose authorization request made it. An attacker
 * starts a sign-in to a product in their own browser and sends its interaction address to a
 * person signed in to the portal: the person's visit must not sign the attacker's browser in
 * as that person (a code for their account in the attacker's hands).
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const SPA = 'test-spa';
const SPA_CALLBACK = 'http://127.0.0.1:5179/spa/callback';
let server: TestServer;

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: {} });
});
afterAll(() => server?.close());

/**
 * The public product page's authorization request in `browser`: the interaction it was sent to, where it ended, and its PKCE verifier.
 * `extra`: parameters of the request (a signed-in browser's plain request signs in without an interaction: portal-sign-on.ts).
 */
async function startSignIn(browser: TestBrowser, extra: Record<string, string> = {}) {
  const page = await oidc.discovery(new URL(server.url), SPA, {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const authorize = oidc.buildAuthorizationUrl(page, { redirect_uri: SPA_CALLBACK, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra });
  const { visited, url } = await browser.walk(authorize.href);
  const interaction = visited.find((path) => path.startsWith('/o/interaction/'));
  expect(interaction, visited.join(' -> ')).toBeTruthy();
  return { page, interaction: interaction!, uid: interaction!.split('/').pop()!, verifier, landed: url };
}

describe("an interaction is its own browser's", () => {
  it("a signed-in person who opens an attacker's interaction address does not sign the attacker in as them", async () => {
    const people = identityClient(server.app, server.database);
    const victim = new TestBrowser(server.url);
    victim.setCookie('auth_token', await people.registeredUser(`interaction-victim-${Date.now()}@example.com`));
    const attacker = new TestBrowser(server.url);
    const { page, interaction, uid, verifier } = await startSignIn(attacker);

    // The victim follows the attacker's link while signed in to the portal.
    await victim.walk(interaction);

    // The attacker's browser resumes its own authorization request.
    const { url: landed } = await attacker.walk(`/o/authorize/${uid}`);
    const code = landed.origin === new URL(SPA_CALLBACK).origin ? landed.searchParams.get('code') : null;
    if (code) {
      const tokens = await oidc.authorizationCodeGrant(page, landed, { pkceCodeVerifier: verifier });
      expect({ signedInAs: tokens.claims()?.email }, 'the attacker got a code for the victim').toEqual({ signedInAs: undefined });
    }
    expect(code).toBeNull();
  });

  it("a signed-in person's visit to an interaction their browser did not start records nothing on it", async () => {
    const victim = new TestBrowser(server.url);
    victim.setCookie('auth_token', await identityClient(server.app, server.database).registeredUser(`interaction-visit-${Date.now()}@example.com`));
    const { interaction } = await startSignIn(new TestBrowser(server.url));

    const { response, visited } = await victim.walk(interaction);
    expect({ status: response.status, visited }).toEqual({ status: 400, visited: [interaction] });
    expect(await response.text()).toContain('This sign-in request has expired');
  });

  it('the browser that made the interaction, signed in to the portal, signs in through it', async () => {
    const person = new TestBrowser(server.url);
    person.setCookie('auth_token', await identityClient(server.app, server.database).registeredUser(`interaction-owner-${Date.now()}@example.com`));
    // max_age: the interaction route weighs it, so the signed-in browser goes through its interaction.
    const { landed } = await startSignIn(person, { max_age: '3600' });
    expect(landed.origin + landed.pathname).toBe(SPA_CALLBACK);
    expect(landed.searchParams.get('code'), landed.href).toBeTruthy();
  });
});
