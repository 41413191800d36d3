import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { invitationLifeColumns } from '../../db/columns';
import { users } from '../users/tables';

/**
 * Moderators of a product's websites: one live row per product client, website and
 * email (a revoked one is history); pending until the invited person accepts the mailed link
 * (its token stored only as a SHA-256 hash); accepted rows name the account that gets the
 * website's security-analysis notifications.
 */
export const websiteModerators = pgTable(
  'website_moderators',
  {
    id: uuid('id').primaryKey(),
    clientId: text('client_id').notNull(),
    serviceScope: text('service_scope').notNull(),
    websiteId: text('website_id').notNull(),
    websiteName: text('website_name').notNull(),
    email: text('email').notNull(),
    language: text('language'),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    ...invitationLifeColumns(),
  },
  (table) => [
    uniqueIndex('website_moderators_token_key').on(table.tokenHash),
    uniqueIndex('website_moderators_live_key').on(table.clientId, table.websiteId, table.email).where(sql`${table.revokedAt} IS NULL`),
    index('website_moderators_email_idx').on(table.email),
    index('website_moderators_user_idx').on(table.userId),
  ],
);
