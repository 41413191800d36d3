import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { claimDueRows } from '../../db/claim-due';
import type { Database } from '../../db/client';
import { billingReceipts } from './tables';
import type { Clock } from '../../platform/clock';
import type { BillingTx } from './queries';

/** How long a worker holds a claimed receipt before another node may take it over (longer than SMTP's timeouts). */
export const RECEIPT_LEASE_MS = 5 * 60 * 1000;
/** Waits after each failed attempt; after the last one the receipt is given up (status failed, logged). */
export const RECEIPT_RETRY_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000, 12 * 60 * 60_000] as const;

export type ReceiptRow = typeof billingReceipts.$inferSelect;

/** A pending receipt for a paid order, written in the transaction that marks it paid (once per order). */
export async function enqueueReceipt(tx: BillingTx | Database, orderId: string, now: Date): Promise<void> {
  await tx.insert(billingReceipts).values({ orderId, nextAttemptAt: now }).onConflictDoNothing();
}

export interface ReceiptWorkerDeps {
  db: Database;
  clock: Clock;
  log: { error(object: unknown, message: string): void };
  /** Renders and sends one order's receipt; throws when the mail did not go out. */
  send(orderId: string): Promise<void>;
}

/**
 * The receipt worker: claims due receipts in one statement (a CTE with FOR UPDATE SKIP LOCKED,
 * then a lease: several nodes take disjoint rows, and a node that dies mid-send leaves its
 * claim to lapse), sends them one at a time (one invoice PDF at a time per node), marks each
 * sent under its own claim, and schedules a failed one again with backoff.
 */
export function createReceiptWorker(deps: ReceiptWorkerDeps) {
  const { db, clock, log } = deps;
  let draining: Promise<{ sent: number; retried: number; failed: number }> | null = null;
  let again = false;

  function claim(claimId: string, limit: number): Promise<ReceiptRow[]> {
    const now = clock.now();
    return claimDueRows(db, billingReceipts, billingReceipts.orderId, {
      now,
      until: new Date(now.getTime() + RECEIPT_LEASE_MS),
      claimId,
      limit,
      where: eq(billingReceipts.status, 'pending'),
    });
  }

  async function settle(row: ReceiptRow, claimId: string, error: unknown): Promise<'sent' | 'retried' | 'failed'> {
    const now = clock.now();
    const mine = and(eq(billingReceipts.orderId, row.orderId), eq(billingReceipts.claimId, claimId));
    if (!error) {
      await db.update(billingReceipts).set({ status: 'sent', sentAt: now, claimId: null, claimedUntil: null, lastError: null }).where(mine);
      return 'sent';
    }
    const attempts = row.attempts + 1;
    const wait = RECEIPT_RETRY_MS[attempts - 1];
    const message = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
    await db
      .update(billingReceipts)
      .set({
        attempts,
        status: wait === undefined ? 'failed' : 'pending',
        nextAttemptAt: new Date(now.getTime() + (wait ?? 0)),
        lastError: message,
        claimId: null,
        claimedUntil: null,
      })
      .where(mine);
    log.error({ err: error, order: row.orderId, attempts }, wait === undefined ? 'receipt not sent; given up' : 'receipt not sent; retried later');
    return wait === undefined ? 'failed' : 'retried';
  }

  /** Sends what is due now, in batches, until nothing is left this node can claim. */
  async function run(options: { batchSize?: number; maxBatches?: number } = {}) {
    const claimId = randomUUID();
    const counts = { sent: 0, retried: 0, failed: 0 };
    for (let batch = 0; batch < (options.maxBatches ?? 100); batch += 1) {
      const claimed = await claim(claimId, options.batchSize ?? 20);
      if (claimed.length === 0) break;
      for (const row of claimed) {
        let failure: unknown = null;
        try {
          await deps.send(row.orderId);
        } catch (error) {
          failure = error ?? new Error('receipt not sent');
        }
        counts[await settle(row, claimId, failure)] += 1;
      }
    }
    return counts;
  }

  /**
   * Runs the worker now on this node without waiting (after a paid order commits), once at a
   * time: a kick during a run makes one more run after it. Failures are logged by `run`.
   */
  function kick(): void {
    if (draining) {
      again = true;
      return;
    }
    draining = run()
      .catch((error: unknown) => {
        log.error({ err: error }, 'receipt worker failed; the next run takes over');
        return { sent: 0, retried: 0, failed: 0 };
      })
      .finally(() => {
        draining = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    run,
    kick,
    /** The run in progress, if any (tests and shutdown wait for it). */
    idle: async () => {
      while (draining) await draining;
    },
  };
}

export type ReceiptWorker = ReturnType<typeof createReceiptWorker>;
