import { randomUUID } from 'node:crypto';
import { cardBrandNames, findPlan, formatMinor, type BrandId, type CardBrand, type Order, type OrderTotals, type Plan } from '@portal/contracts';
import { AppError, fieldError } from '../../platform/errors';
import { postBillingEntry } from '../wallet';
import type { UserRow } from '../users';
import { orderDto } from './dto';
import { renderInvoice } from './invoice';
import type { BillingTx, OrderRow, PaymentMethodRow } from './queries';
import { createReceiptWorker, enqueueReceipt } from './receipts';
import { brandOfProduct, currencyOf, invoiceNumber, languageOf, type BillingContext } from './shared';

/**
 * Orders: paying one once per idempotency key, settling it with its ledger entry and receipt,
 * the receipt worker, and the person's orders and invoices.
 */
export function createOrders(ctx: BillingContext) {
  const { deps, db, clock, log, processor, q, users, compose, userOrThrow } = ctx;

  /** Renders and sends one paid order's receipt (the receipt worker's job); throws when SMTP did not take it. */
  async function deliverReceipt(orderId: string): Promise<void> {
    const order = await q.orderById(orderId);
    const user = order?.userId ? await users.findById(order.userId) : undefined;
    // An order or account deleted since: nobody to send it to.
    if (!order || !user) return;
    const brand = brandOfProduct(order.product);
    const lang = languageOf(user);
    const pdf = await renderInvoice(order, { name: user.fullName, email: user.email }, lang, brand);
    await deps.mailer.send(
      compose(
        user,
        brand,
        (copy) => copy.receipt({ plan: findPlan(order.plan)?.name ?? order.plan, total: formatMinor(order.total, currencyOf(order.currency), lang), number: order.number, card: order.paymentMethodLabel ?? '' }),
        [{ filename: `invoice-${order.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
      ),
    );
  }

  // One receipt (one invoice PDF) at a time per node: a burst of renewals must not fill the event loop with rendering.
  const receipts = createReceiptWorker({ db, clock, log, send: deliverReceipt });

  /**
   * Settles a pending order, and in the same transaction posts a paid order's charge on the
   * wallet's ledger (card → revenue, once per order) and queues its receipt; the receipt goes
   * out after the commit (here, or from the receipt job on any node if this one dies first).
   */
  async function settleOrder(id: string, changes: Partial<OrderRow>, outer?: BillingTx): Promise<OrderRow | undefined> {
    let queued = false;
    const settled = await q.settleOrder(id, changes, async (tx: BillingTx, row) => {
      if (row.status !== 'paid' && row.status !== 'completed') return;
      if (row.total > 0) await postBillingEntry(tx, { kind: 'charge', orderId: row.id, orderNumber: row.number, currency: currencyOf(row.currency), amount: row.total });
      if (deps.receipts !== false && row.userId) {
        await enqueueReceipt(tx, row.id, clock.now());
        queued = true;
      }
    }, outer);
    // Inside a caller's transaction the receipt is not committed yet: the caller kicks after its commit.
    if (queued && !outer && deps.sendReceiptsNow !== false) receipts.kick();
    return settled;
  }

  async function cardToCharge(userId: string, cardId: string | null | undefined): Promise<PaymentMethodRow | undefined> {
    if (cardId) {
      const card = await q.card(userId, cardId);
      if (card) return card;
    }
    return (await q.cards(userId)).find((card) => card.isDefault);
  }

  /**
   * Pays an order once per idempotency key: the order row is keyed by it (a retry finds the
   * first one) and the processor is asked with the same key (a retry after a crash gets the
   * first charge's answer). A promo redemption is counted before the charge and given back
   * when the charge fails. Answers the order as it stands.
   */
  async function payOrder(input: {
    user: UserRow;
    subscriptionId: string | null;
    plan: Plan;
    months: number;
    seats: number;
    totals: OrderTotals;
    kind: Order['kind'];
    promoCode: string | null;
    card: PaymentMethodRow;
    key: string;
    periodStart: Date;
    periodEnd: Date;
  }): Promise<OrderRow> {
    const now = clock.now();
    const id = randomUUID();
    const { totals, card, user } = input;
    const order = await q.orderForKey({
      id,
      number: invoiceNumber(now, id),
      userId: user.id,
      subscriptionId: input.subscriptionId,
      product: input.plan.product,
      plan: input.plan.id,
      months: input.months,
      seats: input.seats,
      currency: totals.currency,
      price: totals.price,
      discount: totals.discount,
      subtotal: totals.subtotal,
      credit: totals.credit,
      total: totals.total,
      status: 'pending',
      kind: input.kind,
      promoCode: input.promoCode,
      paymentMethodId: card.id,
      paymentMethodLabel: `${cardBrandNames[card.brand as CardBrand] ?? card.brand} •••• ${card.last4}`,
      billingAddress: { cardholder: card.cardholder, city: card.city, state: card.state, zip: card.zip, country: card.country },
      idempotencyKey: input.key,
      language: languageOf(user),
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      createdAt: now,
    });
    if (order.status !== 'pending') return order;
    const fresh = order.id === id;
    if (fresh && order.promoCode && !(await q.redeemPromo(order.promoCode, user.id, order.id))) {
      await q.updateOrder(order.id, { status: 'rejected', failureCode: 'promo_invalid' }, ['pending']);
      throw fieldError('promo_code', 'billing.promo_invalid');
    }
    const settle = async (changes: Partial<OrderRow>): Promise<OrderRow> => {
      const updated = await settleOrder(order.id, changes);
      if (!updated) return (await q.order(user.id, order.id)) ?? order;
      if (updated.status === 'failed' && updated.promoCode) await q.releasePromo(updated.promoCode, user.id);
      return updated;
    };
    if (order.total === 0) return settle({ status: 'completed', paidAt: now });
    const result = await processor.charge({
      customerRef: await q.customerRef(user.id, processor.kind),
      cardRef: card.processorRef,
      amount: order.total,
      currency: totals.currency,
      idempotencyKey: `order-${order.idempotencyKey}`,
      description: `${input.plan.name}, ${input.months} month(s), order ${order.number}`,
      metadata: { order_id: order.id, user_id: user.id },
    });
    if (result.status === 'succeeded') return settle({ status: 'paid', paidAt: clock.now(), processorRef: result.ref });
    if (result.status === 'pending') return (await q.updateOrder(order.id, { processorRef: result.ref }, ['pending'])) ?? order;
    return settle({ status: 'failed', failureCode: result.code, processorRef: result.ref });
  }

  return {
    receipts,
    settleOrder,
    payOrder,
    cardToCharge,

    listOrders: async (userId: string) => (await q.orders(userId)).map(orderDto),

    async invoice(userId: string, id: string, brand: BrandId): Promise<{ filename: string; pdf: Buffer }> {
      const order = await q.order(userId, id);
      if (!order || (order.status !== 'paid' && order.status !== 'completed')) throw new AppError('billing.order_not_found');
      const user = await userOrThrow(userId);
      return { filename: `invoice-${order.number}.pdf`, pdf: await renderInvoice(order, { name: user.fullName, email: user.email }, languageOf(user), brand) };
    },

    /** The receipt job: sends the receipts due now (safe on several nodes at once). */
    runReceipts: (options?: { batchSize?: number; maxBatches?: number }) => receipts.run(options),
    /** Waits for this node's receipt run in progress (after a paid order), if any. */
    receiptsIdle: () => receipts.idle(),
  };
}

export type Orders = ReturnType<typeof createOrders>;
