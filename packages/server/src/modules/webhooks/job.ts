import { installPeriodicJob, type JobLogger } from '../../platform/jobs';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './delivery';
import { webhookQueries } from './queries';

/** Delivered and failed deliveries stay in the console's log this long. */
const LOG_RETENTION_MS = 30 * 24 * 3_600_000;
/** The log is pruned about once an hour per node (a cheap indexed delete). */
const PRUNE_EVERY_MS = 3_600_000;

interface JobHost {
  log: JobLogger;
  addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown;
}

/**
 * The delivery job of this node: every `intervalMs`, sends what is due (every node runs it;
 * the claim shares the work out). 0 turns delivery off on this node.
 */
export function installWebhookDeliveryJob(app: JobHost, options: DeliveryWorkerOptions & { db: Database; clock: Clock; intervalMs: number }): void {
  const worker = createDeliveryWorker(options);
  const queries = webhookQueries(options.db);
  let prunedAt = 0;
  // It runs every second or so: a run that sent nothing is not worth a log line.
  const log: JobLogger = {
    info: (object, message) => (object as { result?: unknown }).result !== 0 && app.log.info(object, message),
    error: (object, message) => app.log.error(object, message),
  };
  installPeriodicJob({ log, addHook: (name, hook) => app.addHook(name, hook) }, {
    name: 'webhook-delivery',
    intervalMs: options.intervalMs,
    run: async () => {
      const sent = await worker.run();
      const now = options.clock.now();
      if (now.getTime() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = now.getTime();
        await queries.prune(new Date(now.getTime() - LOG_RETENTION_MS));
      }
      return sent;
    },
  });
}
