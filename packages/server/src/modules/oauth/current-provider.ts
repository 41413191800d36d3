import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import { installPeriodicJob } from '../../platform/jobs';

/** The provider of the moment: callers take it for each use, since a change of keys replaces it. */
export type CurrentProvider = () => Provider;

export interface ProviderWithKeys {
  current: CurrentProvider;
  /** Reads the keys again; a different published set (or signing key) makes a new provider. Answers whether it did. */
  reload(): Promise<{ changed: boolean; signing: string | undefined; published: number }>;
}

const fingerprint = (keys: readonly JWK[]) => keys.map((key) => key.kid).join(' ');

/**
 * oidc-provider takes its signing keys once, when it is made; a rotation, a key that starts
 * signing or one dropped therefore makes a new provider from the same configuration, and
 * requests in flight finish on the old one. Nothing else is lost: everything a provider keeps
 * (sessions, grants, codes, tokens, interactions) is in the database, shared by every instance
 * and node, and its cookies are signed with keys of the configuration.
 */
export async function providerWithKeys(load: () => Promise<JWK[]>, build: (keys: JWK[]) => Promise<Provider>): Promise<ProviderWithKeys> {
  let keys = await load();
  let provider = await build(keys);
  return {
    current: () => provider,
    async reload() {
      const next = await load();
      const changed = fingerprint(next) !== fingerprint(keys);
      if (changed) {
        provider = await build(next);
        keys = next;
      }
      return { changed, signing: keys[0]?.kid, published: keys.length };
    },
  };
}

/** Every node reads the signing keys every `intervalSeconds` (a job of its own: nodes need not agree). */
export function installSigningKeyReloadJob(app: FastifyInstance, provider: ProviderWithKeys, intervalSeconds: number): void {
  installPeriodicJob(app, { name: 'oidc-signing-keys', intervalMs: intervalSeconds * 1000, run: () => provider.reload() });
}
