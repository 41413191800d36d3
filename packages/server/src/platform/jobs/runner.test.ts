import { describe, expect, it } from 'vitest';
import { startPeriodicJob } from './runner';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recorder() {
  const lines: string[] = [];
  return { lines, log: { info: (_: object, message: string) => lines.push(message), error: (_: object, message: string) => lines.push(message) } };
}

describe('startPeriodicJob', () => {
  it('runs on its interval, keeps going after a failure, and stops', async () => {
    const { lines, log } = recorder();
    let runs = 0;
    const job = startPeriodicJob({
      name: 'test',
      intervalMs: 10,
      initialDelayMs: 0,
      log,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('boom');
      },
    });
    await sleep(120);
    await job.stop();
    const stoppedAt = runs;
    expect(stoppedAt).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toBe('job failed');
    expect(lines).toContain('job finished');
    await sleep(50);
    expect(runs).toBe(stoppedAt);
  });

  it('never overlaps runs in one process', async () => {
    const { log } = recorder();
    let active = 0;
    let most = 0;
    const job = startPeriodicJob({
      name: 'slow',
      intervalMs: 60_000,
      log,
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        await sleep(20);
        active -= 1;
      },
    });
    await Promise.all([job.runNow(), job.runNow(), job.runNow()]);
    await job.stop();
    expect(most).toBe(1);
  });
});
