import type { AdapterPayload } from 'oidc-provider';
import { evictOldest } from '../../platform/bounded-map';
import type { OAuthChangeFeed } from './change-feed';

/** Outside apps kept at most (a node serves a handful; the bound only stops an unbounded map). */
const MAX_CLIENTS = 5000;

/**
 * The outside apps this node has read, as the provider's Client adapter answers them, kept
 * only while `feed` is live: an app's change on any node (a secret rotated, the app disabled or
 * deleted, a redirect URI changed) is announced by the database (migration 0038, change-feed.ts)
 * and forgets it here as soon as it commits, and a feed that may have missed a notification
 * (its connection dropped, or closed) sends every lookup to the database until it is back.
 * An app that is not found is never kept, so unknown client ids cost memory nothing. A read
 * that overlaps a change is not kept either (`generation`): it may have read the old row.
 */
export function clientCache(read: (clientId: string) => Promise<AdapterPayload | undefined>) {
  const kept = new Map<string, AdapterPayload>();
  let generation = 0;
  let feed: OAuthChangeFeed | undefined;

  return {
    /** Keeps entries only while this feed is live (until then, every lookup reads the database). */
    follow(changes: OAuthChangeFeed) {
      feed = changes;
    },
    async find(clientId: string): Promise<AdapterPayload | undefined> {
      if (feed?.live) {
        const hit = kept.get(clientId);
        if (hit) return { ...hit };
      }
      const before = generation;
      const payload = await read(clientId);
      if (payload && feed?.live && generation === before) {
        if (kept.size >= MAX_CLIENTS && !kept.has(clientId)) evictOldest(kept, MAX_CLIENTS);
        kept.set(clientId, payload);
      }
      return payload && { ...payload };
    },
    /** One app changed. */
    forget(clientId: string) {
      generation++;
      kept.delete(clientId);
    },
    /** Changes may have been missed. */
    clear() {
      generation++;
      kept.clear();
    },
  };
}
export type ClientCache = ReturnType<typeof clientCache>;
