import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createDataProtection } from '../../platform/data-protection';
import { startTestServer, TEST_DATA_KEY } from '../../../test/harness';
import { CLIENTS_FILE, json, PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';
import { KEY_PUBLISH_AHEAD_SECONDS, rotateSigningKey } from './keys';

/**
 * Signing keys as relying parties verify them: a rotation published on every node before either
 * signs with it, and no private key ever published.
 */
const rp = relyingPartyTestServer();
const { discover, signedInBrowser, codeFlow } = rp;

describe('signing key rotation, live on every node', () => {
  it('publishes rotated keys on both nodes before either signs with them, signs with them from their activation, and keeps the old keys published', async () => {
    // A second node of the same deployment: same database, same origin, its own key reloads.
    const second = await startTestServer({
      database: rp.server.database,
      clock: rp.clock,
      env: { PLATFORM_ORIGIN: rp.origin, OAUTH_CLIENTS_FILE: CLIENTS_FILE, OAUTH_CLIENT_SECRETS: `test-product=${PRODUCT_SECRET}`, OIDC_KEYS_RELOAD_SECONDS: '1' },
    });
    try {
      const config = await discover('test-product', PRODUCT_SECRET);
      const { browser } = await signedInBrowser();
      const kidOfNewIdToken = async () => decodeProtectedHeader((await codeFlow(config, browser)).id_token!).kid;
      const published = async () => ({
        first: ((await json(fetch(`${rp.origin}/oidc/jwks`))).keys as Array<{ kid: string; d?: string }>).map((key) => key.kid),
        second: ((await second.app.inject({ url: '/oidc/jwks' })).json().keys as Array<{ kid: string }>).map((key) => key.kid),
      });
      const before = await kidOfNewIdToken();
      const initial = (await published()).first;
      expect(initial).toHaveLength(2); // RS256 for outside apps, ES256 (this product's) second
      expect(initial[1]).toBe(before);

      const rotated = await rotateSigningKey(rp.server.database.db, createDataProtection(Buffer.from(TEST_DATA_KEY, 'hex')), { now: rp.clock.now() });
      // Both nodes publish the new keys at their next reload, and still sign with the old ones.
      await expect.poll(published, { timeout: 5000 }).toEqual({ first: [...initial, ...rotated.kids], second: [...initial, ...rotated.kids] });
      expect(await kidOfNewIdToken()).toBe(before);

      // Past their activation, tokens are signed with the new keys; the old ones stay published.
      rp.setClockAhead((KEY_PUBLISH_AHEAD_SECONDS + 1) * 1000);
      await expect.poll(kidOfNewIdToken, { timeout: 5000 }).toBe(rotated.kids[1]);
      await expect.poll(published, { timeout: 5000 }).toEqual({ first: [...rotated.kids, ...initial], second: [...rotated.kids, ...initial] });
      // A product verifies the new token with the JWKS, as any node serves it.
      const idToken = (await codeFlow(config, browser)).id_token!;
      expect(decodeProtectedHeader(idToken).alg).toBe('ES256');
      const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${rp.origin}/oidc/jwks`)), { issuer: rp.origin, audience: 'test-product' });
      expect(payload.sub).toBeTruthy();
    } finally {
      rp.setClockAhead(0);
      await second.close();
    }
  });

  it('never publishes a private key', async () => {
    for (const key of (await json(fetch(`${rp.origin}/oidc/jwks`))).keys as Array<Record<string, unknown>>) {
      expect(Object.keys(key).filter((name) => ['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(name))).toEqual([]);
    }
  });
});
