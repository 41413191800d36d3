import { evictOldest } from '../../platform/bounded-map';
import type { UserRow } from '../users';
import type { SessionRow } from './queries';

export interface CachedIdentity {
  session: SessionRow;
  user: UserRow;
}

export interface IdentityCacheOptions {
  /** Most sessions kept; the least recently used go first. 0 keeps none (every read queries). */
  maxEntries?: number;
  /** A backstop only: entries are dropped when their user changes, long before this. */
  ttlMs?: number;
  now?: () => number;
}

interface Entry extends CachedIdentity {
  storedAt: number;
  /** When it last moved to the most recently used end. */
  usedAt: number;
}

/**
 * How often a read moves its entry to the most recently used end. A Map keeps insertion order,
 * so that move is a delete and a set: once a second is recent enough for eviction, and spares
 * the hottest call (GET /v3/sso/me) two map writes of a 64-character key on every request.
 */
const RECENCY_RESOLUTION_MS = 1000;

/** A user's cached sessions share one copy of the user's row. */
interface UserSessions {
  user: UserRow;
  tokens: Set<string>;
}

/**
 * Sessions kept by default. Measured (bench `memory`): an entry costs about 2.7 KB of heap when
 * its user's row is its own, so 10,000 entries stay near 27 MB; older sessions are one indexed
 * query away, and the hot set (sessions used in the last minutes) is far smaller than that.
 */
export const IDENTITY_CACHE_ENTRIES = 10_000;

/**
 * Live sessions and their users in memory, by token hash, so that reading who is signed in
 * costs no query. Kept fresh by eviction: whoever learns that a user changed (the database's
 * identity_changes notifications, see change-feed.ts) calls `evictUser`.
 *
 * A read that started before an eviction must not store what it read (it may predate the
 * change): callers take `generation` before reading and pass it to `store`, which refuses
 * when anything was evicted since.
 */
export class IdentityCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, UserSessions>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private evictions = 0;

  constructor(options: IdentityCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? IDENTITY_CACHE_ENTRIES;
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Changes whenever anything is evicted. */
  get generation(): number {
    return this.evictions;
  }

  get size(): number {
    return this.entries.size;
  }

  get(tokenHash: string): CachedIdentity | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    const now = this.now();
    if (now - entry.storedAt > this.ttlMs) {
      this.remove(tokenHash, entry.user.id);
      return undefined;
    }
    // Most recently used last, so the first key is the one to drop when full.
    if (now - entry.usedAt >= RECENCY_RESOLUTION_MS) {
      entry.usedAt = now;
      this.entries.delete(tokenHash);
      this.entries.set(tokenHash, entry);
    }
    return entry;
  }

  /** Stores what a read found, unless something was evicted after `generation` was taken. */
  store(tokenHash: string, found: CachedIdentity, generation: number): void {
    if (generation !== this.evictions || this.maxEntries === 0) return;
    if (this.entries.has(tokenHash)) this.remove(tokenHash, found.user.id);
    if (this.entries.size >= this.maxEntries) evictOldest(this.entries, this.maxEntries, (oldest) => this.remove(oldest, this.entries.get(oldest)!.user.id));
    // Any copy of the user already here is current: a change would have evicted it (and
    // refused this store through `generation`). Sharing it keeps a user's sessions one row.
    let sessions = this.byUser.get(found.user.id);
    if (!sessions) this.byUser.set(found.user.id, (sessions = { user: found.user, tokens: new Set() }));
    sessions.tokens.add(tokenHash);
    const now = this.now();
    this.entries.set(tokenHash, { session: found.session, user: sessions.user, storedAt: now, usedAt: now });
  }

  /** Drops every session of a user: their account or one of their sessions changed. */
  evictUser(userId: string): void {
    this.evictions++;
    const sessions = this.byUser.get(userId);
    if (!sessions) return;
    for (const tokenHash of sessions.tokens) this.entries.delete(tokenHash);
    this.byUser.delete(userId);
  }

  /** Drops everything: changes may have been missed. */
  clear(): void {
    this.evictions++;
    this.entries.clear();
    this.byUser.clear();
  }

  private remove(tokenHash: string, userId: string): void {
    this.entries.delete(tokenHash);
    const sessions = this.byUser.get(userId);
    sessions?.tokens.delete(tokenHash);
    if (sessions?.tokens.size === 0) this.byUser.delete(userId);
  }
}
