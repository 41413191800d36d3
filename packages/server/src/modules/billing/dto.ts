import { findPlan, type Card, type CardBrand, type Order, type OrderStatus, type Subscription, type SubscriptionStatus } from '@portal/contracts';
import type { OrderRow, PaymentMethodRow, SubscriptionRow } from './queries';
import { currencyOf, iso } from './shared';

/** Billing's rows as the API answers them. */

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
