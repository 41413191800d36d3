import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { startProviderTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { OutsideAppUrlRefused, thirdPartyClients } from './clients';

/**
 * Server-side request forgery through an outside app's back-channel logout URI, under the
 * production rule (EGRESS_ALLOW_LOOPBACK=false): registering one on loopback, a private or a
 * metadata address is refused, and one stored anyway is never requested when the person signs out.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const CALLBACK = 'http://127.0.0.1:9/callback';
const PASSWORD = 'plum-orbit-cactus-917';
let server: TestServer;
let identity: ReturnType<typeof identityClient>;
/** A service on this machine the attacker aims at: every connection and request to it counted. */
const internal = { connections: 0, requests: 0, port: 0, close: async () => undefined as void };

beforeAll(async () => {
  const listener = createServer((_request, response) => {
    internal.requests++;
    response.writeHead(200).end();
  });
  listener.on('connection', () => internal.connections++);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  internal.port = (listener.address() as AddressInfo).port;
  internal.close = () => new Promise<void>((resolve) => listener.close(() => resolve()));
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: {}, env: { EGRESS_ALLOW_LOOPBACK: 'false' } });
  identity = identityClient(server.app, server.database);
});
afterAll(async () => {
  await server?.close();
  await internal.close();
});

describe("an outside app's back-channel logout URI", () => {
  it('is refused at registration when it is not https or not a public address', async () => {
    const registry = thirdPartyClients(server.database.db, { allowLoopback: false });
    for (const uri of [`http://127.0.0.1:${internal.port}/bcl`, `https://127.0.0.1:${internal.port}/bcl`, `https://localhost:${internal.port}/bcl`, 'https://10.0.0.7/bcl', 'https://169.254.169.254/latest', 'https://[fd00:ec2::254]/', 'http://app.example/bcl']) {
      await expect(registry.add({ name: 'Prober', redirectUris: ['https://app.example/cb'], backchannelLogoutUri: uri }), uri).rejects.toBeInstanceOf(OutsideAppUrlRefused);
    }
    expect(await registry.add({ name: 'Fine', redirectUris: ['https://app.example/cb'], backchannelLogoutUri: 'https://app.example/bcl' })).toHaveProperty('clientId');
    expect(internal).toMatchObject({ connections: 0, requests: 0 });
  });

  it('stored on loopback anyway, it is never requested when the person signs out', async () => {
    // Registered where loopback was allowed (a developer's machine), then served under the production rule.
    const registered = await thirdPartyClients(server.database.db, { allowLoopback: true }).add({
      name: 'Loopback Prober',
      redirectUris: [CALLBACK],
      backchannelLogoutUri: `http://127.0.0.1:${internal.port}/bcl`,
    });
    const app = await oidc.discovery(new URL(server.url), registered.clientId, {}, oidc.ClientSecretBasic(registered.clientSecret!), { execute: [oidc.allowInsecureRequests] });
    const token = await identity.registeredUser(`prober-${Date.now()}@example.com`, PASSWORD);
    const browser = new TestBrowser(server.url);
    browser.setCookie('auth_token', token);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(app, { redirect_uri: CALLBACK, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: oidc.randomState() });
    const first = await browser.walk(url.href);
    const uid = first.url.searchParams.get('interaction')!;
    const decision = await fetch(`${server.url}/v3/oauth/interactions/${uid}/consent`, { method: 'POST', body: JSON.stringify({ allow: true }), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    const { url: callback } = await browser.walk(((await decision.json()) as { redirect_to: string }).redirect_to);
    expect(callback.href.startsWith(CALLBACK)).toBe(true);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const out = await fetch(`${server.url}/v3/sso/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBeLessThan(300);
    // Give a back-channel call time to happen, were it sent.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(internal).toMatchObject({ connections: 0, requests: 0 });
  });
});
