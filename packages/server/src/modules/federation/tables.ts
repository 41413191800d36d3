import { boolean, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { personId } from '../users/tables';

/** An outside account (Google, GitHub...) that signs in to one of ours; one per provider and account. */
export const socialIdentities = pgTable(
  'social_identities',
  {
    provider: text('provider').notNull(),
    /** The provider's stable id of the person (`sub`, GitHub's numeric id...), never the email. */
    subject: text('subject').notNull(),
    userId: personId(),
    email: text('email'),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.provider, table.subject] }), uniqueIndex('social_identities_user_provider_key').on(table.userId, table.provider)],
);

/**
 * A social sign-up between the provider's answer and `/create-user`: who the provider said
 * this is, and, when the person gives an email the provider did not prove, its mailed code.
 * No account exists until the email is proven.
 */
export const socialSignups = pgTable('social_signups', {
  id: uuid('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  provider: text('provider').notNull(),
  subject: text('subject').notNull(),
  providerEmail: text('provider_email'),
  providerEmailVerified: boolean('provider_email_verified').notNull(),
  fullName: text('full_name').notNull(),
  /** The email and name given on /create-user, waiting for the code. */
  email: text('email'),
  chosenName: text('chosen_name'),
  language: text('language'),
  codeHash: text('code_hash'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});
