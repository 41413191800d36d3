/**
 * What a provider holds beyond itself (its change feed: change-feed.ts), released when a change
 * of keys replaces it or its node closes, how its feed asks for the keys to be read again
 * (current-provider.ts listens), and how this node forgets the tokens it keeps.
 */
export interface ProviderResources {
  /** Called by the feed: a signing key changed, or changes may have been missed. */
  keysChanged(): void;
  /** Set by whoever reloads the keys. */
  onKeysChanged: (() => void) | undefined;
  /** Forgets every token and grant the provider keeps in memory (token-cache.ts). */
  forgetTokens(): void;
  close(): Promise<void>;
}

export function providerResources(): ProviderResources {
  const resources: ProviderResources = {
    keysChanged: () => resources.onKeysChanged?.(),
    onKeysChanged: undefined,
    forgetTokens: () => undefined,
    close: async () => undefined,
  };
  return resources;
}

/** The resources of each provider createProvider made. */
export const resourcesOf = new WeakMap<object, ProviderResources>();

/**
 * Tokens or grants were deleted outside the provider's storage: this node forgets what it keeps
 * at once, as the database's notification would on every node, but only once it arrives (over
 * PostgreSQL, maybe after the deleting request has answered).
 */
export function forgetKeptTokens(provider: object): void {
  resourcesOf.get(provider)?.forgetTokens();
}
