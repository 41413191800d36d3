import type { StripeEvent } from '../../platform/payments';
import type { Orders } from './orders';
import type { Refunds } from './refunds';
import type { BillingContext } from './shared';

/** Stripe's events (verified by the route): each applied once, in the same transaction as its record. */
export function createStripeWebhooks(ctx: BillingContext, orders: Orders, refunds: Refunds) {
  const { deps, clock, q, users, mailCanceled } = ctx;
  const { settleOrder, receipts } = orders;
  const { recordRefund } = refunds;

  return {
    /**
     * Applies a verified Stripe event once, recorded in the same transaction as its effect: a
     * settled payment intent settles its order; a refund made at Stripe is recorded; a detached
     * card is removed. Mails and receipts go after the commit.
     */
    async handleStripeEvent(event: StripeEvent): Promise<boolean> {
      const afterCommit: (() => void)[] = [];
      const applied = await q.applyEventOnce(event.id, event.type, async (tx) => {
        const object = event.data.object as { id?: string };
        if (!object.id) return;
        if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
          const order = await q.orderByProcessorRef(object.id, tx);
          if (!order || order.status !== 'pending') return;
          const succeeded = event.type === 'payment_intent.succeeded';
          await settleOrder(order.id, succeeded ? { status: 'paid', paidAt: clock.now() } : { status: 'failed', failureCode: 'card_declined' }, tx);
          if (succeeded && deps.sendReceiptsNow !== false) afterCommit.push(() => receipts.kick());
          return;
        }
        if (event.type === 'charge.refunded') {
          // A refund made at Stripe (its dashboard, or refundOrder): recorded once, in full refunds only.
          const charge = event.data.object as { id: string; payment_intent?: string | null; refunded?: boolean; refunds?: { data?: { id: string }[] } };
          const order = charge.payment_intent ? await q.orderByProcessorRef(charge.payment_intent, tx) : undefined;
          if (order && charge.refunded) await recordRefund(order.id, charge.refunds?.data?.[0]?.id ?? null, tx);
          return;
        }
        if (event.type === 'payment_method.detached') {
          // Stripe already detached it: the card ends here as a removal from the page does (the person's subscriptions with it), without asking Stripe again.
          const card = await q.cardByProcessorRef(object.id, tx);
          const removed = card ? await q.removeCard(card.userId, card.id, clock.now(), tx) : null;
          if (card && removed?.canceled.length) {
            afterCommit.push(() => {
              void users.findById(card.userId).then((user) => {
                for (const subscription of removed.canceled) mailCanceled(subscription, user);
              });
            });
          }
        }
      });
      for (const run of afterCommit) run();
      return applied;
    },
  };
}
