import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { freePort, startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { capturedLog } from '../../../test/logs';
import { oauthClients, oidcKeys, operatorAuditEvents, operatorRoles, users } from '../../db/schema';
import { sha256 } from '../../platform/crypto';

/**
 * Apps in the admin API, over HTTP against two real nodes on one database, with openid-client
 * as the outside app: who may read and change them, a registration that signs a person in on
 * the other node at once, a disabled app refused at once on both, a rotated secret shown once
 * and nowhere else (answers, logs, operator audit log), first-party clients read-only.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const PRODUCT_SECRET = 'product-secret-of-the-admin-tests-0123456789';
const CALLBACK = 'http://127.0.0.1:5179/admin-app/callback';
const OTHER_CALLBACK = 'http://127.0.0.1:5179/admin-app/other';

/** The servers' time runs this far ahead of the machine's (the stale-session test moves it past the recent proof). */
let clockAhead = 0;
const clock = { now: () => new Date(Date.now() + clockAhead) };
let first: TestServer;
let second: TestServer;
const logs = capturedLog();
const tokens: Record<string, string> = {};

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (token: string | undefined, method: Method, url: string, payload?: object, node: TestServer = first) =>
  node.app.inject({ method, url: `/v3${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload ? { payload } : {}) });
/** An OAuth error as openid-client throws it: in the body (`error`), or in a WWW-Authenticate challenge (a client refused at the token endpoint). */
const refusedAs = (code: string) => (error: unknown) => {
  const thrown = error as { error?: string; cause?: Array<{ parameters?: { error?: string } }> };
  return (thrown.error ?? thrown.cause?.[0]?.parameters?.error) === code;
};
const codeOf = (response: { json(): unknown }) => (response.json() as { code?: string }).code;
const reason = 'Partner integration ticket 42';

/** An account (signed in just now), with two-step on unless said, holding `roles`. */
async function person(name: string, roles: string[], twoFactor = true): Promise<string> {
  const email = `${name}@example.com`;
  const token = await identityClient(first.app, first.database).registeredUser(email);
  const db = first.database.db;
  if (twoFactor) await db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  for (const role of roles) await db.insert(operatorRoles).values({ userId: row!.id, role });
  tokens[name] = token;
  return token;
}

/** openid-client for an outside app, talking to `node` (both nodes are one issuer: the first's origin). */
async function appOn(node: TestServer, clientId: string, secret: string | null): Promise<oidc.Configuration> {
  const discovered = await oidc.discovery(new URL(first.url), clientId, {}, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), { execute: [oidc.allowInsecureRequests] });
  // The discovered document itself (the accessor adds a method that is no metadata).
  const { supportsPKCE: _method, ...metadata } = discovered.serverMetadata();
  const at = (url: string | undefined) => url && url.replace(first.url, node.url);
  const config = new oidc.Configuration(
    { ...metadata, authorization_endpoint: at(metadata.authorization_endpoint), token_endpoint: at(metadata.token_endpoint), userinfo_endpoint: at(metadata.userinfo_endpoint) },
    clientId,
    {},
    secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
  );
  oidc.allowInsecureRequests(config);
  return config;
}

/** A person signed in on `node` through the app: authorization, consent, code exchange (openid-client). */
async function signInThrough(node: TestServer, config: oidc.Configuration, personToken: string, redirectUri = CALLBACK, scope = 'openid email offline_access') {
  const browser = new TestBrowser(node.url);
  browser.setCookie('auth_token', personToken);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
  let landed = await browser.walk(url.href);
  const uid = landed.url.searchParams.get('interaction');
  if (uid) {
    const decision = await node.app.inject({ method: 'POST', url: `/v3/oauth/interactions/${uid}/consent`, payload: { allow: true }, headers: { authorization: `Bearer ${personToken}` } });
    expect(decision.statusCode, decision.body).toBe(200);
    landed = await browser.walk(decision.json().redirect_to);
  }
  if (!landed.url.href.startsWith(redirectUri) || landed.url.searchParams.has('error')) return { refused: landed, tokens: undefined };
  return { refused: undefined, tokens: await oidc.authorizationCodeGrant(config, landed.url, { pkceCodeVerifier: verifier, expectedState: state }) };
}

const register = async (body: Record<string, unknown> = {}, node = first) => {
  const response = await call(tokens.owner, 'POST', '/admin/apps', { name: 'Partner App', redirect_uris: [CALLBACK], reason, ...body }, node);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { app: { client_id: string; has_secret: boolean }; client_secret: string | null };
};

beforeAll(async () => {
  // The provider's issuer is the first node's origin, so it listens where it says it is; both log at info into `logs`.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { LOG_LEVEL: 'info', PLATFORM_ORIGIN: origin, OAUTH_CLIENTS_FILE: CLIENTS_FILE, OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}` };
  first = await startTestServer({ listen: true, port, clock, logStream: logs.stream(), env: { ...env, PORT: String(port) } });
  second = await startTestServer({ listen: true, database: first.database, clock, logStream: logs.stream(), env: { ...env, REDIS_KEY_PREFIX: first.config.REDIS_KEY_PREFIX } });
  await person('owner', ['owner']);
  await person('support', ['support']);
  await person('finance', ['finance']);
  await person('nobody', []);
  await person('lax', ['owner'], false);
  await person('signer', []);
}, 90_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('who may read and change apps', () => {
  it('refuses anonymous callers, non-operators, finance, an owner without two-step; support reads but changes nothing', async () => {
    const { app } = await register();
    const id = app.client_id;
    const before = await first.database.db.select().from(oauthClients).where(eq(oauthClients.clientId, id));
    const changes: Array<[Method, string, object]> = [
      ['POST', '/admin/apps', { name: 'Mine', redirect_uris: [CALLBACK], reason }],
      ['PATCH', `/admin/apps/${id}`, { redirect_uris: ['https://evil.example/cb'], reason }],
      ['PUT', `/admin/apps/${id}/logo`, { url: 'https://evil.example/logo.png', reason }],
      ['POST', `/admin/apps/${id}/secret`, { reason }],
      ['POST', `/admin/apps/${id}/disable`, { reason }],
      ['POST', `/admin/apps/${id}/enable`, { reason }],
      ['DELETE', `/admin/apps/${id}`, { reason }],
    ];
    const reads: Array<[Method, string]> = [
      ['GET', '/admin/apps'],
      ['GET', `/admin/apps/${id}`],
    ];
    for (const [method, url, body] of [...changes, ...reads]) {
      expect((await call(undefined, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      for (const name of ['nobody', 'finance']) {
        const refused = await call(tokens[name], method, url, body);
        expect([refused.statusCode, codeOf(refused)], `${name} ${method} ${url}`).toEqual([403, 'admin.forbidden']);
      }
      const lax = await call(tokens.lax, method, url, body);
      expect([lax.statusCode, codeOf(lax)], `lax ${method} ${url}`).toEqual([403, 'admin.two_factor_required']);
    }
    for (const [method, url, body] of changes) {
      const refused = await call(tokens.support, method, url, body);
      expect([refused.statusCode, codeOf(refused)], `support ${method} ${url}`).toEqual([403, 'admin.forbidden']);
    }
    for (const [method, url] of reads) expect((await call(tokens.support, method, url)).statusCode, `support ${url}`).toBe(200);
    // Nothing changed: the same row, secret hash included.
    expect(await first.database.db.select().from(oauthClients).where(eq(oauthClients.clientId, id))).toEqual(before);
  });

  it('an operator API key needs the apps scope; with it, an owner key reads and changes apps', async () => {
    const make = async (scopes: string[]) => (await call(tokens.owner, 'POST', '/admin/api-keys', { name: `Apps ${scopes.join()}`, scopes, reason })).json().key as string;
    const peopleKey = await make(['admin:people']);
    const refused = await call(peopleKey, 'GET', '/admin/apps');
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'admin.scope_missing']);
    const appsKey = await make(['admin:apps']);
    expect((await call(appsKey, 'GET', '/admin/apps')).statusCode).toBe(200);
    const made = await call(appsKey, 'POST', '/admin/apps', { name: 'Made By Key', redirect_uris: [CALLBACK], reason });
    expect(made.statusCode, made.body).toBe(201);
    // The apps scope opens no signing key.
    const keys = await call(appsKey, 'GET', '/admin/signing-keys');
    expect([keys.statusCode, codeOf(keys)]).toEqual([403, 'admin.scope_missing']);
  });

  it('an old session is asked to prove it is the operator again', async () => {
    clockAhead = (first.config.REAUTH_MAX_AGE_SECONDS + 1) * 1000;
    try {
      for (const [method, url, body] of [
        ['POST', '/admin/apps', { name: 'Stale', redirect_uris: [CALLBACK], reason }],
        ['GET', '/admin/apps'],
        ['POST', '/admin/signing-keys/rotate', { reason }],
      ] as Array<[Method, string, object?]>) {
        const refused = await call(tokens.owner, method, url, body);
        expect([refused.statusCode, codeOf(refused)], url).toEqual([403, 'auth.reauth_required']);
      }
    } finally {
      clockAhead = 0;
    }
  });
});

describe('a change holds on every node at once', () => {
  it('an app registered on one node signs a person in on the other at once, and refreshes there', async () => {
    const { app, client_secret } = await register({ name: 'Instant App' }, first);
    expect(client_secret).toMatch(/^[\w-]{40,}$/);
    const { tokens: issued } = await signInThrough(second, await appOn(second, app.client_id, client_secret), tokens.signer!);
    expect(issued?.claims()?.email).toBe('signer@example.com');
    const refreshed = await oidc.refreshTokenGrant(await appOn(first, app.client_id, client_secret), issued!.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
  });

  it('a disabled app is refused at once on both nodes: no sign-in, no refresh, no userinfo; enabled again, it works', async () => {
    const { app, client_secret } = await register({ name: 'Soon Disabled' });
    const onFirst = await appOn(first, app.client_id, client_secret);
    const onSecond = await appOn(second, app.client_id, client_secret);
    const { tokens: issued } = await signInThrough(first, onFirst, tokens.signer!);
    expect(issued?.refresh_token).toBeTruthy();

    const disabled = await call(tokens.owner, 'POST', `/admin/apps/${app.client_id}/disable`, { reason: 'Abuse report' }, second);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ disabled: true });

    for (const config of [onFirst, onSecond]) {
      await expect(oidc.refreshTokenGrant(config, issued!.refresh_token!)).rejects.toSatisfy(refusedAs('invalid_client'));
      await expect(oidc.fetchUserInfo(config, issued!.access_token, oidc.skipSubjectCheck)).rejects.toBeDefined();
    }
    for (const node of [first, second]) {
      const { refused } = await signInThrough(node, await appOn(node, app.client_id, client_secret), tokens.signer!);
      expect(refused?.response.status, 'the provider answers its error page').toBe(400);
    }

    expect((await call(tokens.owner, 'POST', `/admin/apps/${app.client_id}/enable`, { reason: 'Cleared' })).json()).toMatchObject({ disabled: false });
    expect((await signInThrough(second, onSecond, tokens.signer!)).tokens?.access_token).toBeTruthy();
  });

  it('an edit of the redirect URIs and scopes holds at once on the other node; two edits at once both land', async () => {
    const { app, client_secret } = await register({ name: 'Edited App' });
    const onSecond = await appOn(second, app.client_id, client_secret);
    const [renamed, redirected] = await Promise.all([
      call(tokens.owner, 'PATCH', `/admin/apps/${app.client_id}`, { name: 'Renamed App', reason }),
      call(tokens.owner, 'PATCH', `/admin/apps/${app.client_id}`, { redirect_uris: [OTHER_CALLBACK], scopes: ['openid', 'email'], reason }, second),
    ]);
    expect([renamed.statusCode, redirected.statusCode]).toEqual([200, 200]);
    const now = (await call(tokens.owner, 'GET', `/admin/apps/${app.client_id}`)).json();
    expect(now).toMatchObject({ name: 'Renamed App', redirect_uris: [OTHER_CALLBACK], scopes: ['openid', 'email'] });

    expect((await signInThrough(second, onSecond, tokens.signer!, CALLBACK, 'openid email')).refused?.response.status).toBe(400);
    const asksTooMuch = await signInThrough(second, onSecond, tokens.signer!, OTHER_CALLBACK, 'openid email profile');
    expect(asksTooMuch.refused?.url.searchParams.get('error') ?? asksTooMuch.refused?.response.status).toBe('invalid_scope');
    expect((await signInThrough(second, onSecond, tokens.signer!, OTHER_CALLBACK, 'openid email')).tokens?.access_token).toBeTruthy();
  });
});

describe('secrets', () => {
  it('a rotated secret is in its one answer only: not in reads, logs or the operator audit log; the old one stops working', async () => {
    const { app, client_secret: original } = await register({ name: 'Rotated App' });
    const { tokens: issued } = await signInThrough(first, await appOn(first, app.client_id, original), tokens.signer!);
    const rotated = await call(tokens.owner, 'POST', `/admin/apps/${app.client_id}/secret`, { reason: 'Leaked in a build log' });
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json().client_secret as string;
    expect(secret).toMatch(/^[\w-]{40,}$/);
    expect(rotated.headers['cache-control']).toMatch(/no-store/);

    const reads = [await call(tokens.owner, 'GET', '/admin/apps'), await call(tokens.owner, 'GET', `/admin/apps/${app.client_id}`), await call(tokens.support, 'GET', `/admin/apps/${app.client_id}`)];
    for (const read of reads) {
      expect(read.body).not.toContain(secret);
      expect(read.body).not.toContain(sha256(secret));
      expect(read.body).not.toContain(original!);
    }
    expect(reads[1]!.json()).toMatchObject({ has_secret: true });
    const audit = await first.database.db.select().from(operatorAuditEvents);
    expect(audit.find((event) => event.action === 'POST /admin/apps/{client_id}/secret')).toMatchObject({ target: { client_id: app.client_id }, reason: 'Leaked in a build log' });
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(logs.text).toContain('/admin/apps'); // the log is written: a clean one is not an empty one
    for (const value of [secret, original!]) expect(logs.text).not.toContain(value);

    await expect(oidc.refreshTokenGrant(await appOn(first, app.client_id, original), issued!.refresh_token!)).rejects.toSatisfy(refusedAs('invalid_client'));
    expect((await oidc.refreshTokenGrant(await appOn(second, app.client_id, secret), issued!.refresh_token!)).access_token).toBeTruthy();
  });

  it('a public app has no secret to rotate', async () => {
    const { app, client_secret } = await register({ name: 'Single Page', public: true });
    expect(client_secret).toBeNull();
    const refused = await call(tokens.owner, 'POST', `/admin/apps/${app.client_id}/secret`, { reason });
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'admin.app_public']);
    const [row] = await first.database.db.select().from(oauthClients).where(eq(oauthClients.clientId, app.client_id));
    expect(row!.secretHash).toBeNull();
  });
});

describe('first-party clients', () => {
  it('are listed from their file, read-only, and never with their secret', async () => {
    const listed = await call(tokens.owner, 'GET', '/admin/apps');
    expect(listed.body).not.toContain(PRODUCT_SECRET);
    expect(listed.body).not.toContain(sha256(PRODUCT_SECRET));
    const product = (listed.json().apps as Array<Record<string, unknown>>).find((app) => app.client_id === 'test-product');
    expect(product).toMatchObject({ kind: 'first_party', has_secret: true, service_scope: 'pwdmanager', disabled: false });
    for (const [method, url, body] of [
      ['PATCH', '/admin/apps/test-product', { redirect_uris: ['https://evil.example/cb'], reason }],
      ['PUT', '/admin/apps/test-product/logo', { url: 'https://evil.example/logo.png', reason }],
      ['POST', '/admin/apps/test-product/secret', { reason }],
      ['POST', '/admin/apps/test-product/disable', { reason }],
      ['DELETE', '/admin/apps/test-product', { reason }],
      ['DELETE', '/admin/apps/test-desktop', { reason }],
    ] as Array<[Method, string, object]>) {
      const refused = await call(tokens.owner, method, url, body);
      expect([refused.statusCode, codeOf(refused)], `${method} ${url}`).toEqual([409, 'admin.app_first_party']);
    }
    expect((await call(tokens.owner, 'GET', '/admin/apps/test-product')).json()).toMatchObject({ redirect_uris: ['http://127.0.0.1:5179/callback'] });
  });
});

describe('input', () => {
  it('refuses settings the provider or the egress guard would refuse, and stores nothing', async () => {
    const count = async () => (await first.database.db.select().from(oauthClients)).length;
    const before = await count();
    for (const [body, expected] of [
      [{ redirect_uris: ['javascript:alert(1)'] }, 'admin.app_settings_invalid'],
      [{ redirect_uris: [`${CALLBACK}#fragment`] }, 'admin.app_settings_invalid'],
      [{ redirect_uris: ['not a url'] }, 'validation_error'],
      [{ redirect_uris: [] }, 'validation_error'],
      [{ site: 'javascript:alert(1)' }, 'validation_error'],
      [{ scopes: ['email'] }, 'validation_error'],
      [{ scopes: ['openid', 'moderators'] }, 'validation_error'],
      [{ grant_types: ['refresh_token'] }, 'validation_error'],
      [{ grant_types: ['authorization_code', 'client_credentials'] }, 'validation_error'],
      [{ backchannel_logout_uri: 'https://169.254.169.254/latest' }, 'validation_error'],
      [{ backchannel_logout_uri: 'https://10.0.0.7/bcl' }, 'validation_error'],
      [{ name: '' }, 'validation_error'],
    ] as Array<[Record<string, unknown>, string]>) {
      const refused = await call(tokens.owner, 'POST', '/admin/apps', { name: 'Bad', redirect_uris: [CALLBACK], reason, ...body });
      expect([refused.statusCode, codeOf(refused)], JSON.stringify(body)).toEqual([400, expected]);
    }
    const metadata = await call(tokens.owner, 'POST', '/admin/apps', { name: 'Bad', redirect_uris: [CALLBACK], backchannel_logout_uri: 'https://169.254.169.254/x', reason });
    expect(metadata.json().details.fields.backchannel_logout_uri.code).toBe('egress.url_refused');
    expect(await count()).toBe(before);

    const { app } = await register({ name: 'Kept As Is' });
    const bad = await call(tokens.owner, 'PATCH', `/admin/apps/${app.client_id}`, { backchannel_logout_uri: 'https://10.1.2.3/bcl', reason });
    expect(bad.statusCode).toBe(400);
    expect((await call(tokens.owner, 'PATCH', `/admin/apps/${app.client_id}`, { redirect_uris: ['javascript:alert(1)'], reason })).statusCode).toBe(400);
    expect((await call(tokens.owner, 'GET', `/admin/apps/${app.client_id}`)).json()).toMatchObject({ redirect_uris: [CALLBACK], backchannel_logout_uri: null });

    for (const id of ['app_nope', 'x'.repeat(129), 'a%00b']) {
      const missing = await call(tokens.owner, 'GET', `/admin/apps/${id}`);
      // Past the router's parameter length it is no route at all (404), never a database error.
      expect(missing.statusCode, id).toBe(id === 'a%00b' ? 400 : 404);
    }
    const gone = await call(tokens.owner, 'POST', '/admin/apps/app_nope/secret', { reason });
    expect([gone.statusCode, codeOf(gone)]).toEqual([404, 'admin.not_found']);
  });

  it('takes a logo as a file (made into our own WebP), refuses what is not an image and addresses the egress guard refuses', async () => {
    const { app } = await register({ name: 'Logo App' });
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366ff' } }).png().toBuffer();
    const set = await call(tokens.owner, 'PUT', `/admin/apps/${app.client_id}/logo`, { image_base64: png.toString('base64'), reason: 'New brand' });
    expect(set.statusCode, set.body).toBe(200);
    const logoUri = set.json().logo_uri as string;
    expect(logoUri).toMatch(new RegExp(`^/v3/.*${app.client_id}.*\\?v=1$`));
    const served = await first.app.inject({ url: logoUri });
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(128);

    const notImage = await call(tokens.owner, 'PUT', `/admin/apps/${app.client_id}/logo`, { image_base64: Buffer.from('<svg onload=alert(1)>').toString('base64'), reason });
    expect([notImage.statusCode, codeOf(notImage)]).toEqual([400, 'admin.logo_invalid']);
    for (const url of ['https://169.254.169.254/logo.png', 'https://10.0.0.1/logo.png', 'file:///etc/passwd']) {
      const refused = await call(tokens.owner, 'PUT', `/admin/apps/${app.client_id}/logo`, { url, reason });
      expect(refused.statusCode, url).toBe(400);
    }
    const both = await call(tokens.owner, 'PUT', `/admin/apps/${app.client_id}/logo`, { url: 'https://a.example/l.png', image_base64: png.toString('base64'), reason });
    expect(both.statusCode).toBe(400);
    expect((await call(tokens.owner, 'GET', `/admin/apps/${app.client_id}`)).json().logo_uri).toBe(logoUri);
  });
});

describe('deletion', () => {
  it('deletes an outside app with its consents and tokens; the provider no longer knows it on either node', async () => {
    const { app, client_secret } = await register({ name: 'Deleted App' });
    const { tokens: issued } = await signInThrough(first, await appOn(first, app.client_id, client_secret), tokens.signer!);
    const deleted = await call(tokens.owner, 'DELETE', `/admin/apps/${app.client_id}`, { reason: 'Partner left' }, second);
    expect(deleted.statusCode).toBe(204);
    await expect(oidc.refreshTokenGrant(await appOn(first, app.client_id, client_secret), issued!.refresh_token!)).rejects.toSatisfy(refusedAs('invalid_client'));
    expect((await call(tokens.owner, 'GET', `/admin/apps/${app.client_id}`)).statusCode).toBe(404);
    expect((await call(tokens.owner, 'DELETE', `/admin/apps/${app.client_id}`, { reason })).statusCode).toBe(404);
    // The signing keys are untouched by any of this.
    expect((await first.database.db.select().from(oidcKeys)).length).toBeGreaterThan(0);
  });
});
