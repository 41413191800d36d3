import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { sessions } from '../sessions/tables';
import { personId } from '../users/tables';

/** In-app notifications (the spec's entities): type, metadata and whether the user owns the target. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: personId(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    target: text('target').notNull().default('other'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('notifications_user_idx').on(table.userId, table.createdAt)],
);

/**
 * Security alerts of sign-ins still to deliver (a notification and a mail): written in the
 * transaction of the session they are about (a crash cannot keep one without the other),
 * claimed by a worker on any node with a lease, retried with backoff, deleted once delivered.
 * `notifiedAt`: the in-app notification is stored (in the same transaction that sets it).
 */
export const securityAlerts = pgTable(
  'security_alerts',
  {
    id: uuid('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    brand: text('brand').notNull(),
    detail: text('detail'),
    /** The account's address when the sign-in was made: the alert goes there, whatever the address became since. */
    mailTo: text('mail_to'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    claimId: uuid('claim_id'),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [index('security_alerts_due_idx').on(table.nextAttemptAt), index('security_alerts_session_idx').on(table.sessionId)],
);
