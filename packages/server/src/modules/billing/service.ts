import { randomUUID } from 'node:crypto';
import {
  cardBrandNames,
  findPlan,
  formatDate,
  formatMinor,
  isBillingCurrency,
  isLanguage,
  orderTotals,
  paths,
  planPrice,
  prorationCredit,
  type BillingCurrency,
  type BrandId,
  type Card,
  type CardBrand,
  type Discount,
  type Language,
  type Order,
  type OrderStatus,
  type OrderTotals,
  type Plan,
  type Quote,
  type Subscription,
  type SubscriptionStatus,
} from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { requireCaptcha, type CaptchaVerifier } from '../../platform/captcha';
import { AppError, fieldError } from '../../platform/errors';
import { createIdempotency } from '../../platform/idempotency';
import { sendInBackground, type MailAttachment, type Mailer } from '../../platform/mail';
import type { PaymentProcessor, StripeEvent } from '../../platform/payments';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import type { OrganizationService } from '../organizations';
import { createUserService, type UserRow } from '../users';
import { postBillingEntry } from '../wallet';
import { renderInvoice } from './invoice';
import { issueLicense, verifyLicense } from './licenses';
import { billingCopy, billingMail } from './mail';
import { billingQueries, type BillingTx, type OrderRow, type PaymentMethodRow, type SubscriptionRow } from './queries';
import { createReceiptWorker, enqueueReceipt } from './receipts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a renewal run holds a claimed subscription before another run may take it over. */
export const RENEWAL_LEASE_MS = 5 * 60 * 1000;
/** How long a subscription start holds the person's claim on the product before another may take it over (its node died). */
const START_LEASE_MS = 60 * 1000;
/** A charge the processor still works on is looked at again after this long. */
const PENDING_RECHECK_MS = 60 * 60 * 1000;
/** The business plan's trial is its own product for "once per person and product". */
const BUSINESS_TRIAL_PRODUCT = 'pwdmanager_business';

export interface BillingLogger {
  info(object: object, message: string): void;
  error(object: unknown, message: string): void;
}

export interface BillingDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: BillingLogger;
  processor: PaymentProcessor;
  organizations: OrganizationService;
  /** The business trial's limits and captcha (a node without them, as the tests' job nodes, serves no business trial). */
  limiter?: RateLimiter;
  captcha?: CaptchaVerifier;
  /** Key of AppSumo license codes. */
  licenseSecret: string;
  /** false: no receipt mails (the renewal benchmark measures the job alone; a receipt's PDF costs ~0.35 s of CPU here). */
  receipts?: boolean;
  /** false: a paid order's receipt waits for the receipt job instead of this node sending it right away (tests of the queue). */
  sendReceiptsNow?: boolean;
  /** Test hook: runs after a renewal's charge, before the subscription moves on (where a crash hurts most). */
  afterRenewalCharge?: (subscriptionId: string) => Promise<void> | void;
}

/** `{product}_platform` names as products call them, to billing's products. */
const productAliases: Record<string, string> = {
  locker: 'pwdmanager',
  pwdmanager: 'pwdmanager',
  secret: 'secret',
  secrets: 'secret',
  bugbounty: 'bugbounty',
  whitehub: 'bugbounty',
  vulnscan: 'vulnscan',
  endpoint: 'endpoint',
  safechain: 'safechain',
};

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const last = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, last));
  return result;
}

const brandOfProduct = (product: string): BrandId => (product === 'pwdmanager' || product === 'secret' ? 'locker' : 'platform');
const languageOf = (user: Pick<UserRow, 'language'>): Language => (isLanguage(user.language) ? user.language : 'en');
const currencyOf = (value: string): BillingCurrency => (isBillingCurrency(value) ? value : 'USD');
const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

export function cardDto(row: PaymentMethodRow, subscriptions = 0): Card {
  return {
    id: row.id,
    brand: row.brand as CardBrand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    cardholder: row.cardholder,
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    subscriptions,
  };
}

export function subscriptionDto(row: SubscriptionRow): Subscription {
  const ends = row.status === 'canceled' || row.cancelAtPeriodEnd || row.lifetime;
  return {
    id: row.id,
    product: row.product as Subscription['product'],
    plan: row.plan,
    plan_name: findPlan(row.plan)?.name ?? row.plan,
    months: row.months,
    seats: row.seats,
    currency: currencyOf(row.currency),
    price: row.price,
    status: row.status as SubscriptionStatus,
    trial_ends_at: iso(row.trialEndsAt),
    current_period_start: row.currentPeriodStart.toISOString(),
    current_period_end: iso(row.currentPeriodEnd),
    next_charge_at: ends ? null : iso(row.nextAttemptAt),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    canceled_at: iso(row.canceledAt),
    card_id: row.paymentMethodId,
    organization_id: row.organizationId,
    lifetime: row.lifetime,
  };
}

export function orderDto(row: OrderRow): Order {
  return {
    id: row.id,
    number: row.number,
    created_at: row.createdAt.toISOString(),
    plan: row.plan,
    plan_name: findPlan(row.plan)?.name ?? row.plan,
    months: row.months,
    price: row.price,
    discount: row.discount,
    subtotal: row.subtotal,
    credit: row.credit,
    total: row.total,
    currency: currencyOf(row.currency),
    status: row.status as OrderStatus,
    kind: row.kind as Order['kind'],
    promo_code: row.promoCode,
    payment_method: row.paymentMethodLabel,
    billing_address: row.billingAddress ?? null,
    has_invoice: row.status === 'paid' || row.status === 'completed',
  };
}

const invoiceNumber = (now: Date, id: string) => `INV-${now.toISOString().slice(0, 7).replace('-', '')}-${id.slice(0, 8).toUpperCase()}`;

function declineError(code: string | null): AppError {
  return new AppError(code === 'insufficient_funds' ? 'billing.insufficient_funds' : 'billing.card_declined');
}

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Billing: cards (through the processor's tokens), subscriptions with trials, changes with
 * proration, cancellation and resumption, orders paid through idempotency keys, invoices,
 * promo codes, the business trial, AppSumo licenses and the renewal job.
 */
export function createBillingService(deps: BillingDependencies) {
  const { db, clock, processor, config, log } = deps;
  const q = billingQueries(db);
  const users = createUserService(db);
  const idempotency = createIdempotency(db, clock);

  function compose(user: Pick<UserRow, 'email' | 'fullName' | 'language'>, brand: BrandId, build: (copy: ReturnType<typeof billingCopy>, lang: Language) => { title: string; lines: string[] }, attachments?: MailAttachment[]) {
    const lang = languageOf(user);
    const notice = build(billingCopy(lang), lang);
    const rendered = billingMail({ ...notice, link: { label: lang === 'vi' ? 'Xem thanh toán' : 'View billing', url: `${originFor(config, brand)}${paths.billing}` }, lang, brand, name: user.fullName });
    return { to: user.email, ...rendered, ...(attachments ? { attachments } : {}) };
  }

  function mail(...args: Parameters<typeof compose>) {
    sendInBackground(deps.mailer, log, compose(...args));
  }

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

  function mailCanceled(subscription: SubscriptionRow, user: UserRow | undefined) {
    if (!user) return;
    mail(user, brandOfProduct(subscription.product), (copy) => copy.canceled({ plan: findPlan(subscription.plan)?.name ?? subscription.plan }));
  }

  function planAndPrice(planId: string, months: number, currency: BillingCurrency, seats = 1): { plan: Plan; price: number } {
    const plan = findPlan(planId);
    const price = plan && !plan.free && !plan.lifetime ? planPrice(plan, months, currency, seats) : null;
    if (!plan || price === null) throw fieldError('plan', 'billing.plan_unavailable');
    return { plan, price };
  }

  /** The promo code's discount for this plan and person, or 'Promo code not valid'. */
  async function discountFor(code: string | undefined, planId: string, currency: BillingCurrency, userId: string): Promise<{ code: string; discount: Discount } | null> {
    if (!code) return null;
    const promo = await q.promo(code);
    const now = clock.now();
    const valid =
      promo &&
      (!promo.expiresAt || promo.expiresAt > now) &&
      (promo.maxRedemptions === null || promo.redemptions < promo.maxRedemptions) &&
      (promo.plans.length === 0 || promo.plans.includes(planId)) &&
      (promo.kind === 'percent' ? promo.basisPoints !== null : promo.amount !== null && promo.currency === currency) &&
      !(await q.promoRedeemedBy(promo.code, userId));
    if (!valid) throw fieldError('promo_code', 'billing.promo_invalid');
    return {
      code: promo.code,
      discount: promo.kind === 'percent' ? { kind: 'percent', basisPoints: promo.basisPoints! } : { kind: 'fixed', amount: { minor: promo.amount!, currency } },
    };
  }

  /** The unused value of what was paid for the current period (0 in a trial or when nothing was paid). */
  async function creditFor(subscription: SubscriptionRow): Promise<number> {
    if (subscription.status !== 'active' || !subscription.currentPeriodEnd) return 0;
    const paid = await q.paidForPeriod(subscription.id, subscription.currentPeriodStart);
    if (!paid || paid.currency !== subscription.currency) return 0;
    return prorationCredit(paid.subtotal, subscription.currentPeriodStart.getTime(), subscription.currentPeriodEnd.getTime(), clock.now().getTime());
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

  /**
   * Runs a subscription start (or change) while holding the person's claim on the product (one
   * statement decides; another at the same time is refused), so two requests with different
   * idempotency keys cannot both find no subscription (or the old plan) and both charge.
   */
  async function oneStartAtATime<T>(userId: string, product: string, start: (generation: number) => Promise<T>): Promise<T> {
    const now = clock.now();
    const generation = await q.claimStart(userId, product, now, new Date(now.getTime() + START_LEASE_MS));
    if (generation === null) throw new AppError('billing.idempotency_conflict');
    let finished = false;
    try {
      const result = await start(generation);
      finished = true;
      return result;
    } catch (error) {
      // A refusal or decline is an answer; anything else leaves the charge's fate unknown.
      finished = error instanceof AppError;
      throw error;
    } finally {
      await q.releaseStart(userId, product, generation, finished);
    }
  }

  async function userOrThrow(userId: string): Promise<UserRow> {
    const user = await users.findById(userId);
    if (!user) throw new AppError('unauthorized');
    return user;
  }

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
    processorKind: processor.kind,
    publishableKey: processor.publishableKey,

    // Cards ---------------------------------------------------------------------------------
    async listCards(userId: string): Promise<Card[]> {
      const [cards, counts] = await Promise.all([q.cards(userId), q.liveSubscriptionCounts(userId)]);
      // Subscriptions without a card of their own are paid by the default card.
      return cards.map((card) => cardDto(card, (counts.get(card.id) ?? 0) + (card.isDefault ? (counts.get(null) ?? 0) : 0)));
    },

    async addCard(userId: string, input: { token: string; cardholder: string; city: string; state: string; zip: string; country?: string; make_default?: boolean }): Promise<Card> {
      const user = await userOrThrow(userId);
      const customerRef = await q.customerRef(user.id, processor.kind);
      const saved = await processor.saveCard({ userId: user.id, email: user.email, token: input.token, customerRef });
      if (!saved.ok) {
        if (saved.code === 'token_invalid') throw fieldError('token', 'billing.card_token_invalid');
        throw declineError(saved.code);
      }
      if (saved.customerRef && !customerRef) await q.saveCustomerRef(user.id, processor.kind, saved.customerRef);
      const row = await q.addCard(
        {
          id: randomUUID(),
          userId: user.id,
          processor: processor.kind,
          processorRef: saved.ref,
          brand: saved.card.brand,
          last4: saved.card.last4,
          expMonth: saved.card.expMonth,
          expYear: saved.card.expYear,
          cardholder: input.cardholder,
          city: input.city,
          state: input.state,
          zip: input.zip,
          country: input.country ?? null,
          createdAt: clock.now(),
        },
        input.make_default ?? false,
      );
      return cardDto(row);
    },

    /** With Stripe: a SetupIntent's client secret for the page's Payment Element (the customer made once); not_found with the sandbox. */
    async cardSetup(userId: string): Promise<{ client_secret: string }> {
      if (!processor.setupCard) throw new AppError('not_found');
      const user = await userOrThrow(userId);
      const customerRef = await q.customerRef(user.id, processor.kind);
      const setup = await processor.setupCard({ userId: user.id, email: user.email, customerRef });
      if (!customerRef) await q.saveCustomerRef(user.id, processor.kind, setup.customerRef);
      return { client_secret: setup.clientSecret };
    },

    async setDefaultCard(userId: string, id: string): Promise<Card[]> {
      if (!(await q.setDefault(userId, id))) throw new AppError('billing.card_not_found');
      return this.listCards(userId);
    },

    /** Removes a card: the subscriptions it pays are cancelled (and mailed); the most recent card becomes the default. */
    async removeCard(userId: string, id: string): Promise<{ canceled_subscriptions: string[]; default_card_id: string | null }> {
      const removed = await q.removeCard(userId, id, clock.now());
      if (!removed) throw new AppError('billing.card_not_found');
      await processor.removeCard(removed.removed.processorRef).catch((error: unknown) => log.error({ err: error }, 'card not removed at the processor'));
      const user = await users.findById(userId);
      for (const subscription of removed.canceled) mailCanceled(subscription, user);
      return { canceled_subscriptions: removed.canceled.map((row) => row.id), default_card_id: removed.newDefault };
    },

    // Subscriptions -------------------------------------------------------------------------
    listSubscriptions: async (userId: string) => (await q.subscriptions(userId)).map(subscriptionDto),

    async quote(userId: string, input: { plan: string; months: number; currency: BillingCurrency; seats?: number; promo_code?: string; subscription_id?: string }): Promise<Quote> {
      let currency = input.currency;
      let seats = input.seats ?? 1;
      let credit = 0;
      let trialDays = 0;
      if (input.subscription_id) {
        const subscription = await q.subscription(userId, input.subscription_id);
        if (!subscription || subscription.status === 'canceled') throw new AppError('billing.subscription_not_found');
        currency = currencyOf(subscription.currency);
        seats = subscription.seats;
        credit = await creditFor(subscription);
      }
      const { plan, price } = planAndPrice(input.plan, input.months, currency, seats);
      if (!input.subscription_id && plan.trialDays > 0 && !(await q.hadTrial(userId, plan.product))) trialDays = plan.trialDays;
      const promo = await discountFor(input.promo_code, plan.id, currency, userId);
      const totals = orderTotals({ price: { minor: price, currency }, discount: trialDays ? null : promo?.discount, creditMinor: credit });
      return { plan: plan.id, months: input.months, ...totals, due_now: trialDays ? 0 : totals.total, trial_days: trialDays, promo_code: promo?.code ?? null };
    },

    /** Starts a subscription: a trial where the plan has one and the person never had one for the product, else the first charge. */
    async subscribe(userId: string, input: { plan: string; months: number; currency: BillingCurrency; seats?: number; promo_code?: string; card_id?: string; idempotency_key: string }) {
      const product = findPlan(input.plan)?.product;
      if (!product) throw fieldError('plan', 'billing.plan_unavailable');
      // Claimed before the key is used: a start refused because another runs is not its key's answer.
      return oneStartAtATime(userId, product, (generation) => idempotency.run(`subscribe:${userId}`, input.idempotency_key, input, async () => {
        const user = await userOrThrow(userId);
        const seats = input.seats ?? 1;
        const { plan, price } = planAndPrice(input.plan, input.months, input.currency, seats);
        if (await q.liveSubscription(user.id, plan.product)) throw new AppError('billing.already_subscribed');
        const card = input.card_id ? await q.card(user.id, input.card_id) : await cardToCharge(user.id, null);
        if (!card) throw input.card_id ? new AppError('billing.card_not_found') : new AppError('billing.no_card');
        const now = clock.now();
        const base = { id: randomUUID(), userId: user.id, product: plan.product, plan: plan.id, months: input.months, seats, currency: input.currency, price, paymentMethodId: card.id, createdAt: now, updatedAt: now };
        if (plan.trialDays > 0 && (await q.useTrial(user.id, plan.product))) {
          const trialEnd = new Date(now.getTime() + plan.trialDays * DAY_MS);
          const subscription = await q.insertSubscription({ ...base, status: 'trialing', trialEndsAt: trialEnd, currentPeriodStart: now, currentPeriodEnd: trialEnd, nextAttemptAt: trialEnd });
          if (!subscription) throw new AppError('billing.already_subscribed');
          return { subscription: subscriptionDto(subscription), order: null };
        }
        const promo = await discountFor(input.promo_code, plan.id, input.currency, user.id);
        const periodEnd = addMonths(now, input.months);
        const order = await payOrder({
          user,
          subscriptionId: null,
          plan,
          months: input.months,
          seats,
          totals: orderTotals({ price: { minor: price, currency: input.currency }, discount: promo?.discount }),
          kind: 'new',
          promoCode: promo?.code ?? null,
          card,
          // The start's charge, whatever the request's key: a start taken over after a crash charges under the same key.
          key: `subscribe:${user.id}:${plan.product}:${generation}`,
          periodStart: now,
          periodEnd,
        });
        if (order.status === 'failed') throw declineError(order.failureCode);
        // What the order paid for: the same as asked, except after a start taken over from a node that died (its order stands).
        const paidFor = { plan: order.plan, months: order.months, seats: order.seats, currency: order.currency, price: order.price, paymentMethodId: order.paymentMethodId ?? card.id };
        const start = order.periodStart ?? now;
        const end = order.periodEnd ?? periodEnd;
        const subscription = await q.insertSubscription({ ...base, ...paidFor, status: order.status === 'pending' ? 'past_due' : 'active', currentPeriodStart: start, currentPeriodEnd: end, nextAttemptAt: end });
        if (!subscription) throw new AppError('billing.already_subscribed');
        const linked = (await q.updateOrder(order.id, { subscriptionId: subscription.id })) ?? order;
        return { subscription: subscriptionDto(subscription), order: orderDto(linked) };
      }));
    },

    /** Changes plan or period: the unused part of the period is credited, the new period starts now (a trial ends with it). */
    async change(userId: string, id: string, input: { plan: string; months: number; promo_code?: string; idempotency_key: string }) {
      const current = await q.subscription(userId, id);
      if (!current) throw new AppError('billing.subscription_not_found');
      // One purchase of the product at a time: two changes at once with different keys do not both charge.
      return oneStartAtATime(userId, current.product, () => idempotency.run(`change:${userId}`, input.idempotency_key, { id, ...input }, async () => {
        const user = await userOrThrow(userId);
        const subscription = await q.subscription(user.id, id);
        if (!subscription) throw new AppError('billing.subscription_not_found');
        if (!['active', 'trialing'].includes(subscription.status) || subscription.lifetime || subscription.organizationId) throw new AppError('billing.subscription_not_changeable');
        const currency = currencyOf(subscription.currency);
        const { plan, price } = planAndPrice(input.plan, input.months, currency, subscription.seats);
        if (plan.product !== subscription.product) throw fieldError('plan', 'billing.plan_unavailable');
        if (plan.id === subscription.plan && input.months === subscription.months) throw new AppError('billing.subscription_not_changeable');
        const card = await cardToCharge(user.id, subscription.paymentMethodId);
        if (!card) throw new AppError('billing.no_card');
        const promo = await discountFor(input.promo_code, plan.id, currency, user.id);
        const now = clock.now();
        const periodEnd = addMonths(now, input.months);
        const order = await payOrder({
          user,
          subscriptionId: subscription.id,
          plan,
          months: input.months,
          seats: subscription.seats,
          totals: orderTotals({ price: { minor: price, currency }, discount: promo?.discount, creditMinor: await creditFor(subscription) }),
          kind: 'change',
          promoCode: promo?.code ?? null,
          card,
          key: `change:${user.id}:${input.idempotency_key}`,
          periodStart: now,
          periodEnd,
        });
        if (order.status === 'failed') throw declineError(order.failureCode);
        const changed = await q.updateSubscription(
          subscription.id,
          { plan: plan.id, months: input.months, price, status: 'active', currentPeriodStart: now, currentPeriodEnd: periodEnd, nextAttemptAt: periodEnd, cancelAtPeriodEnd: false, retryCount: 0, paymentMethodId: card.id, updatedAt: now },
          { states: ['active', 'trialing'] },
        );
        if (!changed) throw new AppError('billing.subscription_not_changeable');
        return { subscription: subscriptionDto(changed), order: orderDto(order) };
      }));
    },

    /** Cancels at the end of the period (a trial ends without a charge); a past-due subscription ends now. */
    async cancel(userId: string, id: string): Promise<Subscription> {
      const subscription = await q.subscription(userId, id);
      if (!subscription) throw new AppError('billing.subscription_not_found');
      if (subscription.status === 'canceled' || subscription.lifetime) throw new AppError('billing.subscription_not_changeable');
      const now = clock.now();
      const changed =
        subscription.status === 'past_due'
          ? await q.updateSubscription(id, { status: 'canceled', canceledAt: now, nextAttemptAt: null, updatedAt: now }, { states: ['past_due'] })
          : await q.updateSubscription(id, { cancelAtPeriodEnd: true, updatedAt: now }, { states: ['active', 'trialing'] });
      if (!changed) throw new AppError('billing.subscription_not_changeable');
      return subscriptionDto(changed);
    },

    async resume(userId: string, id: string): Promise<Subscription> {
      const subscription = await q.subscription(userId, id);
      if (!subscription) throw new AppError('billing.subscription_not_found');
      if (!subscription.cancelAtPeriodEnd || subscription.status === 'canceled') throw new AppError('billing.subscription_not_changeable');
      const changed = await q.updateSubscription(id, { cancelAtPeriodEnd: false, updatedAt: clock.now() }, { states: ['active', 'trialing'] });
      if (!changed) throw new AppError('billing.subscription_not_changeable');
      return subscriptionDto(changed);
    },

    // Orders and invoices -------------------------------------------------------------------
    listOrders: async (userId: string) => (await q.orders(userId)).map(orderDto),

    async invoice(userId: string, id: string, brand: BrandId): Promise<{ filename: string; pdf: Buffer }> {
      const order = await q.order(userId, id);
      if (!order || (order.status !== 'paid' && order.status !== 'completed')) throw new AppError('billing.order_not_found');
      const user = await userOrThrow(userId);
      return { filename: `invoice-${order.number}.pdf`, pdf: await renderInvoice(order, { name: user.fullName, email: user.email }, languageOf(user), brand) };
    },

    // The renewal job -----------------------------------------------------------------------
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

    // Receipts and refunds ------------------------------------------------------------------
    /** The receipt job: sends the receipts due now (safe on several nodes at once). */
    runReceipts: (options?: { batchSize?: number; maxBatches?: number }) => receipts.run(options),
    /** Waits for this node's receipt run in progress (after a paid order), if any. */
    receiptsIdle: () => receipts.idle(),

    /**
     * Refunds a paid order in full at the processor (once: the processor's idempotency key is
     * the order's) and records it with its reverse ledger entry. Answers the order as it stands.
     */
    async refundOrder(orderId: string): Promise<Order> {
      return (await refundOnce(orderId)).order;
    },

    /** As refundOrder, saying whether this call recorded the refund (false: another call had, perhaps at the same moment). */
    refundOrderOnce: refundOnce,

    // Business trial and licenses -----------------------------------------------------------
    /**
     * Starts the signed-in person's company trial: only for their own activated account (the
     * email asked for must be theirs), counted per account and address, behind the captcha. The
     * person becomes the organization's owner and the trial's subscription is theirs.
     */
    async businessTrial(
      userId: string,
      input: { company: string; full_name: string; email: string; phone?: string; members?: number; language?: Language; captcha?: string },
      origin: RequestOrigin,
    ) {
      if (!deps.limiter || !deps.captcha) throw new AppError('not_found');
      const { businessTrialsPerAccount: perAccount, businessTrialsPerIp: perIp } = limits;
      rateLimited(await deps.limiter.consume(rateKey(perIp, origin.limitAddress), perIp));
      rateLimited(await deps.limiter.consume(rateKey(perAccount, userId), perAccount));
      await requireCaptcha(deps.captcha, input.captcha, origin.ip);
      const user = await userOrThrow(userId);
      if (!user.activatedAt) throw new AppError('auth.not_activated');
      if (input.email.trim().toLowerCase() !== user.email.toLowerCase()) throw new AppError('billing.trial_email_mismatch');
      const email = user.email;
      // The same trial asked again says so (7013) before the enterprise it made (7015).
      if ((await q.hadTrial(`email:${email}`, BUSINESS_TRIAL_PRODUCT)) || (await q.hadTrial(user.id, BUSINESS_TRIAL_PRODUCT))) throw new AppError('7013', { email }, { email });
      if (await deps.organizations.membershipOf(email)) throw new AppError('7015', { email }, { email });
      if (await q.liveSubscription(user.id, 'pwdmanager')) throw new AppError('7014', { email }, { email });
      // The trial is claimed in one statement: two requests at once start one.
      if (!(await q.useTrial(user.id, BUSINESS_TRIAL_PRODUCT))) throw new AppError('7013', { email }, { email });
      await q.useTrial(`email:${email}`, BUSINESS_TRIAL_PRODUCT);
      const organization = await deps.organizations.create({ name: input.company, adminEmail: email, adminUserId: user.id });
      if (!organization) throw new AppError('7015', { email }, { email });
      const lang = input.language ?? origin.lang;
      const currency: BillingCurrency = lang === 'vi' ? 'VND' : 'USD';
      const seats = input.members ?? 1;
      const { plan, price } = planAndPrice('pwdmanager.business', 1, currency, seats);
      const now = clock.now();
      const trialEnd = new Date(now.getTime() + plan.trialDays * DAY_MS);
      await q.insertSubscription({
        id: randomUUID(),
        userId: user.id,
        organizationId: organization.id,
        product: plan.product,
        plan: plan.id,
        months: 1,
        seats,
        currency,
        price,
        status: 'trialing',
        trialEndsAt: trialEnd,
        currentPeriodStart: now,
        currentPeriodEnd: trialEnd,
        nextAttemptAt: trialEnd,
        createdAt: now,
        updatedAt: now,
      });
      mail(user, 'locker', (copy) => copy.businessTrial({ company: input.company, email, date: formatDate(trialEnd, lang, { timeZone: 'UTC' }) }));
      return { email, organization_id: organization.id, trial_ends_at: trialEnd.toISOString() };
    },

    issueLicense: (plan: string, expiresAt: Date) => issueLicense({ plan, expiresAt: Math.floor(expiresAt.getTime() / 1000) }, deps.licenseSecret),

    /** Redeems an AppSumo code: its lifetime plan, once; it replaces a live subscription of the product. */
    async redeemLicense(userId: string, token: string) {
      const user = await userOrThrow(userId);
      const license = verifyLicense(token, deps.licenseSecret, clock.now());
      const plan = license ? findPlan(license.plan) : undefined;
      if (!plan || !plan.lifetime) throw new AppError('billing.license_invalid');
      const codeHash = sha256(`appsumo:${token.trim().toLowerCase()}`);
      if (!(await q.claimLicense(codeHash, plan.id, user.id))) throw new AppError('billing.license_invalid');
      const now = clock.now();
      const live = await q.liveSubscription(user.id, plan.product);
      if (live?.lifetime) {
        await q.setLicenseSubscription(codeHash, live.id);
        return { plan: plan.id, plan_name: plan.name, subscription: subscriptionDto(live) };
      }
      if (live) await q.updateSubscription(live.id, { status: 'canceled', canceledAt: now, nextAttemptAt: null, updatedAt: now });
      const subscription = await q.insertSubscription({
        id: randomUUID(),
        userId: user.id,
        product: plan.product,
        plan: plan.id,
        months: 0,
        seats: 1,
        currency: 'USD',
        price: 0,
        status: 'active',
        lifetime: true,
        currentPeriodStart: now,
        createdAt: now,
        updatedAt: now,
      });
      if (!subscription) throw new AppError('billing.license_invalid');
      await q.setLicenseSubscription(codeHash, subscription.id);
      return { plan: plan.id, plan_name: plan.name, subscription: subscriptionDto(subscription) };
    },

    // Promo codes ---------------------------------------------------------------------------
    async createPromoCode(input: { code: string; percent?: number; amount?: { minor: number; currency: BillingCurrency }; plans?: string[]; expiresAt?: Date; maxRedemptions?: number }) {
      await q.upsertPromo({
        code: input.code.toUpperCase(),
        kind: input.amount ? 'fixed' : 'percent',
        basisPoints: input.amount ? null : Math.round((input.percent ?? 0) * 100),
        amount: input.amount?.minor ?? null,
        currency: input.amount?.currency ?? null,
        plans: input.plans ?? [],
        expiresAt: input.expiresAt ?? null,
        maxRedemptions: input.maxRedemptions ?? null,
      });
    },

    // Products and the processor's events ---------------------------------------------------
    /** The person's plan of a product as products read it (`GET /{product}_platform/pm/users/me`). */
    async productPlan(userId: string, productName: string) {
      const product = productAliases[productName];
      if (!product) return undefined;
      const live = await q.liveSubscription(userId, product);
      if (!live) {
        const free = findPlan(`${product}.free`);
        return free ? { plan: free.id, tier: free.tier, status: null, period_end: null, trial_ends_at: null } : undefined;
      }
      return { plan: live.plan, tier: findPlan(live.plan)?.tier ?? live.plan, status: live.status as SubscriptionStatus, period_end: iso(live.currentPeriodEnd), trial_ends_at: iso(live.trialEndsAt) };
    },

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
          // Stripe already detached it: the card and what it pays end here, without asking Stripe again.
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

    /** Demo promo codes for development (SEED_DEMO). */
    async seedDemoPromoCodes() {
      await this.createPromoCode({ code: 'WELCOME10', percent: 10 });
      await this.createPromoCode({ code: 'LOCKER5', amount: { minor: 500, currency: 'USD' }, plans: ['pwdmanager.premium', 'pwdmanager.family'] });
    },
  };
}
