import { describe, expect, it } from 'vitest';
import { createDrain } from './drain';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = { error: () => undefined };

describe('createDrain', () => {
  it('gathers the kicks of its delay into one run, and one more run for kicks during a run', async () => {
    let runs = 0;
    let active = 0;
    let most = 0;
    const drain = createDrain('test', async () => {
      runs += 1;
      active += 1;
      most = Math.max(most, active);
      await sleep(30);
      active -= 1;
    }, log, 20);
    for (let kick = 0; kick < 5; kick++) drain.kick();
    await sleep(35);
    expect(runs).toBe(1);
    drain.kick();
    drain.kick();
    await drain.idle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it('runs a kick still waiting for its delay when stopped, then takes no more', async () => {
    let runs = 0;
    const drain = createDrain('test', async () => void (runs += 1), log, 60_000);
    drain.kick();
    await drain.stop();
    expect(runs).toBe(1);
    drain.kick();
    await sleep(10);
    expect(runs).toBe(1);
  });

  it('logs a failed run and runs again on the next kick', async () => {
    const errors: string[] = [];
    let runs = 0;
    const drain = createDrain('test', async () => {
      runs += 1;
      if (runs === 1) throw new Error('boom');
    }, { error: (_object, message) => errors.push(message) });
    drain.kick();
    await drain.idle();
    drain.kick();
    await drain.idle();
    expect({ runs, errors }).toEqual({ runs: 2, errors: ['job failed; the next run takes over'] });
  });
});
