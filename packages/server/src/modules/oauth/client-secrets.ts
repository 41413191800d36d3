import type Provider from 'oidc-provider';
import { safeEqual, sha256 } from '../../platform/crypto';

/**
 * Client secrets (first-party from OAUTH_CLIENT_SECRETS, outside apps from `npm run clients`)
 * reach the provider as SHA-256 only; the presented secret is hashed before comparing.
 */
export function compareHashedClientSecrets(provider: Provider): void {
  const ClientClass = provider.Client as unknown as { prototype: { clientSecret?: string; compareClientSecret(actual: string): Promise<boolean> | boolean } };
  ClientClass.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    const stored = this.clientSecret ?? '';
    return stored.startsWith('sha256:') && safeEqual(stored, `sha256:${sha256(actual)}`);
  };
}
