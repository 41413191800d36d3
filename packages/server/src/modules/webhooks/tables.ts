import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns';
import { oauthClients } from '../oauth/tables';

/** The outside app a row is about: gone with the app (ON DELETE CASCADE). */
const appClientId = () =>
  text('client_id')
    .notNull()
    .references(() => oauthClients.clientId, { onDelete: 'cascade' });

/**
 * Events to products (migration 0031_webhooks, modules/webhooks): an outside app's endpoint and
 * the events it chose; the secret sealed with the data key (needed in clear to sign).
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  clientId: appClientId().primaryKey(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * One row per event and endpoint, written by the migration's triggers in the transaction of the
 * change; `eventId` is the webhook-id a receiver drops duplicates by; a person's (`subject`)
 * deliveries to one endpoint go out one at a time in `id` order.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: uuid('event_id').notNull(),
    clientId: appClientId(),
    type: text('type').notNull(),
    subject: uuid('subject').notNull(),
    payload: jsonb('payload').$type<{ type: string; timestamp: string; data: Record<string, unknown> }>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt, table.id).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_order_idx').on(table.clientId, table.subject, table.id).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_client_idx').on(table.clientId, sql`${table.id} DESC`),
    index('webhook_deliveries_subject_idx').on(table.subject),
    check('webhook_deliveries_status_check', sql`${table.status} IN ('pending', 'delivered', 'failed')`),
  ],
);

/**
 * Every app a person ever allowed (migration 0036_webhook_deletion_audience, filled by a trigger
 * on the provider's grants): the account's deletion is announced to each, even after the grant
 * expired or was swept, then the rows go.
 */
export const webhookDeletionAudiences = pgTable(
  'webhook_deletion_audiences',
  {
    accountId: text('account_id').notNull(),
    clientId: text('client_id').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'webhook_deletion_audiences_pkey', columns: [table.accountId, table.clientId] })],
);
