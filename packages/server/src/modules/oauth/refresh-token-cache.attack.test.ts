import { describe, expect, it } from 'vitest';
import { activeForProduct, productPost, productRefresh } from '../../../test/product-token-endpoint';
import { relyingPartyTestServer } from '../../../test/relying-party';
import type { OAuthChangeFeed } from './change-feed';
import { TOKEN_TTL_MS, tokenCache } from './token-cache';

/**
 * Each node keeps the refresh tokens it has just issued or read (token-cache.ts), and answers
 * one from there only to the refresh grant, whose conditional consume refuses a token used or
 * revoked meanwhile on any node. An attacker holds a refresh token that was already used, or
 * revoked, on one node and presents it to the other, which still keeps it as unused: the grant
 * is refused, and a replay still revokes everything the grant gave. Introspection never answers
 * from a kept refresh token.
 */
const rp = relyingPartyTestServer({ secondNode: true });

/** A refresh token issued by the first node and read (so kept) by the second. */
async function keptOnBoth(): Promise<string> {
  const { tokens } = await rp.signedInToProduct();
  // Introspection reads it from the database on each node, which keeps it.
  expect(await activeForProduct(rp.second, tokens.refresh_token!)).toBe(true);
  return tokens.refresh_token!;
}

describe('a refresh token kept by a node', () => {
  it('used on the other node, then replayed here: refused, and the grant with the tokens of the first use is revoked', async () => {
    const token = await keptOnBoth();
    const firstUse = await productRefresh(rp.server, token);
    expect(firstUse.status).toBe(200);

    const replay = await productRefresh(rp.second, token);
    expect(replay).toMatchObject({ status: 400, error: 'invalid_grant' });
    // The reuse detection: what the first use gave is gone too, on either node.
    expect(await activeForProduct(rp.server, firstUse.access_token!)).toBe(false);
    expect((await productRefresh(rp.server, firstUse.refresh_token!)).status).toBe(400);
  });

  it('used on this node and replayed here: refused, though this node issued and kept it', async () => {
    const { tokens } = await rp.signedInToProduct();
    const firstUse = await productRefresh(rp.server, tokens.refresh_token!);
    expect(firstUse.status).toBe(200);
    // The rotated one was just issued here (kept); it is used here once, then again.
    expect((await productRefresh(rp.server, firstUse.refresh_token!)).status).toBe(200);
    expect(await productRefresh(rp.server, firstUse.refresh_token!)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('revoked at the revocation endpoint of the other node: refused here', async () => {
    const token = await keptOnBoth();
    expect((await productPost(rp.server, '/oidc/token/revocation', { token })).statusCode).toBe(200);
    expect(await productRefresh(rp.second, token)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('used on the other node: introspection here answers inactive, not from what it keeps', async () => {
    const token = await keptOnBoth();
    expect((await productRefresh(rp.server, token)).status).toBe(200);
    expect(await activeForProduct(rp.second, token)).toBe(false);
    expect(await activeForProduct(rp.server, token)).toBe(false);
  });
});

describe('a chain of refreshes on one node', () => {
  // Each grant keeps its new refresh token with the grant read with the old one: kept for what
  // is left of the time since that grant was read from the database, never a fresh bound, so a
  // grant changed without its notification arriving is read again within TOKEN_TTL_MS.
  const refreshToken = { payload: { grantId: 'grant-1', exp: Math.floor(Date.now() / 1000) + 3600 }, consumedAt: null, grantPayload: { scope: 'openid' } };

  it('keeps a new refresh token only for the rest of the bound of the grant it carries', () => {
    const tokens = tokenCache();
    tokens.follow({ live: true } as OAuthChangeFeed);
    const readAt = Date.now() - 1000;
    tokens.keep('RefreshToken', 'carried', { ...refreshToken, grantReadAt: readAt }, tokens.generation);
    expect(tokens.find('RefreshToken', 'carried')?.grantReadAt).toBe(readAt);

    tokens.keep('RefreshToken', 'stale', { ...refreshToken, grantReadAt: Date.now() - TOKEN_TTL_MS - 1 }, tokens.generation);
    expect(tokens.find('RefreshToken', 'stale')).toBeUndefined();
  });
});
