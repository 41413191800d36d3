import { randomUUID } from 'node:crypto';
import { findPlan, orderTotals, prorationCredit, type BillingCurrency, type Quote, type Subscription } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { paymentMethods, subscriptions } from './tables';
import { AppError, fieldError } from '../../platform/errors';
import { orderDto, subscriptionDto } from './dto';
import type { Orders } from './orders';
import type { PromoCodes } from './promo-codes';
import type { SubscriptionRow } from './queries';
import { addMonths, currencyOf, DAY_MS, declineError, planAndPrice, type BillingContext } from './shared';

/** How long a subscription start holds the person's claim on the product before another may take it over (its node died). */
const START_LEASE_MS = 60 * 1000;

/** Subscriptions: quotes, starts (with a trial where the plan has one), changes with proration, cancellation and resumption. */
export function createSubscriptions(ctx: BillingContext, orders: Orders, promos: PromoCodes) {
  const { clock, db, q, idempotency, userOrThrow } = ctx;
  const { payOrder, cardToCharge } = orders;
  const { discountFor } = promos;

  /**
   * Inserts a started subscription under the lock of the card that pays it. A removal of that
   * card (another tab) holds the same lock while it cancels all of the person's subscriptions:
   * when it came first, the new subscription is cancelled as it would have been a moment later,
   * so no live plan is left on a removed card for a renewal to bill whichever card comes next.
   */
  async function insertStarted(row: typeof subscriptions.$inferInsert): Promise<SubscriptionRow | null> {
    return db.transaction(async (tx) => {
      const [card] = row.paymentMethodId
        ? await tx.select({ removedAt: paymentMethods.removedAt }).from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)).for('update')
        : [];
      const removedAt = card?.removedAt;
      const values = removedAt ? { ...row, status: 'canceled', canceledAt: removedAt, nextAttemptAt: null, cancelAtPeriodEnd: false } : row;
      const [inserted] = await tx.insert(subscriptions).values(values).onConflictDoNothing().returning();
      return inserted ?? null;
    });
  }

  /** The unused value of what was paid for the current period (0 in a trial or when nothing was paid). */
  async function creditFor(subscription: SubscriptionRow): Promise<number> {
    if (subscription.status !== 'active' || !subscription.currentPeriodEnd) return 0;
    const paid = await q.paidForPeriod(subscription.id, subscription.currentPeriodStart);
    if (!paid || paid.currency !== subscription.currency) return 0;
    return prorationCredit(paid.subtotal, subscription.currentPeriodStart.getTime(), subscription.currentPeriodEnd.getTime(), clock.now().getTime());
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

  return {
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
          const subscription = await insertStarted({ ...base, status: 'trialing', trialEndsAt: trialEnd, currentPeriodStart: now, currentPeriodEnd: trialEnd, nextAttemptAt: trialEnd });
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
        const subscription = await insertStarted({ ...base, ...paidFor, status: order.status === 'pending' ? 'past_due' : 'active', currentPeriodStart: start, currentPeriodEnd: end, nextAttemptAt: end });
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
  };
}
