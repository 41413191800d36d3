import type { FastifyInstance } from 'fastify';
import { startPeriodicJob, type PeriodicJob } from '../../platform/jobs';
import type { ChainWithdrawalService } from './chain';

/**
 * The chain job: every WHC_CHAIN_POLL_SECONDS (0: not on this node) it sends the pending WHC
 * withdrawals and follows their receipts; a new withdrawal asks for a run at once. Safe on
 * several nodes (one signer at a time, status changes claimed atomically).
 */
export function installChainJob(app: FastifyInstance, chain: ChainWithdrawalService, intervalSeconds: number): { kick(): void } {
  const intervalMs = intervalSeconds * 1000;
  let job: PeriodicJob | undefined;
  if (intervalMs > 0 && chain.enabled) {
    app.addHook('onReady', async () => {
      job = startPeriodicJob({ name: 'wallet-chain', intervalMs, initialDelayMs: Math.min(intervalMs, 5_000), run: () => chain.run(), log: app.log });
    });
    app.addHook('onClose', async () => {
      await job?.stop();
    });
  }
  let queued = false;
  return {
    kick() {
      // At most one run asked for at a time; failures are logged by the job and the schedule
      // retries (the request has its answer already).
      if (!job || queued) return;
      queued = true;
      void job.runNow().finally(() => {
        queued = false;
      });
    },
  };
}
