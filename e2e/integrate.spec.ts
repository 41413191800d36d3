import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { Webhook } from 'standardwebhooks';
import { createWebApp } from '../examples/node-web-app/app';
import { createProductApi } from '../examples/product-api/api';
import { accessTokenVerifier } from '../examples/product-api/verify';
import { createWebhookReceiver, type PortalEvent } from '../examples/webhook-receiver/receiver';
import { signIn } from './support/auth';
import { demoAccountFromLog, ROOT, startPortalServer, type PortalServer } from './support/server';

/**
 * The recipes of docs/integrate.md, run as written against the real server: the example web
 * app (examples/node-web-app, openid-client) signs a person in through the portal in Chromium,
 * shows their claims, calls the example notes API, refreshes its tokens and signs out through
 * the portal; the notes API (examples/product-api, jose) accepts the portal's tokens meant for
 * it and refuses the others; the webhook receiver (examples/webhook-receiver, standardwebhooks)
 * handles each signed event once.
 *
 * The spec runs its own server with the test clients file, where the example app and the notes
 * API are registered (packages/server/test/oauth-clients.json: example-web-app on 127.0.0.1:5185,
 * resource_servers).
 */
test.describe.configure({ mode: 'serial' });

const APP_URL = 'http://127.0.0.1:5185';
const APP_SECRET = 'example-web-app-secret-of-the-tests-0123456789';
const NOTES_API = 'https://notes.example.test/';
let portal: PortalServer;
let dataDir: string;
let webApp: Server;
let notesApi: Server;
let notesUrl: string;
let demo: { email: string; password: string };
const servers: Server[] = [];

/** Listens on a free port of 127.0.0.1 and answers the server's address. */
async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-integrate-'));
  portal = await startPortalServer({
    env: {
      DATA_DIR: path.join(dataDir, 'db'),
      OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'oauth-clients.json'),
      OAUTH_CLIENT_SECRETS: `example-web-app=${APP_SECRET}`,
    },
  });
  demo = (await demoAccountFromLog(portal.logFile))!;

  notesApi = createProductApi(await accessTokenVerifier({ portalUrl: portal.platformUrl, audience: NOTES_API }));
  notesUrl = `${await listen(notesApi)}/notes`;
  webApp = await createWebApp({
    portalUrl: portal.platformUrl,
    clientId: 'example-web-app',
    clientSecret: APP_SECRET,
    appUrl: APP_URL,
    api: { url: notesUrl, resource: NOTES_API, scope: 'notes:read' },
  });
  servers.push(webApp);
  await new Promise<void>((resolve) => webApp.listen(5185, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await portal?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * A code flow of `clientId` in the test itself, the browser signed in: the redirect back is
 * watched and its code redeemed here. Answers the tokens, or the error the portal sent back.
 */
async function codeFlow(page: Page, options: { clientId: string; secret?: string; redirectUri: string; scope: string; resource?: string }) {
  const config = await oidc.discovery(new URL(portal.platformUrl), options.clientId, undefined, options.secret ? oidc.ClientSecretBasic(options.secret) : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const resource: Record<string, string> = options.resource ? { resource: options.resource } : {};
  // Playwright's route() does not see the redirect's target, so the request is only watched: the
  // code reaches the app too, which has no sign-in pending for this browser and leaves it unused.
  const redirected = page.waitForRequest((request) => request.url().startsWith(`${options.redirectUri}?`));
  await page.goto(
    oidc.buildAuthorizationUrl(config, {
      redirect_uri: options.redirectUri,
      scope: options.scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...resource,
    }).href,
  )
    // Nothing may listen at a redirect URI of another app (127.0.0.1:5179): the request is what counts.
    .catch(() => undefined);
  const url = new URL((await redirected).url());
  if (url.searchParams.get('error')) return { error: url.searchParams.get('error')! };
  return { tokens: await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: verifier, expectedState: state }, resource) };
}

test('the example web app signs a person in through the portal, shows their claims, refreshes and signs out through the portal', async ({ page }) => {
  await page.goto(APP_URL);
  await expect(page.getByText('You are not signed in.')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with the portal' }).click();

  // The portal's own sign-in pages (code + PKCE: the app never sees the password).
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F/);
  await page.getByLabel('Email or username').fill(demo.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Back on the app: the ID token's claims, checked by openid-client.
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByRole('heading', { name: `Signed in as ${demo.email}` })).toBeVisible();
  const claims = page.getByRole('table', { name: 'Claims of your ID token' });
  await expect(claims.getByRole('row', { name: /^email "/ })).toContainText(demo.email);
  await expect(claims.getByRole('row', { name: /^iss "/ })).toContainText(portal.platformUrl);
  await expect(claims.getByRole('row', { name: /^aud "/ })).toContainText('example-web-app');
  await expect(claims.getByRole('row', { name: /^amr \[/ })).toContainText('pwd');

  // The access token is the notes API's (a JWT it verifies on its own): the app calls the API with it.
  await page.getByRole('button', { name: 'Call the product API' }).click();
  await expect(page.getByRole('status')).toContainText('The API answered 200');
  await expect(page.getByRole('status')).toContainText('"client_id":"example-web-app"');

  // A refresh answers new tokens (the portal rotates the refresh token).
  const before = await page.locator('time').textContent();
  await page.waitForTimeout(1100);
  await page.getByRole('button', { name: 'Refresh tokens' }).click();
  await expect(page.getByRole('status')).toHaveText('Tokens refreshed.');
  expect(await page.locator('time').textContent()).not.toBe(before);

  // Signing out goes through the portal, which asks, ends its session and sends the browser back.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByText('You are not signed in.')).toBeVisible();
  expect((await page.context().request.get(`${portal.platformUrl}/v3/sso/me`)).status()).toBe(401);

  // Signed out of the portal too: signing in to the app asks for the person's sign-in again.
  await page.getByRole('link', { name: 'Sign in with the portal' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fo%2Finteraction%2F/);
});

test("the notes API accepts the portal's token meant for it and refuses another API's, a missing scope, an expired token, an ID token and no token", async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  const { tokens } = await codeFlow(page, { clientId: 'example-web-app', secret: APP_SECRET, redirectUri: `${APP_URL}/callback`, scope: 'openid notes:read', resource: NOTES_API });
  const accessToken = tokens!.access_token;
  // An RFC 9068 token: typed, for the notes API, with the scope the sign-in granted.
  expect(decodeProtectedHeader(accessToken)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
  const claims = decodeJwt(accessToken);
  expect(claims).toMatchObject({ aud: NOTES_API, scope: 'notes:read', client_id: 'example-web-app', sub: tokens!.claims()!.sub });
  // It cannot be revoked before it expires, so it lives minutes (the API's access_token_ttl, 5 by default).
  expect(claims.exp! - claims.iat!).toBe(300);
  expect(tokens!.expires_in).toBe(300);

  const call = (url: string, token: string | null, method = 'GET') =>
    fetch(url, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(method === 'POST' ? { body: 'a note' } : {}) });
  const read = await call(notesUrl, accessToken);
  expect(read.status).toBe(200);
  expect(await read.json()).toMatchObject({ sub: claims.sub, client_id: 'example-web-app', notes: [] });

  // notes:write was not asked for: 403 with the scope to ask for.
  const write = await call(notesUrl, accessToken, 'POST');
  expect(write.status).toBe(403);
  expect(write.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="notes:write"');

  // Another API (another audience) refuses the token.
  const otherApi = createProductApi(await accessTokenVerifier({ portalUrl: portal.platformUrl, audience: 'https://other.example.test/' }));
  const other = await call(`${await listen(otherApi)}/notes`, accessToken);
  expect(other.status).toBe(401);
  expect(other.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');

  // The same token checked after its expiry.
  const later = createProductApi(await accessTokenVerifier({ portalUrl: portal.platformUrl, audience: NOTES_API, now: () => new Date((claims.exp! + 1) * 1000) }));
  const expired = await call(`${await listen(later)}/notes`, accessToken);
  expect(expired.status).toBe(401);
  expect(await expired.json()).toMatchObject({ error: 'invalid_token', message: 'the token expired' });

  // An ID token is no access token; a forged signature, or none, is nothing.
  expect((await call(notesUrl, tokens!.id_token!)).status).toBe(401);
  const [header, payload] = accessToken.split('.');
  expect((await call(notesUrl, `${header}.${payload}.${Buffer.from('forged').toString('base64url')}`)).status).toBe(401);
  expect((await call(notesUrl, null)).status).toBe(401);
});

test("the portal issues the notes API's tokens only to the apps declared for it, and only the API's scopes", async ({ page }) => {
  await signIn(page.context(), portal.platformUrl, demo);
  // Another product of the family, not declared for the notes API: invalid_target, no code.
  const refused = await codeFlow(page, { clientId: 'test-spa', redirectUri: 'http://127.0.0.1:5179/spa/callback', scope: 'openid notes:read', resource: NOTES_API });
  expect(refused).toEqual({ error: 'invalid_target' });
  // An API the portal does not know.
  const unknown = await codeFlow(page, { clientId: 'example-web-app', secret: APP_SECRET, redirectUri: `${APP_URL}/callback`, scope: 'openid notes:read', resource: 'https://unknown.example.test/' });
  expect(unknown).toEqual({ error: 'invalid_target' });
  // A scope the API does not declare is not in its token.
  const { tokens } = await codeFlow(page, { clientId: 'example-web-app', secret: APP_SECRET, redirectUri: `${APP_URL}/callback`, scope: 'openid notes:read admin:people', resource: NOTES_API });
  expect(decodeJwt(tokens!.access_token).scope).toBe('notes:read');
  // Without `resource` the app gets the portal's own opaque token, as before.
  const { tokens: plain } = await codeFlow(page, { clientId: 'example-web-app', secret: APP_SECRET, redirectUri: `${APP_URL}/callback`, scope: 'openid email' });
  expect(plain!.access_token.split('.')).toHaveLength(1);
});

test('the webhook receiver handles a signed event once: a retry of the same id is answered 200 and not handled again; a bad signature, another secret or an old timestamp is refused', async () => {
  const secret = `whsec_${Buffer.from('example-receiver-secret-of-the-tests!').toString('base64')}`;
  const handled: string[] = [];
  let failNext = 1;
  const receiverUrl = await listen(
    createWebhookReceiver({
      secret,
      async onEvent(event: PortalEvent, id) {
        // The product's handler fails once (its database was away): the portal's retry handles it.
        if (failNext-- > 0) throw new Error('database away');
        handled.push(`${id} ${event.type}`);
      },
    }),
  );
  const send = (id: string, body: string, options: { secret?: string; sentAt?: Date } = {}) => {
    const sentAt = new Date(Math.floor((options.sentAt ?? new Date()).getTime() / 1000) * 1000);
    const signature = new Webhook(options.secret ?? secret).sign(id, sentAt, body);
    return fetch(receiverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(sentAt.getTime() / 1000), 'webhook-signature': signature },
      body,
    });
  };
  const event = JSON.stringify({ type: 'user.deleted', timestamp: new Date().toISOString(), data: { id: 'user-1' } });

  expect((await send('msg_1', event)).status).toBe(500);
  expect(handled).toEqual([]);
  expect((await send('msg_1', event)).status).toBe(200);
  const again = await send('msg_1', event);
  expect([again.status, await again.text()]).toEqual([200, 'duplicate']);
  expect(handled).toEqual(['msg_1 user.deleted']);

  // Signed for another body, with another secret, or ten minutes ago (a replay): refused, not handled.
  const tampered = await fetch(receiverUrl, {
    method: 'POST',
    headers: { 'webhook-id': 'msg_2', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': new Webhook(secret).sign('msg_2', new Date(Math.floor(Date.now() / 1000) * 1000), event) },
    body: event.replace('user-1', 'user-2'),
  });
  expect(tampered.status).toBe(401);
  expect((await send('msg_3', event, { secret: `whsec_${Buffer.from('another-secret-of-another-app!!').toString('base64')}` })).status).toBe(401);
  expect((await send('msg_4', event, { sentAt: new Date(Date.now() - 10 * 60_000) })).status).toBe(401);
  expect(handled).toEqual(['msg_1 user.deleted']);
});
