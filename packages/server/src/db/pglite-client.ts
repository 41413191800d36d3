import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { createStatementCache } from './pglite-statements';

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
export function drizzleClient(client: PGlite): PGlite {
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
