import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cardColumns, createdAt, money, tz, updatedAt } from '../../db/columns';
import { organizations } from '../organizations/tables';
import { personId, users } from '../users/tables';

// Billing (migration 0004_billing): processor customers, cards, subscriptions, trials, orders,
// receipts, promo codes, licenses and Stripe's seen events.

/** What is bought, as a subscription holds it and an order charges for it: a product's plan, for months and seats, at a price. */
const purchaseColumns = () => ({
  product: text('product').notNull(),
  plan: text('plan').notNull(),
  months: integer('months').notNull(),
  seats: integer('seats').notNull().default(1),
  currency: text('currency').notNull(),
  price: money('price').notNull(),
});

/** The processor's customer of a user (Stripe's cus_...; the sandbox has none). */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: personId(),
    processor: text('processor').notNull(),
    customerRef: text('customer_ref').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('billing_customers_user_processor_key').on(table.userId, table.processor)],
);

/** Saved cards: only what the processor tells (brand, last four, expiry) and the billing address. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey(),
    userId: personId(),
    processor: text('processor').notNull(),
    processorRef: text('processor_ref').notNull(),
    ...cardColumns(),
    cardholder: text('cardholder').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    country: text('country'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    removedAt: tz('removed_at'),
  },
  (table) => [
    index('payment_methods_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('payment_methods_one_default').on(table.userId).where(sql`${table.isDefault} and ${table.removedAt} is null`),
  ],
);

/**
 * Subscriptions: trialing, active, past_due, canceled. `nextAttemptAt` is when the renewal job
 * acts next (period end, a retry); `claimedUntil`/`claimId` are its row claim.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    ...purchaseColumns(),
    status: text('status').notNull(),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    trialEndsAt: tz('trial_ends_at'),
    currentPeriodStart: tz('current_period_start').notNull(),
    currentPeriodEnd: tz('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: tz('canceled_at'),
    lifetime: boolean('lifetime').notNull().default(false),
    retryCount: integer('retry_count').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at'),
    claimedUntil: tz('claimed_until'),
    claimId: text('claim_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('subscriptions_one_live_per_product').on(table.userId, table.product).where(sql`${table.status} <> 'canceled' and ${table.userId} is not null`),
    index('subscriptions_due_idx').on(table.nextAttemptAt).where(sql`${table.status} <> 'canceled'`),
    index('subscriptions_org_idx').on(table.organizationId),
  ],
);

/** A trial is had once per person (user id, or `email:<address>` for a business admin) and product. */
export const trialUsages = pgTable(
  'trial_usages',
  { person: text('person').notNull(), product: text('product').notNull(), createdAt: createdAt() },
  (table) => [uniqueIndex('trial_usages_person_product_key').on(table.person, table.product)],
);

/**
 * One subscription start at a time per person and product (migration 0024): claimed with a lease
 * before the charge; `generation` names the start's charge and moves on when a start finishes.
 */
export const subscriptionStarts = pgTable(
  'subscription_starts',
  {
    userId: personId(),
    product: text('product').notNull(),
    generation: integer('generation').notNull().default(0),
    claimedUntil: tz('claimed_until'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.product] })],
);

/** Every charge (the spec's order fields), paid through its idempotency key. */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    number: text('number').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    ...purchaseColumns(),
    discount: money('discount').notNull(),
    subtotal: money('subtotal').notNull(),
    credit: money('credit').notNull(),
    total: money('total').notNull(),
    status: text('status').notNull(),
    kind: text('kind').notNull(),
    promoCode: text('promo_code'),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    paymentMethodLabel: text('payment_method_label'),
    billingAddress: jsonb('billing_address').$type<{ cardholder: string; city: string; state: string; zip: string; country: string | null }>(),
    idempotencyKey: text('idempotency_key').notNull(),
    processorRef: text('processor_ref'),
    failureCode: text('failure_code'),
    language: text('language').notNull().default('en'),
    periodStart: tz('period_start'),
    periodEnd: tz('period_end'),
    paidAt: tz('paid_at'),
    /** A paid order given back (the processor's refund); the ledger holds the reverse entry. */
    refundedAt: tz('refunded_at'),
    refundRef: text('refund_ref'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('orders_idempotency_key').on(table.idempotencyKey),
    uniqueIndex('orders_number_key').on(table.number),
    index('orders_user_idx').on(table.userId, table.createdAt),
    index('orders_processor_ref_idx').on(table.processorRef),
  ],
);

/**
 * Receipt mails still to send: one row per paid order, written in the order's own transaction
 * (a crash cannot lose it), claimed by a worker on any node with a lease, retried with backoff.
 */
export const billingReceipts = pgTable(
  'billing_receipts',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at').notNull(),
    claimedUntil: tz('claimed_until'),
    claimId: uuid('claim_id'),
    lastError: text('last_error'),
    sentAt: tz('sent_at'),
    createdAt: createdAt(),
  },
  (table) => [index('billing_receipts_due_idx').on(table.nextAttemptAt).where(sql`status = 'pending'`)],
);

/** Promo codes: percent (basis points) or a fixed amount in one currency, per plan, expiring, limited. */
export const promoCodes = pgTable('promo_codes', {
  code: text('code').primaryKey(),
  kind: text('kind').notNull(),
  basisPoints: integer('basis_points'),
  amount: money('amount'),
  currency: text('currency'),
  plans: jsonb('plans').$type<string[]>().notNull().default([]),
  expiresAt: tz('expires_at'),
  maxRedemptions: integer('max_redemptions'),
  redemptions: integer('redemptions').notNull().default(0),
  createdAt: createdAt(),
});

export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    code: text('code')
      .notNull()
      .references(() => promoCodes.code, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    orderId: uuid('order_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('promo_redemptions_code_user_key').on(table.code, table.userId)],
);

/** Redeemed AppSumo license codes (by hash): a code grants its plan once. */
export const licenseRedemptions = pgTable('license_redemptions', {
  codeHash: text('code_hash').primaryKey(),
  plan: text('plan').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  subscriptionId: uuid('subscription_id'),
  createdAt: createdAt(),
  /** Revoked by an operator before anyone redeemed it (then no user and no subscription). */
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/** Stripe events already handled: a replayed event is refused. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});
