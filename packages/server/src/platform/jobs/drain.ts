import type { JobLogger } from './runner';

export interface Drain {
  /** Runs the worker now without waiting; a kick during a run makes one more run after it. */
  kick(): void;
  /** Resolves once no run is in progress (tests, shutdown). */
  idle(): Promise<void>;
  /** No more kicks; waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * A durable queue's worker run on this node right after a commit queued work for it, instead
 * of at its job's next tick: one run at a time, kicks during a run folded into one more run.
 * The periodic job stays the safety net (work of a node that died, retries). A failed run is
 * logged; the queue keeps its rows for the next one.
 */
export function createDrain(name: string, run: () => Promise<unknown>, log: Pick<JobLogger, 'error'>): Drain {
  let draining: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  function kick(): void {
    if (stopped) return;
    if (draining) {
      again = true;
      return;
    }
    draining = run()
      .then(
        () => undefined,
        (error: unknown) => log.error({ job: name, err: error }, 'job failed; the next run takes over'),
      )
      .finally(() => {
        draining = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  const idle = async () => {
    while (draining) await draining;
  };
  return {
    kick,
    idle,
    async stop() {
      stopped = true;
      await idle();
    },
  };
}
