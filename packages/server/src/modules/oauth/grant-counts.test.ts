import { describe, expect, it } from 'vitest';
import { grantCounts } from './grant-counts';

const INTERVAL = 80;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A counter whose count() calls are recorded, with how many had come by each moment asked. */
function recorded() {
  let counted = 0;
  const counts = grantCounts(async () => {
    counted++;
  }, INTERVAL);
  return { counts, counted: () => counted };
}

describe('the count of token grants for the dashboard', () => {
  it('counts the first grant of a quiet node at once, and those within its interval together at its end', async () => {
    const { counts, counted } = recorded();
    counts.add();
    expect(counted()).toBe(1);
    counts.add();
    counts.add();
    await pause(INTERVAL / 4);
    expect(counted()).toBe(1);
    await pause(INTERVAL * 3);
    expect(counted()).toBe(3);
  });

  it('counts every grant of a steady stream, none lost between intervals', async () => {
    const { counts, counted } = recorded();
    for (let i = 0; i < 20; i++) {
      counts.add();
      await pause(INTERVAL / 8);
    }
    await pause(INTERVAL * 4);
    expect(counted()).toBe(20);
  });

  it('counts at once again after an interval without grants', async () => {
    const { counts, counted } = recorded();
    counts.add();
    counts.add();
    await pause(INTERVAL * 4);
    expect(counted()).toBe(2);
    counts.add();
    expect(counted()).toBe(3);
  });

  it('writes what waits when the node closes, and nothing more afterwards', async () => {
    const { counts, counted } = recorded();
    counts.add();
    counts.add();
    counts.add();
    expect(counted()).toBe(1);
    await counts.flush();
    expect(counted()).toBe(3);
    await pause(INTERVAL * 1.5);
    expect(counted()).toBe(3);
  });
});
