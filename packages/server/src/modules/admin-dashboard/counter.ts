import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { countEvent, hourOf, type CountedEvent } from './queries';

/** Counts one event in the hour it happens: at once in memory, written to the database within a second. */
export type DashboardCounter = (event: CountedEvent) => Promise<void>;

/** How long counts wait in memory after a write, so that a busy node writes each counter about once a second. */
export const COUNT_INTERVAL_MS = 1000;

/**
 * The operators' counters of this node. The first event after a quiet interval is written at
 * once; those that follow within `intervalMs` are written together when it ends, one statement
 * per event and hour. Every sign-in counts: a statement each was a round trip and a database
 * row update of every sign-in's own, some 0.3 ms of the node's main thread and more of the
 * database's, on a counter that only operators read, hour by hour. Nobody waits for a write:
 * a failed one is logged and never fails the sign-in or the token request that caused it.
 * A crash loses at most the last interval's counts of an hourly figure (the writes already
 * skip waiting for the disk). `written` writes what waits and waits for writes under way: the
 * dashboard asks it before it reads; `close` does the same when the node closes.
 */
export function createDashboardCounter(deps: { db: Database; clock: Clock; log: { error(object: unknown, message: string): void } }, intervalMs = COUNT_INTERVAL_MS) {
  /** Counts not written yet, by event and hour (an interval may straddle an hour's end). */
  const waiting = new Map<string, { event: CountedEvent; hour: Date; by: number }>();
  const underWay = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  /** Once the node closes, no count waits for an interval whose end may never come. */
  let closing = false;

  function write(): void {
    for (const { event, hour, by } of waiting.values()) {
      const writing = countEvent(deps.db, event, hour, by)
        .catch((error: unknown) => deps.log.error({ err: error, event, by }, 'dashboard counter not raised'))
        .finally(() => underWay.delete(writing));
      underWay.add(writing);
    }
    waiting.clear();
  }

  function intervalEnded(): void {
    timer = undefined;
    if (waiting.size === 0) return;
    write();
    // What comes next waits for the end of a new interval: the last write was just now.
    startInterval();
  }

  function startInterval(): void {
    timer = setTimeout(intervalEnded, intervalMs);
    timer.unref();
  }

  const count: DashboardCounter = (event) => {
    const hour = hourOf(deps.clock.now());
    const key = `${event} ${hour.getTime()}`;
    const counted = waiting.get(key);
    if (counted) counted.by++;
    else waiting.set(key, { event, hour, by: 1 });
    // A request finishing while the node closes answers once its count is written: whoever waits for it waits for its count.
    if (closing) return written();
    if (!timer) {
      write();
      startInterval();
    }
    return Promise.resolve();
  };

  /** Writes the counts that wait for their interval's end, and waits for every write under way. */
  async function written(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    write();
    await Promise.all(underWay);
  }

  return {
    count,
    written,
    /** The node closes: what waits is written, and a count that still comes (a request finishing late) is written at once. */
    close(): Promise<void> {
      closing = true;
      return written();
    },
  };
}
