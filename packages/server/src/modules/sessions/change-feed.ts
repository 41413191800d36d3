import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChannelSubscription, DatabaseHandle } from '../../db/client';
import type { IdentityCache } from './identity-cache';

/** The channel the triggers of migration 0002 notify, with the id of the user that changed. */
export const IDENTITY_CHANNEL = 'identity_changes';

const BARRIER_PREFIX = 'barrier:';
const BARRIER_TIMEOUT_MS = 2000;

export interface IdentityChangeFeed {
  /** Whether the cache is being kept fresh right now; when false it must not be read. */
  readonly live: boolean;
  /**
   * Resolves once every change committed before the call has reached this node's cache
   * (PostgreSQL delivers notifications in commit order, so our own marker arriving means
   * all earlier ones have). Immediate on PGlite, which delivers before the statement returns.
   */
  barrier(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Evicts users from the identity cache as the database announces their changes, on this node
 * and every other one on the same database. A dropped listening connection empties the cache.
 */
export async function followIdentityChanges(database: DatabaseHandle, cache: IdentityCache): Promise<IdentityChangeFeed> {
  const node = randomBytes(6).toString('hex');
  const waiting = new Map<string, () => void>();
  let sequence = 0;
  const subscription: ChannelSubscription = await database.listen(IDENTITY_CHANNEL, {
    message(payload) {
      if (payload.startsWith(BARRIER_PREFIX)) waiting.get(payload)?.();
      else cache.evictUser(payload);
    },
    gap() {
      cache.clear();
      for (const release of waiting.values()) release();
    },
  });

  return {
    get live() {
      return subscription.live;
    },
    async barrier() {
      if (database.kind === 'pglite' || !subscription.live) return;
      const marker = `${BARRIER_PREFIX}${node}:${++sequence}`;
      const arrived = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          // Too slow to wait for: forget everything rather than answer from what may be stale.
          cache.clear();
          resolve();
        }, BARRIER_TIMEOUT_MS);
        waiting.set(marker, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      try {
        await database.db.execute(sql`select pg_notify(${IDENTITY_CHANNEL}, ${marker})`);
        await arrived;
      } catch {
        // The database did not take the marker: the write may not have reached us either.
        cache.clear();
      } finally {
        waiting.delete(marker);
      }
    },
    close: () => subscription.close(),
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * False on routes that change no user and revoke no session (their only writes are new
     * sessions and last-active times, which nothing cached can hold yet): they skip the wait
     * for this node's cache. Sign-in sets it: it runs a hash per request already.
     */
    waitsForIdentityChanges?: boolean;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * On PostgreSQL, a request that may have changed a user or a session answers only after this
 * node's cache has heard of it, so the caller's next read here sees its own write.
 */
export function installReadYourWrites(app: FastifyInstance, feed: IdentityChangeFeed): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!READS.has(request.method) && request.routeOptions.config.waitsForIdentityChanges !== false) await feed.barrier();
    return payload;
  });
}
