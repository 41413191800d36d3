import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { fileDatabase } from '../../../test/db-target';
import { countStatements } from '../../../test/statement-counter';
import { createDashboardCounter } from './counter';
import { hourOf, type CountedEvent } from './queries';
import { dashboardCounters } from './tables';

const database = fileDatabase();
const INTERVAL = 80;
const HOUR = 60 * 60 * 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { error: (object: unknown) => expect.unreachable(String(object)) };

/** A counter on its own hour of the test database (a day apart per test), and what the table holds for it. */
function counterAt(daysAgo: number, interval = INTERVAL) {
  const clock = manualClock(new Date(hourOf(new Date()).getTime() - daysAgo * 24 * HOUR + 10 * 60 * 1000));
  const counter = createDashboardCounter({ db: database.db, clock, log: quiet }, interval);
  const stored = async (event: CountedEvent, hour = hourOf(clock.now())) => {
    const [row] = await database.db
      .select({ count: dashboardCounters.count })
      .from(dashboardCounters)
      .where(and(eq(dashboardCounters.metric, event), eq(dashboardCounters.hour, hour)));
    return row?.count ?? 0;
  };
  return { clock, counter, stored };
}

describe("the operators' counters", () => {
  it('write the first event of a quiet node at once, and the many within its interval in one statement at its end', async () => {
    const { counter, stored } = counterAt(3, 1000);
    // Once before counting: PGlite prepares a statement's text on its first use, in an exchange of its own.
    await counter.count('sign_in');
    await counter.written();
    const atOnce = await countStatements(async () => {
      for (let i = 0; i < 50; i++) await counter.count('sign_in');
    });
    const atIntervalEnd = await countStatements(() => pause(1500));
    expect([atOnce.count, atIntervalEnd.count]).toEqual([1, 1]);
    expect(await stored('sign_in')).toBe(51);
  });

  it('count each event in the hour it happened, when the interval ends in the next one', async () => {
    const { clock, counter, stored } = counterAt(4);
    const first = hourOf(clock.now());
    await counter.count('sign_in_failed');
    await counter.count('sign_in_failed');
    await counter.count('lockout');
    clock.advance(HOUR);
    await counter.count('sign_in_failed');
    await counter.written();
    expect([await stored('sign_in_failed', first), await stored('lockout', first), await stored('sign_in_failed')]).toEqual([2, 1, 1]);
  });

  it('are all written once asked (the dashboard asks before it reads, the node when it closes), and nothing more afterwards', async () => {
    const { counter, stored } = counterAt(5);
    for (let i = 0; i < 7; i++) await counter.count('token_grant');
    await counter.written();
    expect(await stored('token_grant')).toBe(7);
    await pause(INTERVAL * 2);
    expect(await stored('token_grant')).toBe(7);
  });

  it('write a count that comes after the node closed before it answers, not at the end of an interval that may never come', async () => {
    const { counter, stored } = counterAt(6, 60_000);
    await counter.count('sign_in');
    await counter.count('sign_in');
    await counter.close();
    expect(await stored('sign_in')).toBe(2);
    // Requests that finish late: each count is in the table once its call settles (a closing node's timers never fire).
    await counter.count('sign_in');
    expect(await stored('sign_in')).toBe(3);
    await counter.count('sign_in');
    expect(await stored('sign_in')).toBe(4);
  });
});
