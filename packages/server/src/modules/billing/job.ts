import type { FastifyInstance } from 'fastify';
import { installPeriodicJob, startPeriodicJob, type PeriodicJob } from '../../platform/jobs';
import type { BillingService } from './service';

/**
 * The scheduled renewal run: every BILLING_JOB_INTERVAL_SECONDS (0: not on this node), the first
 * within a minute of start (jittered so nodes started together spread out), stopped on close.
 */
export function installRenewalJob(app: FastifyInstance, billing: BillingService, intervalSeconds: number): void {
  const intervalMs = intervalSeconds * 1000;
  installPeriodicJob(app, {
    name: 'billing-renewals',
    intervalMs,
    initialDelayMs: Math.min(intervalMs, 30_000 + Math.floor(Math.random() * 30_000)),
    run: () => billing.runRenewals(),
  });
}

/**
 * The receipt run: every BILLING_RECEIPT_INTERVAL_SECONDS (0: not on this node), sends the
 * receipts still pending (a node died before sending, or SMTP failed and the backoff is over).
 * On close it also waits for the receipt this node may be sending right after a payment.
 */
export function installReceiptJob(app: FastifyInstance, billing: BillingService, intervalSeconds: number): void {
  const intervalMs = intervalSeconds * 1000;
  let job: PeriodicJob | undefined;
  if (intervalMs > 0) {
    app.addHook('onReady', async () => {
      job = startPeriodicJob({ name: 'billing-receipts', intervalMs, initialDelayMs: Math.min(intervalMs, 5_000 + Math.floor(Math.random() * 10_000)), run: () => billing.runReceipts(), log: app.log });
    });
  }
  app.addHook('onClose', async () => {
    await job?.stop();
    await billing.receiptsIdle();
  });
}
