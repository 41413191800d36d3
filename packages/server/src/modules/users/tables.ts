import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns';

/** People. Emails are stored lower-cased; a null password means a passkey-only account. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username'),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash'),
    language: text('language').notNull().default('en'),
    customerLanguage: text('customer_language').notNull().default('en'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    // Profile (account self-service).
    phone: text('phone'),
    company: text('company'),
    organization: text('organization'),
    address: text('address'),
    country: text('country'),
    avatarVersion: integer('avatar_version').notNull().default(0),
    recoveryEmail: text('recovery_email'),
    recoveryEmailVerifiedAt: timestamp('recovery_email_verified_at', { withTimezone: true }),
    educationEmail: text('education_email'),
    educationEmailVerifiedAt: timestamp('education_email_verified_at', { withTimezone: true }),
    marketingEmails: boolean('marketing_emails').notNull().default(false),
    usageData: boolean('usage_data').notNull().default(true),
    // Second factor: null, 'totp' or 'email'. The TOTP secret is needed in clear to compute codes.
    twoFactorMethod: text('two_factor_method'),
    totpSecret: text('totp_secret'),
    /** The last accepted TOTP time step: a code is accepted once, even within its own step. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    // Deletion: requested, cancellable until due; the purge job empties personal data after.
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true }),
    deletionDueAt: timestamp('deletion_due_at', { withTimezone: true }),
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /** Locked by an operator: no sign-in, and every session, key and token refused, until unlocked. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_username_key').on(sql`lower(${table.username})`),
    // The operators' dashboard counts sign-ups by hour and day (migration 0033).
    index('users_created_at_idx').on(table.createdAt),
  ],
);

/** The account a row belongs to: gone with the account (ON DELETE CASCADE). */
export const personId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
