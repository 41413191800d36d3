import { bigint, boolean, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';

/** The dev outbox: mail kept instead of sent when no SMTP_URL is configured. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sent: boolean('sent').notNull().default(false),
  createdAt: createdAt(),
  /** Sending order: created_at ties within a millisecond on PGlite (0019_mail_outbox_order). */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
});
