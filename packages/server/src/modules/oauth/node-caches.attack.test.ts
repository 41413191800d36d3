import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderTestServer, startTestServer, TEST_DATA_KEY, type TestServer } from '../../../test/harness';
import { productSignIn } from '../../../test/oidc-sign-in';
import { oauthClients } from '../../db/schema';
import { createDataProtection } from '../../platform/data-protection';
import { thirdPartyClients } from './clients';
import { dropSigningKey, loadSigningKeys, rotateSigningKey } from './keys';

/**
 * Each node keeps outside apps and signing keys in memory. An attacker holding an app's old
 * secret, or an app an operator disabled or deleted, goes to another node than the one the
 * operator used; a key dropped because it leaked must stop signing on every node. The
 * database announces each change as it commits (migration 0038): the other node refuses at
 * once, with no time-to-live to wait out (keys are otherwise read every 120 s here).
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/oauth-clients.json', import.meta.url));
const PRODUCT_SECRET = 'product-secret-of-the-node-caches-0123456789';
const CALLBACK = 'http://127.0.0.1:5179/callback';
const secrets = createDataProtection(Buffer.from(TEST_DATA_KEY, 'hex'));

let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  first = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: { 'test-product': PRODUCT_SECRET }, env: { OIDC_KEYS_RELOAD_SECONDS: '120' } });
  second = await startTestServer({
    database: first.database,
    env: {
      PLATFORM_ORIGIN: first.url,
      OAUTH_CLIENTS_FILE: CLIENTS_FILE,
      OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}`,
      OIDC_KEYS_RELOAD_SECONDS: '120',
      REDIS_KEY_PREFIX: first.config.REDIS_KEY_PREFIX,
    },
  });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

/** What `node` answers an app authenticating with `secret` at the introspection endpoint (200, or 401 invalid_client). */
async function authenticatesOn(node: TestServer, clientId: string, secret: string): Promise<number> {
  const response = await node.app.inject({
    method: 'POST',
    url: '/oidc/token/introspection',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    payload: new URLSearchParams({ token: 'not-a-token-of-anyone' }).toString(),
  });
  return response.statusCode;
}

/**
 * The other node's answer right after the change committed: on PGlite it has the notification
 * before the changing statement returns; over PostgreSQL it comes on the node's listening
 * connection a few milliseconds later. Far shorter than any time-to-live, and never reached
 * by a node that keeps what it read.
 */
const onceNotified = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 2000, interval: 10 });

describe('outside apps kept in memory on each node', () => {
  it('a secret rotated on one node stops working on the other at once', async () => {
    const apps = thirdPartyClients(first.database.db);
    const { clientId, clientSecret } = await apps.add({ name: 'Rotated Partner', redirectUris: [CALLBACK] });
    // Both nodes have read (and kept) the app.
    expect(await authenticatesOn(second, clientId, clientSecret!)).toBe(200);
    expect(await authenticatesOn(second, clientId, clientSecret!)).toBe(200);
    expect(await authenticatesOn(first, clientId, clientSecret!)).toBe(200);

    const rotated = await apps.rotate(clientId);
    await onceNotified(() => authenticatesOn(second, clientId, clientSecret!)).toBe(401);
    expect(await authenticatesOn(first, clientId, clientSecret!)).toBe(401);
    expect(await authenticatesOn(second, clientId, rotated!.clientSecret!)).toBe(200);
  });

  it('an app disabled, then deleted, through one node is refused on the other at once', async () => {
    const apps = thirdPartyClients(first.database.db);
    const { clientId, clientSecret } = await apps.add({ name: 'Disabled Partner', redirectUris: [CALLBACK] });
    expect(await authenticatesOn(second, clientId, clientSecret!)).toBe(200);
    expect(await authenticatesOn(second, clientId, clientSecret!)).toBe(200);

    await first.database.db.update(oauthClients).set({ disabledAt: sql`now()` }).where(eq(oauthClients.clientId, clientId));
    await onceNotified(() => authenticatesOn(second, clientId, clientSecret!)).toBe(401);

    // Enabled again (read and kept again), then deleted.
    await first.database.db.update(oauthClients).set({ disabledAt: null }).where(eq(oauthClients.clientId, clientId));
    await onceNotified(() => authenticatesOn(second, clientId, clientSecret!)).toBe(200);
    expect(await authenticatesOn(second, clientId, clientSecret!)).toBe(200);
    await first.database.db.delete(oauthClients).where(eq(oauthClients.clientId, clientId));
    await onceNotified(() => authenticatesOn(second, clientId, clientSecret!)).toBe(401);
  });
});

describe('signing keys kept in memory on each node', () => {
  it('a leaked key rotated out and dropped through one node is neither published nor used to sign by the other', async () => {
    const product = await oidc.discovery(new URL(first.url), 'test-product', {}, oidc.ClientSecretBasic(PRODUCT_SECRET), { execute: [oidc.allowInsecureRequests] });
    let refresh = (await productSignIn(first, product, CALLBACK, 'keys')).refresh_token!;
    /** The kid of an ID token the second node signs now (a refresh grant there). */
    const signedBySecond = async () => {
      const response = await second.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`test-product:${PRODUCT_SECRET}`).toString('base64')}` },
        payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh }).toString(),
      });
      const body = response.json<{ refresh_token: string; id_token: string }>();
      refresh = body.refresh_token;
      return decodeProtectedHeader(body.id_token).kid;
    };
    const publishedBySecond = async () => (await second.app.inject({ url: '/oidc/jwks' })).json<{ keys: Array<{ kid: string }> }>().keys.map((key) => key.kid);

    const leaked = await signedBySecond();
    const before = (await loadSigningKeys(first.database.db, secrets)).map((key) => key.kid!);
    expect(before).toContain(leaked);

    // The operator's emergency: new keys signing now, then the old ones dropped.
    await rotateSigningKey(first.database.db, secrets, { immediately: true });
    for (const kid of before) await dropSigningKey(first.database.db, kid);

    await onceNotified(async () => (await publishedBySecond()).filter((kid) => before.includes(kid))).toEqual([]);
    expect(await signedBySecond()).not.toBe(leaked);
  });
});
