import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import { installPeriodicJob } from '../../platform/jobs';
import { resourcesOf } from './provider-resources';

/** The provider of the moment: callers take it for each use, since a change of keys replaces it. */
export type CurrentProvider = () => Provider;

export interface ProviderWithKeys {
  current: CurrentProvider;
  /** Reads the keys again; a different published set (or signing key) makes a new provider. Answers whether it did. */
  reload(): Promise<{ changed: boolean; signing: string | undefined; published: number }>;
  /** Releases what the current provider holds (its change feed): the node is closing. */
  close(): Promise<void>;
}

type Reloaded = Awaited<ReturnType<ProviderWithKeys['reload']>>;

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
  // A key made, retired or dropped on any node reaches this one through the provider's change feed (change-feed.ts).
  const follow = (made: Provider) => {
    const resources = resourcesOf.get(made);
    if (resources) resources.onKeysChanged = () => void reload().catch(() => undefined);
  };
  follow(provider);

  async function reloadOnce(): Promise<Reloaded> {
    const next = await load();
    const changed = fingerprint(next) !== fingerprint(keys);
    if (changed) {
      const replaced = provider;
      provider = await build(next);
      keys = next;
      follow(provider);
      // Requests still in flight on the old provider read outside apps from the database from now on.
      await resourcesOf.get(replaced)?.close();
    }
    return { changed, signing: keys[0]?.kid, published: keys.length };
  }

  // One reload at a time; one asked for meanwhile runs once more after it, since the running one may have read before the change.
  let running: Promise<Reloaded> | undefined;
  let queued: Promise<Reloaded> | undefined;
  function reload(): Promise<Reloaded> {
    if (!running) {
      running = reloadOnce().finally(() => (running = undefined));
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return reload();
      });
    return queued;
  }

  return {
    current: () => provider,
    reload,
    close: async () => resourcesOf.get(provider)?.close(),
  };
}

/**
 * Every node reads the signing keys every `intervalSeconds` (a job of its own: nodes need not
 * agree), besides at each change the database announces; the provider's change feed closes with the node.
 */
export function installSigningKeyReloadJob(app: FastifyInstance, provider: ProviderWithKeys, intervalSeconds: number): void {
  app.addHook('onClose', () => provider.close());
  installPeriodicJob(app, { name: 'oidc-signing-keys', intervalMs: intervalSeconds * 1000, run: () => provider.reload() });
}
