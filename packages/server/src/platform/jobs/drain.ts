import type { JobLogger } from './runner';

export interface Drain {
  /** Runs the worker soon without waiting; a kick during a run makes one more run after it. */
  kick(): void;
  /** Resolves once no run is in progress or waiting (tests, shutdown). */
  idle(): Promise<void>;
  /** No more kicks; a run waiting for its delay starts now, and is waited for. */
  stop(): Promise<void>;
}

/**
 * A durable queue's worker run on this node right after a commit queued work for it, instead
 * of at its job's next tick: one run at a time, kicks during a run folded into one more run.
 * `delayMs` gathers the kicks of that long into one run, so a busy node claims its rows in
 * batches rather than one run per row. The periodic job stays the safety net (work of a node
 * that died, retries). A failed run is logged; the queue keeps its rows for the next one.
 */
export function createDrain(name: string, run: () => Promise<unknown>, log: Pick<JobLogger, 'error'>, delayMs = 0): Drain {
  let draining: Promise<void> | null = null;
  let waiting: NodeJS.Timeout | null = null;
  let again = false;
  let stopped = false;

  function start(): void {
    waiting = null;
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

  function kick(): void {
    if (stopped || waiting) return;
    if (draining) {
      again = true;
      return;
    }
    if (delayMs <= 0) return start();
    waiting = setTimeout(start, delayMs);
    waiting.unref();
  }

  const idle = async () => {
    while (draining || waiting) await (draining ?? new Promise((resolve) => setTimeout(resolve, delayMs)));
  };
  return {
    kick,
    idle,
    async stop() {
      stopped = true;
      if (waiting) {
        clearTimeout(waiting);
        start();
      }
      await idle();
    },
  };
}
