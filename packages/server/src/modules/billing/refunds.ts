import type { Order } from '@portal/contracts';
import { AppError } from '../../platform/errors';
import { postBillingEntry } from '../wallet';
import { orderDto } from './dto';
import type { BillingTx, OrderRow } from './queries';
import { currencyOf, type BillingContext } from './shared';

/** Refunds: at the processor once (its idempotency key is the order's), recorded once with the ledger's reverse entry. */
export function createRefunds(ctx: BillingContext) {
  const { clock, processor, q } = ctx;

  /** Refunds a paid order at the processor (its idempotency key is the order's) and records it once; whether this call recorded it. */
  async function refundOnce(orderId: string): Promise<{ order: Order; refundedNow: boolean }> {
    const order = await q.orderById(orderId);
    if (!order || order.status !== 'paid' || !order.processorRef) throw new AppError('billing.order_not_found');
    if (order.refundedAt) return { order: orderDto(order), refundedNow: false };
    const refund = await processor.refund({ chargeRef: order.processorRef, idempotencyKey: `refund-${order.idempotencyKey}` });
    const recorded = await recordRefund(order.id, refund.ref);
    return { order: orderDto(recorded ?? (await q.orderById(order.id)) ?? order), refundedNow: recorded !== undefined };
  }

  /** Records a paid order as refunded once, with the ledger's reverse entry (revenue → card) in the same transaction. */
  async function recordRefund(orderId: string, refundRef: string | null, outer?: BillingTx): Promise<OrderRow | undefined> {
    return q.markRefunded(
      orderId,
      refundRef,
      clock.now(),
      async (tx, row) => {
        await postBillingEntry(tx, { kind: 'refund', orderId: row.id, orderNumber: row.number, currency: currencyOf(row.currency), amount: row.total });
      },
      outer,
    );
  }


  return {
    recordRefund,
    /**
     * Refunds a paid order in full at the processor (once: the processor's idempotency key is
     * the order's) and records it with its reverse ledger entry. Answers the order as it stands.
     */
    async refundOrder(orderId: string): Promise<Order> {
      return (await refundOnce(orderId)).order;
    },

    /** As refundOrder, saying whether this call recorded the refund (false: another call had, perhaps at the same moment). */
    refundOrderOnce: refundOnce,
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
