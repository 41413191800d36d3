export interface JobLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface PeriodicJob {
  /** Runs the job now (waits for a run in progress first); never overlaps itself. */
  runNow(): Promise<void>;
  /** No more runs; waits for the one in progress. */
  stop(): Promise<void>;
}

export interface JobOptions {
  name: string;
  intervalMs: number;
  initialDelayMs?: number;
  run: () => Promise<unknown>;
}

/** The app a job lives with: it starts when the app is ready, and the app waits for it when it closes. */
interface JobHost {
  log: JobLogger;
  addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown;
}

/**
 * startPeriodicJob for the app's lifetime: started when the app is ready, stopped (the run in
 * progress awaited) when it closes, logging to the app's log. An interval of 0 or less means
 * the job is off on this node: nothing is installed.
 */
export function installPeriodicJob(app: JobHost, options: JobOptions): void {
  if (options.intervalMs <= 0) return;
  let job: PeriodicJob | undefined;
  app.addHook('onReady', async () => {
    job = startPeriodicJob({ ...options, log: app.log });
  });
  app.addHook('onClose', async () => {
    await job?.stop();
  });
}

/**
 * Runs `run` every `intervalMs` in this process, the first time after `initialDelayMs`. Runs
 * never overlap, a failure is logged and the schedule goes on, and the timers are unref'd so
 * they never keep the process alive. Jobs must be safe when several nodes run them at once.
 */
export function startPeriodicJob(options: JobOptions & { log: JobLogger }): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  /** Runs queue behind each other: never two at once in this process. */
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  const once = async () => {
    const started = Date.now();
    try {
      const result = await options.run();
      options.log.info({ job: options.name, result, ms: Date.now() - started }, 'job finished');
    } catch (error) {
      options.log.error({ job: options.name, err: error }, 'job failed');
    }
  };

  const runNow = (): Promise<void> => {
    chain = chain.then(once);
    return chain;
  };

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runNow().finally(() => schedule(options.intervalMs));
    }, delay);
    timer.unref();
  };

  schedule(options.initialDelayMs ?? options.intervalMs);
  return {
    runNow,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
