/**
 * What a provider holds beyond itself (its change feed: change-feed.ts), released when a change
 * of keys replaces it or its node closes, and how its feed asks for the keys to be read again
 * (current-provider.ts listens).
 */
export interface ProviderResources {
  /** Called by the feed: a signing key changed, or changes may have been missed. */
  keysChanged(): void;
  /** Set by whoever reloads the keys. */
  onKeysChanged: (() => void) | undefined;
  close(): Promise<void>;
}

export function providerResources(): ProviderResources {
  const resources: ProviderResources = {
    keysChanged: () => resources.onKeysChanged?.(),
    onKeysChanged: undefined,
    close: async () => undefined,
  };
  return resources;
}

/** The resources of each provider createProvider made. */
export const resourcesOf = new WeakMap<object, ProviderResources>();
