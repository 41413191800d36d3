import { evictOldest } from '../../platform/bounded-map';
import type { OAuthChangeFeed } from './change-feed';
import type { FoundRow } from './token-reads';

/**
 * How long a kept token answers without being read again, whatever the feed says: the bound on
 * how long a revocation whose notification was lost (and no gap reported) could go unseen.
 */
export const TOKEN_TTL_MS = 5000;
/** Tokens kept at most: a flood of distinct tokens (each a real one: unknown ids are never kept) evicts the oldest. */
export const MAX_TOKENS = 10_000;
/**
 * The models kept: the tokens introspection and userinfo look up, and refresh tokens, which the
 * adapter answers from here only to the refresh grant (its consume decides). Codes are always read.
 */
const KEPT_MODELS: ReadonlySet<string> = new Set(['AccessToken', 'ClientCredentials', 'RefreshToken']);

interface Entry {
  model: string;
  /**
   * The row as JSON: each find parses its own copy, since the provider's model objects may be
   * changed by whoever holds them. Rows are the provider's JSON payloads (a kept row is never
   * consumed: no Date), and parsing one took 2.8 µs where structuredClone took 6.5.
   */
  json: string;
  grantId: string | undefined;
  keptAt: number;
  /** The token's own `exp` (milliseconds): past it, the entry is gone. */
  expiresAt: number;
}

/**
 * The access and client-credentials tokens this node has just read, with the grant read with
 * each (its row as the adapter's find answers it): introspection and userinfo of a token seen
 * a moment ago need no statement. The provider still decides every answer from the row
 * (expiry, the asking client's right to introspect it, the client's existence). Refresh tokens
 * too, read or just issued, which the adapter answers from here only to the refresh grant: its
 * conditional consume refuses one used or revoked meanwhile on any node (their use is not
 * announced).
 *
 * Kept only while `feed` is live, as client-cache.ts: the database announces every token or
 * grant a statement deletes or changes (migration 0039), which forgets it here as soon as it
 * commits, on every node; a feed that may have missed a notification sends every lookup to the
 * database until it is back. A read that overlaps a change is not kept (`generation`). An entry
 * lives TOKEN_TTL_MS at most, and never past its token's expiry. Ids are the provider's random
 * 256-bit values, unique across models: a kept token answers "not found" for the other models
 * the provider asks the same id under (token_find.js asks three at once).
 */
export function tokenCache(options: { maxTokens?: number; ttlMs?: number } = {}) {
  const maxTokens = options.maxTokens ?? MAX_TOKENS;
  const ttlMs = options.ttlMs ?? TOKEN_TTL_MS;
  const kept = new Map<string, Entry>();
  let generation = 0;
  let feed: OAuthChangeFeed | undefined;
  /** When each grant was last forgotten (generation, time), kept TOKEN_TTL_MS: no read older than that is kept anyway. */
  const grantsForgotten = new Map<string, { generation: number; at: number }>();
  let clearedAt = 0;

  return {
    /** Keeps entries only while this feed is live. */
    follow(changes: OAuthChangeFeed) {
      feed = changes;
    },
    keeps: (model: string) => KEPT_MODELS.has(model),
    /** Changes seen so far: a read started at one generation is kept only if no change came before it ended. */
    get generation() {
      return generation;
    },
    get size() {
      return kept.size;
    },
    /** The kept row of `id` for `model` (a copy), null when `id` is kept as another model's, undefined when not kept. */
    find(model: string, id: string): FoundRow | null | undefined {
      if (!feed?.live) return undefined;
      const entry = kept.get(id);
      if (!entry) return undefined;
      const now = Date.now();
      if (now - entry.keptAt > ttlMs || now >= entry.expiresAt) {
        kept.delete(id);
        return undefined;
      }
      return entry.model === model ? { ...(JSON.parse(entry.json) as FoundRow), grantReadAt: entry.keptAt } : null;
    },
    /**
     * Keeps a row read (or saved) at generation `since`, for TOKEN_TTL_MS from when its grant
     * was read from the database (`row.grantReadAt`, a refresh token saved with the grant its
     * request read), else from now.
     */
    keep(model: string, id: string, row: FoundRow, since: number): void {
      if (!KEPT_MODELS.has(model) || !feed?.live || since !== generation) return;
      const exp = row.payload.exp;
      if (typeof exp !== 'number' || row.consumedAt) return;
      if (kept.size >= maxTokens && !kept.has(id)) evictOldest(kept, maxTokens);
      const grantId = typeof row.payload.grantId === 'string' ? row.payload.grantId : undefined;
      const { grantReadAt, ...stored } = row;
      kept.set(id, { model, json: JSON.stringify(stored), grantId, keptAt: grantReadAt ?? Date.now(), expiresAt: exp * 1000 });
    },
    /** A token was deleted or changed. */
    forgetToken(id: string): void {
      generation++;
      kept.delete(id);
    },
    /** A grant was deleted or changed: its tokens go (they hold its payload). */
    forgetGrant(grantId: string): void {
      generation++;
      for (const [id, entry] of kept) if (entry.grantId === grantId) kept.delete(id);
      const now = Date.now();
      // In order of insertion (a grant forgotten again moves to the end): the oldest first.
      grantsForgotten.delete(grantId);
      for (const [id, forgotten] of grantsForgotten) {
        if (now - forgotten.at <= ttlMs) break;
        grantsForgotten.delete(id);
      }
      grantsForgotten.set(grantId, { generation, at: now });
    },
    /**
     * Keeps a token a request has just saved with the grant it read at generation `grantRead`
     * (a refresh token): not when that grant, or everything, was forgotten since. Other changes
     * meanwhile (the request's own consume) do not matter: the token is new, no one else's read.
     */
    keepWithGrant(model: string, id: string, row: FoundRow, grantRead: number): void {
      const grantId = row.payload.grantId;
      if (typeof grantId !== 'string' || clearedAt > grantRead || (grantsForgotten.get(grantId)?.generation ?? -1) > grantRead) return;
      this.keep(model, id, row, generation);
    },
    /** Changes may have been missed. */
    clear(): void {
      generation++;
      clearedAt = generation;
      kept.clear();
    },
  };
}
export type TokenCache = ReturnType<typeof tokenCache>;
