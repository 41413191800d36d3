import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cardColumns, createdAt, money } from '../../db/columns';

// The sandbox processor's own tables (platform/payments/sandbox.ts): it stands in for Stripe.

/** The sandbox processor's card tokens: brand, last four, expiry and the test behaviour, never the number. */
export const sandboxCards = pgTable('sandbox_cards', {
  token: text('token').primaryKey(),
  ...cardColumns(),
  behavior: text('behavior').notNull(),
  createdAt: createdAt(),
});

/** The sandbox processor's charges, one per idempotency key (as Stripe's payment intents). */
export const sandboxCharges = pgTable(
  'sandbox_charges',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    token: text('token').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    declineCode: text('decline_code'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('sandbox_charges_idempotency_key').on(table.idempotencyKey)],
);
