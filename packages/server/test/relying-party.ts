import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import { afterAll, beforeAll } from 'vitest';
import { TestBrowser } from './browser';
import { startProviderTestServer, startTestServer, type TestServer } from './harness';
import { identityClient } from './identity';

export const CLIENTS_FILE = fileURLToPath(new URL('./oauth-clients.json', import.meta.url));
export const PRODUCT_SECRET = 'product-secret-of-the-tests-0123456789';
export const CALLBACK = 'http://127.0.0.1:5179/callback';
export const SPA_CALLBACK = 'http://127.0.0.1:5179/spa/callback';
export const PASSWORD = 'plum-orbit-cactus-917';
/** The test product's back-channel logout URI in oauth-clients.json. */
const BACKCHANNEL_LOGOUT_URI = 'http://127.0.0.1:5179/backchannel-logout';

const insecure = { execute: [oidc.allowInsecureRequests] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of the API under test, checked by the expectations
export const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

export interface Authorized {
  callback: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * A copy of the clients file whose test product tells its back-channel logouts to `listener`:
 * a free port of this file's own (files run side by side, each with its listener).
 */
async function clientsFileTelling(listener: Server): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-rp-clients-'));
  const file = path.join(dir, 'oauth-clients.json');
  const uri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/backchannel-logout`;
  await writeFile(file, (await readFile(CLIENTS_FILE, 'utf8')).replaceAll(BACKCHANNEL_LOGOUT_URI, uri));
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A listening portal that is the OpenID provider of the test clients (oauth-clients.json), driven
 * by a certified relying party (openid-client): discovery, a signed-in browser, the code flow with
 * PKCE. Starts before the file's tests and closes after them.
 *
 * `backchannelLogout` also listens as the test product's back-channel logout URI and keeps the
 * logout tokens this server sends. `secondNode`: another node of the same deployment too
 * (`second`: the same database, origin, apps and rate-limit keys, with caches of its own: what
 * one node keeps, the other must learn of).
 */
export function relyingPartyTestServer(options: { backchannelLogout?: boolean; secondNode?: boolean } = {}) {
  let server: TestServer;
  let second: TestServer | undefined;
  let identity: ReturnType<typeof identityClient>;
  let backchannel: Server | undefined;
  let clientsFile: Awaited<ReturnType<typeof clientsFileTelling>> | undefined;
  const logoutTokens: string[] = [];
  let users = 0;
  /** The server's time runs this far ahead of the machine's (the key rotation tests move it past a key's activation). */
  let clockAhead = 0;
  const clock = { now: () => new Date(Date.now() + clockAhead) };

  beforeAll(async () => {
    if (options.backchannelLogout) {
      backchannel = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          const token = new URLSearchParams(body).get('logout_token');
          if (token) logoutTokens.push(token);
          response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => backchannel!.listen(0, '127.0.0.1', resolve));
      clientsFile = await clientsFileTelling(backchannel);
    }
    server = await startProviderTestServer({
      clientsFile: clientsFile?.file ?? CLIENTS_FILE,
      secrets: { 'test-product': PRODUCT_SECRET },
      // Keys read again every second: the rotation tests wait for it, as an operator waits a minute.
      env: { TRUST_PROXY: '1', CHATWOOT_HMAC_SECRET: 'chatwoot-secret-of-the-tests', OIDC_KEYS_RELOAD_SECONDS: '1' },
      clock,
    });
    identity = identityClient(server.app, server.database);
    if (options.secondNode) second = await startSecondNode({ server });
  });

  afterAll(async () => {
    await second?.close();
    await server?.close();
    await new Promise((resolve) => (backchannel ? backchannel.close(resolve) : resolve(undefined)));
    await clientsFile?.remove();
  });

  const origin = () => server.url;

  function discover(clientId: string, secret?: string, metadata: Partial<oidc.ClientMetadata> = {}) {
    return oidc.discovery(new URL(origin()), clientId, metadata, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), insecure);
  }

  /** A new browser signed in to the portal with `token` (and so with a provider session of its own). */
  function browserWith(token: string): TestBrowser {
    const browser = new TestBrowser(origin());
    browser.setCookie('auth_token', token);
    return browser;
  }

  /** A new person, signed in on a new browser. */
  async function signedInBrowser(): Promise<{ browser: TestBrowser; email: string; token: string }> {
    const email = `rp${++users}-${Date.now()}@example.com`;
    const token = await identity.registeredUser(email, PASSWORD);
    return { browser: browserWith(token), email, token };
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

  /**
   * Walks the browser through one authorization request with PKCE and no state or nonce, as the
   * attack tests ask it: where it stopped, the paths it took, and the verifier for its code.
   */
  async function walkAuthorization(config: oidc.Configuration, browser: TestBrowser, scope: string, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra });
    const { url: landed, visited } = await browser.walk(url.href);
    return { landed, visited, verifier };
  }

  async function codeFlow(config: oidc.Configuration, browser: TestBrowser, redirectUri = CALLBACK, scope?: string) {
    const { callback, verifier, state, nonce } = await authorize(config, browser, {}, redirectUri, scope);
    return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  }

  /** A new person signed in to the test product by the code flow: the product's configuration, the person's browser and session, and the product's tokens. */
  async function signedInToProduct() {
    const config = await discover('test-product', PRODUCT_SECRET);
    const person = await signedInBrowser();
    return { config, ...person, tokens: await codeFlow(config, person.browser) };
  }

  /**
   * The device flow's token polling for a code already approved: openid-client waits the
   * provider's `interval` (5 s) before its first poll, which here would only be idle time.
   */
  /** Allows a device sign-in (its user code) as the person signed in with `token`, as the portal's device page does. */
  const approveDevice = (token: string, device: oidc.DeviceAuthorizationResponse) =>
    fetch(`${origin()}/v3/oauth/device/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_code: device.user_code, allow: true }),
    });

  const pollApproved = (config: oidc.Configuration, device: oidc.DeviceAuthorizationResponse) => oidc.pollDeviceAuthorizationGrant(config, { ...device, interval: 0.01 });

  return {
    get server() {
      return server;
    },
    /** The other node (with `secondNode`). */
    get second(): TestServer {
      if (!second) throw new Error('relyingPartyTestServer({ secondNode: true }) starts a second node');
      return second;
    },
    get origin() {
      return origin();
    },
    get identity() {
      return identity;
    },
    /** The logout tokens the back-channel listener received (with `backchannelLogout`). */
    logoutTokens,
    clock,
    /** Moves the server's time `ms` ahead of the machine's (0: back to it). */
    setClockAhead(ms: number) {
      clockAhead = ms;
    },
    discover,
    browserWith,
    signedInBrowser,
    authorize,
    walkAuthorization,
    codeFlow,
    signedInToProduct,
    approveDevice,
    pollApproved,
  };
}

/** Another node of `rp`'s deployment (relyingPartyTestServer's `secondNode`); the caller closes it. */
export function startSecondNode({ server }: { server: TestServer }): Promise<TestServer> {
  return startTestServer({
    database: server.database,
    env: {
      PLATFORM_ORIGIN: server.url,
      // The same apps as the first node's (with its back-channel listener, when it has one).
      OAUTH_CLIENTS_FILE: server.config.OAUTH_CLIENTS_FILE ?? CLIENTS_FILE,
      OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}`,
      TRUST_PROXY: '1',
      REDIS_KEY_PREFIX: server.config.REDIS_KEY_PREFIX,
    },
  });
}
