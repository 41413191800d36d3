import { hash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';

/** How a client's secret reaches the provider: `sha256:` and the secret's SHA-256 in hex. */
const HASHED_SECRET = /^sha256:[0-9a-f]{64}$/;

/**
 * Client secrets (first-party from OAUTH_CLIENT_SECRETS, outside apps from `npm run clients`)
 * reach the provider as SHA-256 only; the presented secret is hashed and the two digests are
 * compared in constant time (equal lengths by construction). One hash per client-credentials
 * grant, not three: hashing both sides again to equalise lengths (safeEqual) is not needed here.
 */
export function compareHashedClientSecrets(provider: Provider): void {
  const ClientClass = provider.Client as unknown as { prototype: { clientSecret?: string; compareClientSecret(actual: string): Promise<boolean> | boolean } };
  ClientClass.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    const stored = this.clientSecret ?? '';
    if (!HASHED_SECRET.test(stored)) return false;
    return timingSafeEqual(hash('sha256', actual, 'buffer'), Buffer.from(stored.slice('sha256:'.length), 'hex'));
  };
}
