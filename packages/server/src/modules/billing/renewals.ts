import { randomUUID } from 'node:crypto';
import { findPlan, formatDate, formatMinor, orderTotals } from '@portal/contracts';
import type { Orders } from './orders';
import type { OrderRow, SubscriptionRow } from './queries';
import { addMonths, brandOfProduct, currencyOf, DAY_MS, languageOf, type BillingContext } from './shared';

/** How long a renewal run holds a claimed subscription before another run may take it over. */
export const RENEWAL_LEASE_MS = 5 * 60 * 1000;
/** A charge the processor still works on is looked at again after this long. */
const PENDING_RECHECK_MS = 60 * 60 * 1000;

/** The renewal job: charges what is due, ends what was cancelled or cannot be paid, and retries declines on the configured days. */
export function createRenewals(ctx: BillingContext, orders: Orders) {
  const { deps, clock, config, log, q, users, mail, mailCanceled } = ctx;
  const { payOrder, cardToCharge } = orders;

  /** One due subscription of a claim: end it, renew it, or record the failure and the next try. */
  async function renewOne(subscription: SubscriptionRow, claimId: string): Promise<'canceled' | 'renewed' | 'pending' | 'past_due' | 'lost'> {
    const now = clock.now();
    const release = { claimedUntil: null, claimId: null, updatedAt: now };
    const user = subscription.userId ? await users.findById(subscription.userId) : undefined;
    const cancel = async () => {
      const ended = await q.updateSubscription(subscription.id, { status: 'canceled', canceledAt: now, nextAttemptAt: null, ...release }, { claimId });
      if (!ended) return 'lost' as const;
      mailCanceled(ended, user);
      return 'canceled' as const;
    };
    const plan = findPlan(subscription.plan);
    if (subscription.cancelAtPeriodEnd || !user || !plan || !subscription.currentPeriodEnd) return cancel();
    const card = await cardToCharge(user.id, subscription.paymentMethodId);
    // A trial nobody can pay for ends with the trial.
    if (!card && subscription.status === 'trialing') return cancel();
    const periodStart = subscription.currentPeriodEnd;
    const periodEnd = addMonths(periodStart, subscription.months);
    let order: OrderRow | null = null;
    if (card) {
      order = await payOrder({
        user,
        subscriptionId: subscription.id,
        plan,
        months: subscription.months,
        seats: subscription.seats,
        totals: orderTotals({ price: { minor: subscription.price, currency: currencyOf(subscription.currency) } }),
        kind: 'renewal',
        promoCode: null,
        card,
        key: `renewal:${subscription.id}:${periodStart.toISOString()}:${subscription.retryCount}`,
        periodStart,
        periodEnd,
      });
      await deps.afterRenewalCharge?.(subscription.id);
    }
    if (order && (order.status === 'paid' || order.status === 'completed')) {
      const renewed = await q.updateSubscription(
        subscription.id,
        { status: 'active', currentPeriodStart: periodStart, currentPeriodEnd: periodEnd, nextAttemptAt: periodEnd, retryCount: 0, paymentMethodId: card!.id, ...release },
        { claimId },
      );
      return renewed ? 'renewed' : 'lost';
    }
    if (order && order.status === 'pending') {
      const later = await q.updateSubscription(subscription.id, { nextAttemptAt: new Date(now.getTime() + PENDING_RECHECK_MS), ...release }, { claimId });
      return later ? 'pending' : 'lost';
    }
    const retries = config.BILLING_RETRY_DAYS;
    if (subscription.retryCount >= retries.length) return cancel();
    const next = new Date(now.getTime() + retries[subscription.retryCount]! * DAY_MS);
    const pastDue = await q.updateSubscription(subscription.id, { status: 'past_due', retryCount: subscription.retryCount + 1, nextAttemptAt: next, ...release }, { claimId });
    if (!pastDue) return 'lost';
    const lang = languageOf(user);
    mail(user, brandOfProduct(subscription.product), (copy) =>
      copy.renewalFailed({ plan: plan.name, total: formatMinor(subscription.price, currencyOf(subscription.currency), lang), date: formatDate(next, lang, { timeZone: 'UTC' }) }),
    );
    return 'past_due';
  }

  return {
    /**
     * Renews what is due: claims batches of due subscriptions (one statement, SKIP LOCKED, a
     * lease), then ends, charges or marks each past due. Safe with several nodes at once; a run
     * that dies leaves its claims to lapse, and the next run charges again with the same
     * idempotency key, so the processor answers the first charge instead of making a second.
     */
    async runRenewals(options: { batchSize?: number; maxBatches?: number; concurrency?: number } = {}) {
      const claimId = randomUUID();
      const counts = { renewed: 0, canceled: 0, past_due: 0, pending: 0, lost: 0, failed: 0 };
      for (let batch = 0; batch < (options.maxBatches ?? 100); batch += 1) {
        const now = clock.now();
        const claimed = await q.claimDue(now, new Date(now.getTime() + RENEWAL_LEASE_MS), claimId, options.batchSize ?? 50);
        if (claimed.length === 0) break;
        const queue = [...claimed];
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            try {
              counts[await renewOne(next, claimId)] += 1;
            } catch (error) {
              counts.failed += 1;
              log.error({ err: error, subscription: next.id }, 'renewal failed; the claim lapses and a later run tries again');
            }
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
      }
      return counts;
    },
  };
}
