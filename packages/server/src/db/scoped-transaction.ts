import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, DatabaseTransaction } from './client';

interface Scope {
  tx: DatabaseTransaction;
  /** False once the transaction ended: work it started and left running goes back to the database. */
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();
const SCOPED = Symbol('transaction-scoped database');

/**
 * The database as every module holds it, able to join a transaction it did not open: inside
 * `inOneTransaction`, each query made through it (from any module, however deep) runs in that
 * transaction, and each transaction it opens is a savepoint of it. Outside, it is the database.
 * This is how an operator's action and its audit row commit together, or neither, without every
 * module's service taking a transaction argument.
 */
export function transactionScoped(db: Database): Database {
  if ((db as unknown as Record<symbol, unknown>)[SCOPED]) return db;
  return new Proxy(db, {
    get(target, property) {
      if (property === SCOPED) return true;
      const scope = scopes.getStore();
      const actual: object = scope?.open ? scope.tx : target;
      const value: unknown = Reflect.get(actual, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(actual) : value;
    },
  });
}

/**
 * Runs `work` in one transaction that every query of a `transactionScoped` database joins:
 * it commits when `work` resolves and rolls back, entirely, when it throws.
 */
export function inOneTransaction<T>(db: Database, work: () => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const scope: Scope = { tx, open: true };
    try {
      return await scopes.run(scope, work);
    } finally {
      scope.open = false;
    }
  });
}
