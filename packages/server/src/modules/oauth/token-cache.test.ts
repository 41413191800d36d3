import { describe, expect, it } from 'vitest';
import { tokenCache } from './token-cache';

function liveCache() {
  const tokens = tokenCache();
  tokens.follow({ live: true, close: async () => undefined });
  return tokens;
}

const row = () => ({
  payload: { jti: 'kept-token', kind: 'AccessToken', clientId: 'test-product', accountId: 'someone', scope: 'openid email', exp: Math.floor(Date.now() / 1000) + 600, extra: { team: 'a' } },
  consumedAt: null,
  grantPayload: { kind: 'Grant', openid: { scope: 'openid email' } },
});

/**
 * The provider changes the model objects it holds (a token's payload, a grant's scopes): what
 * one request was answered must never change what the next is answered.
 */
describe('a kept token', () => {
  it('answers each find with its own copy: a change by whoever holds one reaches neither the cache nor the next find', () => {
    const tokens = liveCache();
    const saved = row();
    tokens.keep('AccessToken', 'kept-token', saved, tokens.generation);
    saved.payload.scope = 'openid email admin';

    const first = tokens.find('AccessToken', 'kept-token')!;
    first.payload.accountId = 'someone-else';
    (first.payload.extra as Record<string, string>).team = 'b';
    first.grantPayload!.openid = { scope: 'openid email admin' };

    const second = tokens.find('AccessToken', 'kept-token')!;
    expect(second.payload).toMatchObject({ accountId: 'someone', scope: 'openid email', extra: { team: 'a' } });
    expect(second.grantPayload).toEqual({ kind: 'Grant', openid: { scope: 'openid email' } });
    expect(second.consumedAt).toBeNull();
  });

  it('is another model\'s "not found", and nothing once the feed may have missed a change', () => {
    const tokens = liveCache();
    tokens.keep('AccessToken', 'kept-token', row(), tokens.generation);
    expect(tokens.find('ClientCredentials', 'kept-token')).toBeNull();
    tokens.clear();
    expect(tokens.find('AccessToken', 'kept-token')).toBeUndefined();
  });
});
