import type { FastifyInstance } from 'fastify';
import { installPeriodicJob } from '../../platform/jobs';
import type { PayoutService } from './payouts';

/**
 * The payout job: every PAYOUT_JOB_INTERVAL_SECONDS (0: not on this node) it asks the payout
 * service to run, which pays only on the 10th (UTC) and finds nothing left after the first run
 * of that day. Safe on several nodes (each payout claims its rewards in one statement).
 * `today` replaces the date the job runs for (PAYOUT_TEST_DATE, refused in production).
 */
export function installPayoutJob(app: FastifyInstance, payouts: PayoutService, intervalSeconds: number, today?: () => Date): void {
  const intervalMs = intervalSeconds * 1000;
  installPeriodicJob(app, {
    name: 'wallet-payouts',
    intervalMs,
    initialDelayMs: Math.min(intervalMs, 5_000),
    run: async () => {
      await payouts.run(today?.());
    },
  });
}
