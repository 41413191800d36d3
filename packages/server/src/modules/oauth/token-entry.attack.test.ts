import { request as httpRequest } from 'node:http';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { PRODUCT_SECRET, relyingPartyTestServer } from '../../../test/relying-party';
import { ACCOUNT_TTL_MS } from './accounts';

/**
 * The token endpoints (token, introspection, revocation), asked as an attacker now that plain
 * calls of them may skip Fastify (token-entry.ts): can a call the lean entry must not take (a
 * query, a browser's Origin) reach the provider without what Fastify does for it, and does a
 * page of another site read a browser app's token answers; does a locked account's refresh
 * token still get tokens?
 */
const rp = relyingPartyTestServer();
const FORM = 'application/x-www-form-urlencoded';
const PRODUCT = `Basic ${Buffer.from(`test-product:${PRODUCT_SECRET}`).toString('base64')}`;
const TOKEN_PATHS = ['/oidc/token', '/oidc/token/introspection', '/oidc/token/revocation'];

/** A POST with exactly this request target (no client-side normalisation) and only these headers: what a back end sends. */
function post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${rp.origin}${path}`, { method: 'POST', headers: { 'content-type': FORM, 'content-length': String(Buffer.byteLength(body)), ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('the token endpoints before Fastify', () => {
  it('refuse a NUL in the query of each token path, with a trailing slash too, as Fastify does: the query is never left unread', async () => {
    for (const path of [...TOKEN_PATHS, '/oidc/token/'].map((path) => `${path}?client_id=%00`)) {
      const answer = await post(path, 'grant_type=client_credentials&token=not-a-token', { authorization: PRODUCT });
      expect({ path, status: answer.status, code: (JSON.parse(answer.body) as { code?: string }).code, frame: answer.headers['x-frame-options'] }).toEqual({
        path,
        status: 400,
        code: 'validation_error',
        frame: 'DENY',
      });
    }
  });

  it("answer a browser app's token calls only to the origins of its redirect URIs: another site's page reads nothing", async () => {
    const spa = 'client_id=test-spa&grant_type=authorization_code&code=not-a-code&redirect_uri=http%3A%2F%2F127.0.0.1%3A5179%2Fspa%2Fcallback&token=not-a-token';
    for (const path of TOKEN_PATHS) {
      const own = await post(path, spa, { origin: 'http://127.0.0.1:5179' });
      expect({ path, allowed: own.headers['access-control-allow-origin'] }).toEqual({ path, allowed: 'http://127.0.0.1:5179' });
      const other = await post(path, spa, { origin: 'https://attacker.example' });
      expect({ path, allowed: other.headers['access-control-allow-origin'], status: other.status }).toEqual({ path, allowed: undefined, status: 400 });
      expect(other.body).toContain('not allowed for client');
    }
  });

  it("answer a page of one of our own product origins as any other site: only a browser app registered there reads its token answers", async () => {
    // The portal's cross-site guard answers the product origins with credentials on its own
    // routes; on the provider's, that answer would stand in for the provider's per-client check.
    const product = new URL(rp.server.config.LOCKER_ORIGIN).origin;
    const spa = 'client_id=test-spa&grant_type=authorization_code&code=not-a-code&redirect_uri=http%3A%2F%2F127.0.0.1%3A5179%2Fspa%2Fcallback&token=not-a-token';
    for (const path of TOKEN_PATHS) {
      const answer = await post(path, spa, { origin: product });
      expect({ path, allowed: answer.headers['access-control-allow-origin'], credentials: answer.headers['access-control-allow-credentials'] }).toEqual({ path, allowed: undefined, credentials: undefined });
      expect(answer.body).toContain('not allowed for client');
    }
    const preflight = await fetch(`${rp.origin}/oidc/token`, { method: 'OPTIONS', headers: { origin: product, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it("refuse a locked account's refresh token, even before the lock has ended its tokens", async () => {
    const config = await rp.discover('test-product', PRODUCT_SECRET);
    const { browser, email } = await rp.signedInBrowser();
    const tokens = await rp.codeFlow(config, browser);
    expect(tokens.refresh_token).toBeTruthy();
    // The lock is written first and the sessions with their tokens ended after it (people.ts):
    // in between, or if ending them failed, the refresh token is still stored.
    await rp.server.database.db.update(users).set({ lockedAt: new Date() }).where(eq(users.email, email));
    // The provider's copy of the person is read again after ACCOUNT_TTL_MS (accounts.ts).
    await new Promise((resolve) => setTimeout(resolve, ACCOUNT_TTL_MS + 100));
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
