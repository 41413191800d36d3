import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import type { TestServer } from '../../../test/harness';
import { CALLBACK, PASSWORD, PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';
import { operatorRoles, users } from '../../db/schema';
import { thirdPartyClients } from './clients';
import { tokenCache } from './token-cache';

/**
 * Each node keeps the access tokens it has just read (token-cache.ts), so that a
 * product's API introspecting the same token again costs no statement. An attacker holds a
 * token that was revoked on one node (by the app, the person, an operator, the provider's
 * reuse detection) and presents it to the other; or presents a token past its expiry, or
 * another app's token, or floods the cache. Every revocation is announced by the database as
 * it commits (migration 0039): the other node answers `active: false` once notified.
 */
const rp = relyingPartyTestServer({ secondNode: true });
const PRODUCT = `Basic ${Buffer.from(`test-product:${PRODUCT_SECRET}`).toString('base64')}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

afterEach(() => {
  vi.useRealTimers();
});

const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

/** What `node` answers about `token` to the client authenticating with `authorization`. */
async function introspect(node: TestServer, token: string, authorization = PRODUCT): Promise<{ status: number; active?: boolean }> {
  const response = await node.app.inject({ method: 'POST', url: '/oidc/token/introspection', headers: { ...FORM, authorization }, payload: new URLSearchParams({ token }).toString() });
  return { status: response.statusCode, active: response.statusCode === 200 ? response.json<{ active: boolean }>().active : undefined };
}

const activeOn = async (node: TestServer, token: string, authorization?: string) => (await introspect(node, token, authorization)).active;

/** Introspected twice on each node: both keep it (the second answer comes from the cache). */
async function keptOnBoth(token: string, authorization?: string) {
  for (const node of [rp.server, rp.second, rp.second, rp.server]) expect(await activeOn(node, token, authorization)).toBe(true);
}

/** The other node's answer right after the revocation committed: at once on PGlite, a few milliseconds later over PostgreSQL. */
const onceNotified = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 2000, interval: 10 });

describe('a token kept by a node after its revocation on another', () => {
  it('revoked by its app at the revocation endpoint', async () => {
    const { tokens } = await rp.signedInToProduct();
    await keptOnBoth(tokens.access_token);
    const revoked = await rp.server.app.inject({ method: 'POST', url: '/oidc/token/revocation', headers: { ...FORM, authorization: PRODUCT }, payload: new URLSearchParams({ token: tokens.access_token }).toString() });
    expect(revoked.statusCode).toBe(200);
    await onceNotified(() => activeOn(rp.second, tokens.access_token)).toBe(false);
    expect(await activeOn(rp.server, tokens.access_token)).toBe(false);
  });

  it('its refresh token replayed: the reuse detection revokes the grant with every token of it', async () => {
    const { config, tokens } = await rp.signedInToProduct();
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    await keptOnBoth(tokens.access_token);
    await keptOnBoth(rotated.access_token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await onceNotified(() => activeOn(rp.second, rotated.access_token)).toBe(false);
    expect(await activeOn(rp.second, tokens.access_token)).toBe(false);
  });

  it('the person revokes the app in Connected apps', async () => {
    const { tokens, token } = await rp.signedInToProduct();
    await keptOnBoth(tokens.access_token);
    const revoked = await rp.server.app.inject({ method: 'DELETE', url: '/v3/sso/me/connected-apps/test-product', headers: { authorization: `Bearer ${token}` } });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    await onceNotified(() => activeOn(rp.second, tokens.access_token)).toBe(false);
    expect(await activeOn(rp.server, tokens.access_token)).toBe(false);
  });

  it('the person signs out the session the app signed in on, from another session', async () => {
    const { tokens, email } = await rp.signedInToProduct();
    await keptOnBoth(tokens.access_token);
    const other = (await rp.identity.signIn(email, PASSWORD)).json<{ token: string }>().token;
    const ended = await rp.server.app.inject({ method: 'POST', url: '/v3/sso/me/sessions/revoke-others', headers: { authorization: `Bearer ${other}` } });
    expect(ended.statusCode, ended.body).toBe(200);
    await onceNotified(() => activeOn(rp.second, tokens.access_token)).toBe(false);
  });

  it('an operator locks the account', async () => {
    const operator = await rp.identity.registeredUser(`operator-${Date.now()}@example.com`, PASSWORD);
    const operatorId = (await rp.server.database.db.select({ id: users.id }).from(users).orderBy(users.createdAt)).at(-1)!.id;
    await rp.server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.id, operatorId));
    await rp.server.database.db.insert(operatorRoles).values({ userId: operatorId, role: 'support' });
    const { tokens, email } = await rp.signedInToProduct();
    const [person] = await rp.server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await keptOnBoth(tokens.access_token);
    const locked = await rp.server.app.inject({
      method: 'POST',
      url: `/v3/admin/people/${person!.id}/lock`,
      headers: { authorization: `Bearer ${operator}`, 'user-agent': 'introspection-cache-test' },
      payload: { reason: 'Ticket 4711: account taken over' },
    });
    expect(locked.statusCode, locked.body).toBe(200);
    await onceNotified(() => activeOn(rp.second, tokens.access_token)).toBe(false);
    expect(await activeOn(rp.server, tokens.access_token)).toBe(false);
  });
});

describe('a token kept by a node', () => {
  it('is inactive past its expiry, though still kept and still stored', async () => {
    const { tokens } = await rp.signedInToProduct();
    await keptOnBoth(tokens.access_token);
    // Only this process's clock moves (the database's rows stay live): the cache and the provider must see the expiry themselves.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (tokens.expires_in! + 1) * 1000);
    expect(await activeOn(rp.second, tokens.access_token)).toBe(false);
    expect(await activeOn(rp.server, tokens.access_token)).toBe(false);
  });

  it('answers only the clients allowed to introspect it, kept or not', async () => {
    const { tokens } = await rp.signedInToProduct();
    await keptOnBoth(tokens.access_token);
    const outside = await thirdPartyClients(rp.server.database.db).add({ name: 'Curious Partner', redirectUris: [CALLBACK] });
    for (const node of [rp.second, rp.server]) {
      expect(await introspect(node, tokens.access_token, basic(outside.clientId, outside.clientSecret!))).toEqual({ status: 200, active: false });
      expect(await activeOn(node, tokens.access_token)).toBe(true);
    }
  });

  it("of an app deleted on another node: neither its introspection nor userinfo answer there", async () => {
    const apps = thirdPartyClients(rp.server.database.db);
    const { clientId, clientSecret } = await apps.add({ name: 'Leaving Partner', redirectUris: [CALLBACK] });
    const auth = basic(clientId, clientSecret!);
    const config = await rp.discover(clientId, clientSecret);
    const { token } = await rp.signedInBrowser();
    const accessToken = await consentedAccessToken(config, token);
    await keptOnBoth(accessToken, auth);
    const userinfo = () => rp.second.app.inject({ method: 'GET', url: '/oidc/userinfo', headers: { authorization: `Bearer ${accessToken}` } }).then((response) => response.statusCode);
    expect(await userinfo()).toBe(200);

    expect(await apps.remove(clientId)).toBe(true);
    await onceNotified(userinfo).toBe(401);
    expect((await introspect(rp.second, accessToken, auth)).status).toBe(401);
    // Its tokens are gone too, whoever asks.
    expect(await activeOn(rp.second, accessToken)).toBe(false);
  });
});

describe("a token kept by a node, of an app whose credentials change on another", () => {
  it('its secret rotated: the old secret introspects nothing on either node, the new one does', async () => {
    const apps = thirdPartyClients(rp.server.database.db);
    const { clientId, clientSecret } = await apps.add({ name: 'Rotating Partner', redirectUris: [CALLBACK] });
    const config = await rp.discover(clientId, clientSecret);
    const accessToken = await consentedAccessToken(config, (await rp.signedInBrowser()).token);
    const old = basic(clientId, clientSecret!);
    await keptOnBoth(accessToken, old);

    const rotated = await apps.rotate(clientId);
    for (const node of [rp.second, rp.server]) await onceNotified(() => introspect(node, accessToken, old).then((answer) => answer.status)).toBe(401);
    for (const node of [rp.second, rp.server]) expect(await activeOn(node, accessToken, basic(clientId, rotated!.clientSecret!))).toBe(true);
  });

  it('disabled: neither its introspection nor userinfo of its kept token answer on either node', async () => {
    const apps = thirdPartyClients(rp.server.database.db);
    const { clientId, clientSecret } = await apps.add({ name: 'Suspended Partner', redirectUris: [CALLBACK] });
    const auth = basic(clientId, clientSecret!);
    const config = await rp.discover(clientId, clientSecret);
    const accessToken = await consentedAccessToken(config, (await rp.signedInBrowser()).token);
    await keptOnBoth(accessToken, auth);
    const userinfo = (node: TestServer) => node.app.inject({ method: 'GET', url: '/oidc/userinfo', headers: { authorization: `Bearer ${accessToken}` } }).then((response) => response.statusCode);
    expect(await userinfo(rp.second)).toBe(200);

    expect(await apps.setDisabled(clientId, true)).toBe(true);
    for (const node of [rp.second, rp.server]) {
      await onceNotified(() => userinfo(node)).toBe(401);
      expect((await introspect(node, accessToken, auth)).status).toBe(401);
    }
  });
});

/** An outside app's access token: the person signs in through it and consents (the consent page's call). */
async function consentedAccessToken(config: oidc.Configuration, personToken: string): Promise<string> {
  const browser = new TestBrowser(rp.origin);
  browser.setCookie('auth_token', personToken);
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  const uid = (await browser.walk(url.href)).url.searchParams.get('interaction');
  const decision = await rp.server.app.inject({ method: 'POST', url: `/v3/oauth/interactions/${uid}/consent`, payload: { allow: true }, headers: { authorization: `Bearer ${personToken}` } });
  expect(decision.statusCode, decision.body).toBe(200);
  const landed = await browser.walk(decision.json<{ redirect_to: string }>().redirect_to);
  return (await oidc.authorizationCodeGrant(config, landed.url, { pkceCodeVerifier: verifier })).access_token;
}

describe('a flood of tokens', () => {
  it('keeps at most its bound, the oldest going first, and never what it could not keep fresh', () => {
    const cache = tokenCache({ maxTokens: 100 });
    const row = (i: number) => ({ payload: { jti: `token-${i}`, exp: Math.floor(Date.now() / 1000) + 600, kind: 'ClientCredentials' }, consumedAt: null });
    // No live feed yet: nothing is kept.
    cache.keep('ClientCredentials', 'token-0', row(0), cache.generation);
    expect(cache.size).toBe(0);
    cache.follow({ live: true, close: async () => undefined });
    for (let i = 0; i < 10_005; i++) {
      cache.keep('ClientCredentials', `token-${i}`, row(i), cache.generation);
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    // The oldest tenth goes when the bound is reached: the newest 90 to 100 stay.
    expect(cache.size).toBe(95);
    expect(cache.find('ClientCredentials', 'token-0')).toBeUndefined();
    expect(cache.find('ClientCredentials', 'token-9909')).toBeUndefined();
    expect(cache.find('ClientCredentials', 'token-9910')?.payload.jti).toBe('token-9910');
    expect(cache.find('ClientCredentials', 'token-10004')?.payload.jti).toBe('token-10004');
    // Codes are never kept (refresh tokens are, for their grant only: refresh-token-cache.attack.test.ts).
    cache.keep('AuthorizationCode', 'code', row(1), cache.generation);
    expect(cache.find('AuthorizationCode', 'code')).toBeUndefined();
  });
});

describe('a feed that may have missed a notification', () => {
  const row = () => ({ payload: { jti: 'kept', exp: Math.floor(Date.now() / 1000) + 600, kind: 'AccessToken' }, consumedAt: null });

  it('answers nothing while it is down, and after the gap it reports nothing kept before it', () => {
    const feed = { live: true, close: async () => undefined };
    const cache = tokenCache();
    cache.follow(feed);
    cache.keep('AccessToken', 'kept', row(), cache.generation);
    expect(cache.find('AccessToken', 'kept')).toBeDefined();
    feed.live = false;
    expect(cache.find('AccessToken', 'kept')).toBeUndefined();
    // Nothing read meanwhile is kept either.
    cache.keep('AccessToken', 'read-while-down', row(), cache.generation);
    // Back, with the gap the provider's handler turns into clear().
    feed.live = true;
    cache.clear();
    expect(cache.find('AccessToken', 'kept')).toBeUndefined();
    expect(cache.find('AccessToken', 'read-while-down')).toBeUndefined();
  });

  it('does not keep a read that a change overlapped, nor answer a token under another model', () => {
    const cache = tokenCache();
    cache.follow({ live: true, close: async () => undefined });
    const since = cache.generation;
    cache.forgetGrant('some-grant');
    cache.keep('AccessToken', 'kept', row(), since);
    expect(cache.find('AccessToken', 'kept')).toBeUndefined();
    cache.keep('AccessToken', 'kept', row(), cache.generation);
    // Asked for as a refresh token or a client-credentials token, the id is nothing of theirs.
    expect(cache.find('RefreshToken', 'kept')).toBeNull();
    expect(cache.find('ClientCredentials', 'kept')).toBeNull();
  });
});
