import { bigint, customType, integer, text, timestamp } from 'drizzle-orm/pg-core';

// Column types and defaults the tables of every module share, so each table says them one way.

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const tz = (name: string) => timestamp(name, { withTimezone: true });

/** Amounts in minor units (đồng, cents): whole numbers, never floating point. */
export const money = (name: string) => bigint(name, { mode: 'number' });

/** A mailed invitation's life after its link: when it expires, and when it was accepted, revoked or claimed for a sign-up; then when it was made. */
export const invitationLifeColumns = () => ({
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  acceptedAt: tz('accepted_at'),
  revokedAt: tz('revoked_at'),
  signupClaimedAt: tz('signup_claimed_at'),
  createdAt: createdAt(),
});

/** What a card processor tells of a card, never its number: the brand, the last four digits and the expiry. */
export const cardColumns = () => ({
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
});
