import type Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/crypto';
import { compareHashedClientSecrets } from './client-secrets';

/** A stand-in for the provider's Client class: only what compareHashedClientSecrets replaces. */
function clientWith(clientSecret: string | undefined) {
  class Client {
    clientSecret = clientSecret;
    compareClientSecret(_actual: string): boolean | Promise<boolean> {
      throw new Error('not replaced');
    }
  }
  compareHashedClientSecrets({ Client } as unknown as Provider);
  return new Client();
}

describe('client secrets compared by their SHA-256', () => {
  const secret = 'a-product-back-end-secret-0123456789';

  it('accepts the secret whose hash is stored', () => {
    expect(clientWith(`sha256:${sha256(secret)}`).compareClientSecret(secret)).toBe(true);
  });

  it('refuses another secret, the stored hash itself, a prefix and an empty one', () => {
    const client = clientWith(`sha256:${sha256(secret)}`);
    for (const presented of [`${secret}x`, secret.slice(0, -1), sha256(secret), `sha256:${sha256(secret)}`, '']) {
      expect(client.compareClientSecret(presented)).toBe(false);
    }
  });

  it('refuses everything when what is stored is not a SHA-256 (a plain secret, a cut hash, none)', () => {
    expect(clientWith(secret).compareClientSecret(secret)).toBe(false);
    expect(clientWith(`sha256:${sha256(secret).slice(0, 63)}`).compareClientSecret(secret)).toBe(false);
    expect(clientWith(`sha256:${sha256(secret).toUpperCase()}`).compareClientSecret(secret)).toBe(false);
    expect(clientWith(undefined).compareClientSecret('')).toBe(false);
  });
});
