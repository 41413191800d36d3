import { PGlite, types, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { createStatementCache } from './pglite-statements';
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
  let client: PGlite;
  try {
    client = options.pglite ?? (await PGlite.create(options.dataDir));
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = drizzlePglite(drizzleClient(client), { schema });
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, handlers.message);
      // One in-process database: nothing can be missed, so it is always live.
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

/** What drizzle asks PGlite to leave as text on every query: it parses these itself. */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

type Queryable = Pick<Transaction, 'query'>;

/**
 * The PGlite client drizzle gets:
 * - drizzle passes the same `parsers` option with every query, and PGlite merges it into its
 *   ~300 type parsers on every call: ~0.1 ms a query, more than a small query itself costs
 *   (measured in bench/). The same parsers are set once on the instance instead (the same rows),
 *   and the option is dropped from each query and from each query of a transaction.
 * - each query text runs as a named statement once it has been seen (pglite-statements.ts).
 */
function drizzleClient(client: PGlite): PGlite {
  for (const type of DRIZZLE_TEXT_TYPES) client.parsers[type] = asText;
  const statements = createStatementCache(client);
  const withoutParsers = (options?: QueryOptions) => (options?.parsers ? { ...options, parsers: undefined } : options);
  const cachedQuery = <T extends Queryable>(target: T, inTransaction: boolean): T['query'] => {
    const plain = target.query.bind(target) as Queryable['query'];
    return ((query: string, params?: unknown[], options?: QueryOptions) =>
      // A closed transaction's own query says so.
      inTransaction && (target as unknown as Transaction).closed ? plain(query, params, options) : statements.run(plain, query, params, withoutParsers(options), inTransaction)) as T['query'];
  };
  // Built once: drizzle reads `query` on every statement.
  const query = cachedQuery(client, false);
  return new Proxy(client, {
    get(target, key) {
      if (key === 'query') return query;
      if (key === 'transaction') {
        return <R>(callback: (tx: Transaction) => Promise<R>) =>
          target.transaction((tx) => {
            // Once per transaction, like `query` above.
            const txQuery = cachedQuery(tx, true);
            return callback(new Proxy(tx, { get: (inner, innerKey) => (innerKey === 'query' ? txQuery : Reflect.get(inner, innerKey)) }));
          });
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
