import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_username_key').on(sql`lower(${table.username})`),
  ],
);

/** One row per signed-in browser or app; the token itself is never stored, only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    deviceId: text('device_id'),
    browser: text('browser'),
    device: text('device'),
    ip: text('ip'),
    location: text('location'),
    createdAt: createdAt(),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('sessions_token_hash_key').on(table.tokenHash), index('sessions_user_idx').on(table.userId)],
);

/**
 * Single-use secrets mailed to a user: activation links, reset links and codes.
 * Only hashes are stored; `attempts` bounds guessing of short codes.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('one_time_tokens_hash_key').on(table.purpose, table.tokenHash),
    index('one_time_tokens_user_idx').on(table.userId, table.purpose),
  ],
);

/** The dev outbox: mail kept instead of sent when no SMTP_URL is configured. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sent: boolean('sent').notNull().default(false),
  createdAt: createdAt(),
});
