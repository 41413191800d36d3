import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, DatabaseTransaction } from './client';

interface Scope {
  tx: DatabaseTransaction;
  /** False once the transaction ended: work it started and left running goes back to the database. */
  open: boolean;
  /** What waits for the commit (afterCommit): a savepoint's joins its parent's once released. */
  committed: Array<() => Promise<unknown>>;
  /** The scope a savepoint was opened in: work left running after the savepoint goes on there. */
  parent?: Scope;
}

/** The slice of drizzle's session (PgSession) this file routes. */
interface Session {
  prepareQuery(...args: unknown[]): object;
  transaction(work: (tx: DatabaseTransaction) => Promise<unknown>, config?: unknown): Promise<unknown>;
}

const scopes = new AsyncLocalStorage<Scope>();
const SCOPED = Symbol('transaction-scoped database');

const openScope = () => {
  let scope = scopes.getStore();
  while (scope && !scope.open) scope = scope.parent;
  return scope;
};
const sessionOf = (tx: DatabaseTransaction) => (tx as unknown as { session: Session }).session;

/**
 * A prepared query that runs where it is executed, not where it was prepared: in the open scope's
 * transaction, or on the database. Modules prepare their hot lookups once, on first use, which
 * may be inside a scope; bound there, the statement would outlive its transaction.
 */
function routedPrepared(root: Session, args: unknown[]): object {
  const made = new WeakMap<Session, object>();
  // drizzle sets fields on a prepared query after making it (a select's joinsNotNullableMap, its token).
  const assigned: Record<string | symbol, unknown> = {};
  const concrete = () => {
    const scope = openScope();
    const session = scope ? sessionOf(scope.tx) : root;
    let query = made.get(session);
    if (!query) {
      query = Object.assign(session.prepareQuery(...args), assigned);
      made.set(session, query);
    }
    return query;
  };
  const routed: object = new Proxy(
    {},
    {
      get(_target, property) {
        // setToken answers its query, which must stay this one, not the one of the scope it was set in.
        if (property === 'setToken') {
          return (token: unknown) => {
            assigned.authToken = token;
            return routed;
          };
        }
        const query = concrete();
        const value: unknown = Reflect.get(query, property);
        return typeof value === 'function' ? (value as (...values: unknown[]) => unknown).bind(query) : value;
      },
      set(_target, property, value) {
        assigned[property] = value;
        return true;
      },
    },
  );
  return routed;
}

/** drizzle's session of the database, answering from the open scope's transaction when there is one. */
function routedSession(root: Session): Session {
  return new Proxy(root, {
    get(target, property) {
      const scope = openScope();
      // A transaction opened inside the scope is a savepoint of its transaction, with a scope of its own (afterCommit).
      if (property === 'transaction' && scope) return (work: (tx: DatabaseTransaction) => Promise<unknown>) => nestedIn(scope, (inSavepoint) => scope.tx.transaction(inSavepoint), work);
      if (property === 'prepareQuery') return (...args: unknown[]) => routedPrepared(target, args);
      const session: object = scope ? sessionOf(scope.tx) : target;
      const value: unknown = Reflect.get(session, property);
      return typeof value === 'function' ? (value as (...values: unknown[]) => unknown).bind(session) : value;
    },
  });
}

/**
 * Makes the database every module holds able to join a transaction it did not open: inside
 * `inOneTransaction`, each query made through it (from any module, however deep, prepared
 * statements included) runs in that transaction, and each transaction it opens is a savepoint
 * of it. Outside, it is the database. This is how an operator's action and its audit row commit
 * together, or neither, without every module's service taking a transaction argument. The
 * routing is drizzle's session (every query builder, `execute` and `transaction` go through it),
 * swapped in place on `db`; returns `db`.
 */
export function transactionScoped(db: Database): Database {
  const holder = db as unknown as { session: Session; _: { session: Session }; query: Record<string, { session: Session }>; [SCOPED]?: true };
  if (holder[SCOPED]) return db;
  const session = routedSession(holder.session);
  holder.session = session;
  holder._.session = session;
  for (const builder of Object.values(holder.query)) builder.session = session;
  holder[SCOPED] = true;
  return db;
}

/**
 * Runs `work` in one transaction that every query of a `transactionScoped` database joins:
 * it commits when `work` resolves and rolls back, entirely, when it throws. What `work` asked
 * to run after the commit (afterCommit) runs before this resolves, in order; inside another
 * scope, it waits for the outermost commit.
 */
export async function inOneTransaction<T>(db: Database, work: () => Promise<T>): Promise<T> {
  // Inside another: a savepoint of its transaction, in a scope of its own (the routed session's `transaction`).
  if (openScope()) return db.transaction(() => work());
  const committed: Scope['committed'] = [];
  const answer = await db.transaction((tx) => runScoped({ tx, open: true, committed }, () => work()));
  for (const next of committed.splice(0)) await next();
  return answer;
}

async function runScoped<T>(scope: Scope, work: (tx: DatabaseTransaction) => Promise<T>): Promise<T> {
  try {
    return await scopes.run(scope, () => work(scope.tx));
  } finally {
    scope.open = false;
  }
}

/**
 * A savepoint of `outer`'s transaction in a scope of its own: what it asked to run after the
 * commit joins the outer scope's list only once the savepoint is released. A savepoint rolled
 * back (its error caught, the outer action going on) takes its work with it.
 */
async function nestedIn<T>(outer: Scope, open: (inSavepoint: (tx: DatabaseTransaction) => Promise<T>) => Promise<T>, work: (tx: DatabaseTransaction) => Promise<T>): Promise<T> {
  const committed: Scope['committed'] = [];
  const answer = await open((tx) => runScoped({ tx, open: true, committed, parent: outer }, work));
  outer.committed.push(...committed);
  return answer;
}

/** Whether this runs inside `inOneTransaction`: what it writes may still roll back. */
export const inTransaction = (): boolean => openScope() !== undefined;

/**
 * Runs `next` once what was changed so far is committed: at once outside `inOneTransaction`;
 * inside it, right after its transaction commits (never when it rolls back), outside the
 * transaction. For work that reads the database afresh to bring this node's state in line with
 * a change, such as reloading the signing keys: inside the transaction it would build on what
 * may yet roll back, and a reload already running elsewhere would read without the change.
 */
export async function afterCommit(next: () => Promise<unknown>): Promise<void> {
  const scope = openScope();
  if (scope) scope.committed.push(next);
  else await next();
}
