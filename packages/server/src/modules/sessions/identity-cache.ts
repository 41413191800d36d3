import type { UserRow } from '../users';
import type { SessionRow } from './queries';

export interface CachedIdentity {
  session: SessionRow;
  user: UserRow;
}

export interface IdentityCacheOptions {
  /** Most sessions kept; the least recently used go first. */
  maxEntries?: number;
  /** A backstop only: entries are dropped when their user changes, long before this. */
  ttlMs?: number;
  now?: () => number;
}

interface Entry extends CachedIdentity {
  storedAt: number;
}

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
  private readonly byUser = new Map<string, Set<string>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private evictions = 0;

  constructor(options: IdentityCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 50_000;
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
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.remove(tokenHash, entry.user.id);
      return undefined;
    }
    // Most recently used last, so the first key is the one to drop when full.
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry;
  }

  /** Stores what a read found, unless something was evicted after `generation` was taken. */
  store(tokenHash: string, found: CachedIdentity, generation: number): void {
    if (generation !== this.evictions) return;
    if (this.entries.has(tokenHash)) this.remove(tokenHash, found.user.id);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest, this.entries.get(oldest)!.user.id);
    }
    this.entries.set(tokenHash, { ...found, storedAt: this.now() });
    let tokens = this.byUser.get(found.user.id);
    if (!tokens) this.byUser.set(found.user.id, (tokens = new Set()));
    tokens.add(tokenHash);
  }

  /** Drops every session of a user: their account or one of their sessions changed. */
  evictUser(userId: string): void {
    this.evictions++;
    const tokens = this.byUser.get(userId);
    if (!tokens) return;
    for (const tokenHash of tokens) this.entries.delete(tokenHash);
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
    const tokens = this.byUser.get(userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byUser.delete(userId);
  }
}
