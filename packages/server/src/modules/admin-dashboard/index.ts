import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { countEvent, type CountedEvent } from './queries';

/**
 * The operators' dashboard: its route, and the counters other modules raise through app.ts
 * (the sign-in pipeline's successes, failures and lockouts; the OpenID provider's token grants).
 */
export { adminDashboardRoutes } from './routes';
export type { CountedEvent } from './queries';

export type DashboardCounter = (event: CountedEvent) => Promise<void>;

/**
 * Counts an event now. A failed count is logged and never fails the sign-in or the token
 * request that caused it: the figure is for operators, the person's request comes first.
 */
export function createDashboardCounter(deps: { db: Database; clock: Clock; log: { error(object: unknown, message: string): void } }): DashboardCounter {
  return async (event) => {
    await countEvent(deps.db, event, deps.clock.now()).catch((error: unknown) => deps.log.error({ err: error, event }, 'dashboard counter not raised'));
  };
}
