import { createCards } from './cards';
import { createLicenseRedemption } from './license-redemption';
import { createOrders } from './orders';
import { createProductPlans } from './product-plans';
import { createPromoCodes } from './promo-codes';
import { createRefunds } from './refunds';
import { createRenewals } from './renewals';
import { seedDemoPromoCodes } from './seed';
import { billingContext, type BillingDependencies } from './shared';
import { createStripeWebhooks } from './stripe-webhooks';
import { createSubscriptions } from './subscriptions';
import { createBusinessTrial } from './trial';

export { RENEWAL_LEASE_MS } from './renewals';
export { addMonths, type BillingDependencies, type BillingLogger } from './shared';

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Billing: cards (through the processor's tokens), subscriptions with trials, changes with
 * proration, cancellation and resumption, orders paid through idempotency keys, invoices,
 * promo codes, the business trial, AppSumo licenses and the renewal job. Each concern is its
 * own file made with the shared context; this composes them into the service the routes,
 * jobs and admin tools use (and nothing else of billing's insides is handed out).
 */
export function createBillingService(deps: BillingDependencies) {
  const ctx = billingContext(deps);
  const orders = createOrders(ctx);
  const refunds = createRefunds(ctx);
  const promos = createPromoCodes(ctx);
  const cards = createCards(ctx);
  const subscriptions = createSubscriptions(ctx, orders, promos);
  const renewals = createRenewals(ctx, orders);
  const trial = createBusinessTrial(ctx);
  const licenses = createLicenseRedemption(ctx);
  const products = createProductPlans(ctx);
  const webhooks = createStripeWebhooks(ctx, orders, refunds);

  return {
    processorKind: deps.processor.kind,
    publishableKey: deps.processor.publishableKey,

    listCards: cards.listCards,
    addCard: cards.addCard,
    cardSetup: cards.cardSetup,
    setDefaultCard: cards.setDefaultCard,
    removeCard: cards.removeCard,

    listSubscriptions: subscriptions.listSubscriptions,
    quote: subscriptions.quote,
    subscribe: subscriptions.subscribe,
    change: subscriptions.change,
    cancel: subscriptions.cancel,
    resume: subscriptions.resume,

    listOrders: orders.listOrders,
    invoice: orders.invoice,
    runReceipts: orders.runReceipts,
    receiptsIdle: orders.receiptsIdle,

    runRenewals: renewals.runRenewals,

    refundOrder: refunds.refundOrder,
    refundOrderOnce: refunds.refundOrderOnce,

    businessTrial: trial.businessTrial,
    issueLicense: licenses.issueLicense,
    redeemLicense: licenses.redeemLicense,

    createPromoCode: promos.createPromoCode,
    seedDemoPromoCodes: () => seedDemoPromoCodes(promos),

    productPlan: products.productPlan,
    handleStripeEvent: webhooks.handleStripeEvent,
  };
}
