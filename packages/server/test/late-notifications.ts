import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/**
 * Delivers the database's notifications on `channel` to this process `delayMs` late, on either
 * database (PGlite's listen, a pg connection's notification event): the real database and a
 * real feed, behind as PostgreSQL's can be, for the tests of what a node must hold before its
 * notice arrives. Call it at the top of a test file, before the server is made, so that its
 * node listens through the late delivery; restored after the file.
 */
export function deliverNotificationsLate(channel: string, delayMs = 300): void {
  const late = <T extends unknown[]>(deliver: (...args: T) => void) => (...args: T) => void setTimeout(() => deliver(...args), delayMs);
  const pgliteListen = PGlite.prototype.listen;
  const pgEmit = pg.Client.prototype.emit;
  beforeAll(() => {
    PGlite.prototype.listen = function (this: PGlite, listened: string, callback: (payload: string) => void, ...rest: unknown[]) {
      return (pgliteListen as (...args: unknown[]) => ReturnType<PGlite['listen']>).call(this, listened, listened === channel ? late(callback) : callback, ...rest);
    };
    pg.Client.prototype.emit = function (this: pg.Client, event: string | symbol, ...args: unknown[]) {
      if (event !== 'notification' || (args[0] as pg.Notification).channel !== channel) return pgEmit.call(this, event, ...args);
      late(() => pgEmit.call(this, event, ...args))();
      return true;
    };
  });
  afterAll(() => {
    PGlite.prototype.listen = pgliteListen;
    pg.Client.prototype.emit = pgEmit;
  });
}
