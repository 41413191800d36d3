import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { countEvent, type CountedEvent } from './queries';

export type DashboardCounter = (event: CountedEvent) => Promise<void>;

/**
 * Counts an event now. A failed count is logged and never fails the sign-in or the token
 * request that caused it: the figure is for operators, the person's request comes first.
 * Events of one kind that come while its last count is still being written are added in one
 * statement after it (every token grant counts: under load that would be a statement per grant).
 */
export function createDashboardCounter(deps: { db: Database; clock: Clock; log: { error(object: unknown, message: string): void } }): DashboardCounter {
  const counters = new Map<CountedEvent, () => Promise<void>>();
  return (event) => {
    let counter = counters.get(event);
    if (!counter) {
      counter = coalesced((by) => countEvent(deps.db, event, deps.clock.now(), by).catch((error: unknown) => deps.log.error({ err: error, event, by }, 'dashboard counter not raised')));
      counters.set(event, counter);
    }
    return counter();
  };
}

/** Calls made while `write` runs wait for it and are then written together, as one call of `write(their number)`. */
function coalesced(write: (by: number) => Promise<void>): () => Promise<void> {
  let waiting = 0;
  let writing: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const run = (): Promise<void> => {
    // A call between the last write's end and this run already took the waiting ones along.
    if (waiting === 0) return Promise.resolve();
    const by = waiting;
    waiting = 0;
    next = undefined;
    writing = write(by).finally(() => (writing = undefined));
    return writing;
  };
  return () => {
    waiting++;
    if (!writing) return run();
    next ??= writing.then(run);
    return next;
  };
}
