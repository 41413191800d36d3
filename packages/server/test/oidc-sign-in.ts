import * as oidc from 'openid-client';
import { TestBrowser } from './browser';
import type { TestServer } from './harness';
import { identityClient } from './identity';

/**
 * A new person signed in to `server`'s portal, then through a product (openid-client's `product`)
 * by the code flow with PKCE, as a browser walks it: the tokens the product gets.
 */
export async function productSignIn(server: TestServer, product: oidc.Configuration, redirectUri: string, label: string): Promise<oidc.TokenEndpointResponse> {
  const token = await identityClient(server.app, server.database).registeredUser(`${label}-${Date.now()}@example.com`, 'plum-orbit-cactus-917');
  const browser = new TestBrowser(server.url);
  browser.setCookie('auth_token', token);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(product, {
    redirect_uri: redirectUri,
    scope: 'openid email offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const { url: callback } = await browser.walk(url.href);
  return oidc.authorizationCodeGrant(product, callback, { pkceCodeVerifier: verifier, expectedState: state });
}
