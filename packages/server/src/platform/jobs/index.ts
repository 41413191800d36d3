import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../clock';
import { runDeletionPurge } from './deletion-purge';
import { startPeriodicJob, type PeriodicJob } from './runner';

export { runDeletionPurge } from './deletion-purge';
export { startPeriodicJob, type PeriodicJob } from './runner';

/**
 * The scheduled purge of accounts past their deletion date: started when the app is ready,
 * every DELETION_JOB_INTERVAL_SECONDS (0: not on this node), stopped when it closes. The first
 * run comes within a minute of start (jittered, so nodes started together spread out).
 */
export function installDeletionPurgeJob(app: FastifyInstance, deps: { config: Config; db: Database; clock: Clock }): void {
  const intervalMs = deps.config.DELETION_JOB_INTERVAL_SECONDS * 1000;
  if (intervalMs <= 0) return;
  let job: PeriodicJob | undefined;
  app.addHook('onReady', async () => {
    job = startPeriodicJob({
      name: 'deletion-purge',
      intervalMs,
      initialDelayMs: Math.min(intervalMs, 30_000 + Math.floor(Math.random() * 30_000)),
      run: () => runDeletionPurge(deps.db, deps.clock),
      log: app.log,
    });
  });
  app.addHook('onClose', async () => {
    await job?.stop();
  });
}
