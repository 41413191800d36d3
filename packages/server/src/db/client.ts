import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { drizzleClient } from './pglite-client';
import { startPgliteWorker, type RemotePGlite } from './pglite-remote';
import { listenOnPostgres, type ChannelHandlers, type ChannelSubscription, type ListenOptions } from './listen';
import * as schema from './schema';

export type Database = ReturnType<typeof drizzlePglite<typeof schema>>;
/** A transaction of the database. */
export type DatabaseTransaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Where a query runs: the database, or a transaction a caller holds open across modules. */
export type DatabaseExecutor = Database | DatabaseTransaction;
export type { ChannelHandlers, ChannelSubscription } from './listen';
export { DataDirLocked } from './data-dir-lock';

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL URL, for work that needs its own connection (migrations). */
  url?: string;
  /** Runs a trivial query; throws when the database is unreachable. */
  ping(): Promise<void>;
  /**
   * LISTEN on a channel. PGlite calls `message` before the statement that notified resolves;
   * PostgreSQL delivers over a dedicated connection, in commit order, and calls `gap` when that
   * connection drops (notifications may have been missed until it is back).
   */
  listen(channel: string, handlers: ChannelHandlers): Promise<ChannelSubscription>;
  close(): Promise<void>;
}

/**
 * PostgreSQL when a URL is given, else PGlite (PostgreSQL in WebAssembly) under `dataDir`.
 * Both speak the same SQL, so the schema, migrations and queries are one.
 * `pglite` may be passed in by tests that restore a migrated snapshot.
 */
export async function openDatabase(options: { url?: string; dataDir?: string; pglite?: PGlite; listen?: ListenOptions }): Promise<DatabaseHandle> {
  if (options.url) {
    const url = options.url;
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // A connection that drops (a database restart, an operator's pg_terminate_backend) emits
    // 'error' on its client, and on the pool when idle; unheard, that would end the process.
    // The pool discards the client and the next query connects again; a query that was
    // running gets the error itself.
    const ignoreDroppedConnection = () => undefined;
    pool.on('error', ignoreDroppedConnection);
    pool.on('connect', (client) => client.on('error', ignoreDroppedConnection));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const subscriptions = new Set<ChannelSubscription>();
    return {
      db,
      kind: 'postgres',
      url,
      ping: async () => void (await pool.query('select 1')),
      async listen(channel, handlers) {
        const subscription = await listenOnPostgres(url, channel, handlers, options.listen);
        subscriptions.add(subscription);
        return subscription;
      },
      async close() {
        await Promise.all([...subscriptions].map((subscription) => subscription.close()));
        await pool.end();
      },
    };
  }
  // A data folder serves one process at a time (data-dir-lock.ts): a second one would lose writes.
  const releaseLock = !options.pglite && options.dataDir && !options.dataDir.includes('://') ? lockDataDir(options.dataDir) : () => undefined;
  // A given instance (tests restoring a snapshot) runs on this thread; an opened one in a worker thread (pglite-remote.ts).
  let client: PGlite | RemotePGlite;
  try {
    client = options.pglite ? drizzleClient(options.pglite) : await startPgliteWorker({ dataDir: options.dataDir });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = drizzlePglite({ client: client as PGlite, schema });
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, handlers.message);
      // One database of this process (on its thread or its worker): nothing can be missed, so it is always live.
      return { live: true, close: () => (client.closed ? Promise.resolve() : unlisten()) };
    },
    async close() {
      try {
        await client.close();
      } finally {
        releaseLock();
      }
    },
  };
}
