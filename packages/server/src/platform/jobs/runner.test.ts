import { describe, expect, it } from 'vitest';
import { installPeriodicJob, startPeriodicJob } from './runner';

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

describe('installPeriodicJob', () => {
  /** An app's hooks, run when the test says the app is ready or closing. */
  function host() {
    const hooks: Record<string, Array<() => Promise<void>>> = { onReady: [], onClose: [] };
    const { log } = recorder();
    return {
      log,
      hooks,
      addHook: (name: 'onReady' | 'onClose', hook: () => Promise<void>) => hooks[name]!.push(hook),
      fire: async (name: 'onReady' | 'onClose') => {
        for (const hook of hooks[name]!) await hook();
      },
    };
  }

  it('starts when the app is ready and stops, its run awaited, when the app closes', async () => {
    const app = host();
    let runs = 0;
    let running = false;
    installPeriodicJob(app, {
      name: 'lifetime',
      intervalMs: 10,
      initialDelayMs: 0,
      run: async () => {
        running = true;
        runs += 1;
        await sleep(15);
        running = false;
      },
    });
    await sleep(40);
    expect(runs).toBe(0);
    await app.fire('onReady');
    await sleep(60);
    await app.fire('onClose');
    expect(running).toBe(false);
    const stoppedAt = runs;
    expect(stoppedAt).toBeGreaterThanOrEqual(2);
    await sleep(40);
    expect(runs).toBe(stoppedAt);
  });

  it('installs nothing when the interval is 0 (the job is off on this node)', () => {
    const app = host();
    installPeriodicJob(app, { name: 'off', intervalMs: 0, run: async () => undefined });
    expect(app.hooks.onReady).toHaveLength(0);
    expect(app.hooks.onClose).toHaveLength(0);
  });
});
