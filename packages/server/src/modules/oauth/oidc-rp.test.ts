import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { freePort, startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { thirdPartyClients } from './clients';

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

const insecure = { execute: [oidc.allowInsecureRequests] };

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
async function authorize(config: oidc.Configuration, browser: TestBrowser, extra: Record<string, string> = {}, redirectUri = CALLBACK): Promise<Authorized> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const { url: callback } = await browser.walk(url.href);
  return { callback, verifier, state, nonce };
}

async function codeFlow(config: oidc.Configuration, browser: TestBrowser, redirectUri = CALLBACK) {
  const { callback, verifier, state, nonce } = await authorize(config, browser, {}, redirectUri);
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
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await startTestServer({
    listen: true,
    port,
    env: { PORT: String(port), PLATFORM_ORIGIN: origin, TRUST_PROXY: '1', OAUTH_CLIENTS_FILE: CLIENTS_FILE, OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}` },
  });
  identity = identityClient(server.app, server.database);
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => backchannel?.close(resolve));
});

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
    const jwks = await (await fetch(metadata.jwks_uri!)).json();
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
