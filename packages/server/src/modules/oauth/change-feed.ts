import pg from 'pg';
import type { Database } from '../../db/client';
import { listenOnPostgres, type ChannelSubscription } from '../../db/listen';

/**
 * The channel the triggers of migrations 0038 and 0039 notify: `client:<client_id>` for an app's
 * change, `keys` for a signing key's, `token:<id>` for an access or client-credentials token
 * deleted or changed, `grant:<id>` for a grant's.
 */
export const OAUTH_CHANNEL = 'oauth_changes';
const CLIENT_PREFIX = 'client:';
const TOKEN_PREFIX = 'token:';
const GRANT_PREFIX = 'grant:';

export interface OAuthChangeHandlers {
  /** An outside app was registered, changed (secret, redirect URIs, disabled) or deleted. */
  client(clientId: string): void;
  /** A signing key was made, retired or dropped. */
  keys(): void;
  /** An access or client-credentials token was revoked (deleted) or changed. */
  token(id: string): void;
  /** A grant was revoked (deleted) or changed: the tokens issued from it answer from the database again. */
  grant(id: string): void;
  /** Notifications may have been missed (the listening connection dropped or came back): forget everything. */
  gap(): void;
}

export interface OAuthChangeFeed {
  /** False while notifications may be missed, and once closed: what the feed keeps fresh must not be read then. */
  readonly live: boolean;
  close(): Promise<void>;
}

/** The listening connection of one database, shared by every feed on it (two nodes of a test share the database). */
interface SharedListener {
  subscription: Promise<ChannelSubscription>;
  followers: Set<OAuthChangeHandlers>;
}
const listeners = new WeakMap<object, SharedListener>();

/**
 * LISTEN on the database behind `db`: PostgreSQL over a dedicated connection to the pool's
 * database (db/listen.ts: reconnects, reports gaps), PGlite through its own listen, which
 * delivers before the notifying statement answers.
 */
async function listenBehind(db: Database, handlers: { message(payload: string): void; gap(): void }, keepaliveMs: number): Promise<ChannelSubscription> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    const url = client.options.connectionString;
    if (!url) throw new Error('the database pool has no connection string to listen with');
    return listenOnPostgres(url, OAUTH_CHANNEL, handlers, { keepaliveMs });
  }
  const local = client as { listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>; closed?: boolean };
  const unlisten = await local.listen(OAUTH_CHANNEL, handlers.message);
  return { live: true, close: () => (local.closed ? Promise.resolve() : unlisten()) };
}

/**
 * Follows the changes of outside apps, signing keys, tokens and grants that any node (or tool)
 * commits to the database, so that this node's caches of them (client-cache.ts,
 * current-provider.ts, token-cache.ts) hold only until the change.
 */
export async function followOAuthChanges(db: Database, handlers: OAuthChangeHandlers, options: { keepaliveMs: number }): Promise<OAuthChangeFeed> {
  let shared = listeners.get(db);
  if (!shared) {
    const followers = new Set<OAuthChangeHandlers>();
    const subscription = listenBehind(
      db,
      {
        message(payload) {
          for (const follower of followers) {
            if (payload.startsWith(TOKEN_PREFIX)) follower.token(payload.slice(TOKEN_PREFIX.length));
            else if (payload.startsWith(GRANT_PREFIX)) follower.grant(payload.slice(GRANT_PREFIX.length));
            else if (payload.startsWith(CLIENT_PREFIX)) follower.client(payload.slice(CLIENT_PREFIX.length));
            else follower.keys();
          }
        },
        gap() {
          for (const follower of followers) follower.gap();
        },
      },
      options.keepaliveMs,
    );
    shared = { subscription, followers };
    listeners.set(db, shared);
    subscription.catch(() => listeners.delete(db));
  }
  const { followers } = shared;
  const subscription = await shared.subscription;
  // The last follower closed the listener meanwhile: follow a new one.
  if (listeners.get(db) !== shared) return followOAuthChanges(db, handlers, options);
  followers.add(handlers);
  let closed = false;
  return {
    get live() {
      return !closed && subscription.live;
    },
    async close() {
      if (closed) return;
      closed = true;
      followers.delete(handlers);
      if (followers.size === 0 && listeners.get(db) === shared) {
        listeners.delete(db);
        await subscription.close();
      }
    },
  };
}
