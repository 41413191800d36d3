import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client';
import { mailOutbox } from './tables';
import type { MailMessage } from './message';

export interface OutboxMail extends MailMessage {
  id: string;
  createdAt: Date;
}

/** Stores a mail; a keyed one is stored once (its key is its id), however often it is sent. */
export async function insertOutboxMail(database: DatabaseHandle, message: MailMessage): Promise<string> {
  const id = message.key ?? randomUUID();
  const attached = message.attachments?.length ? `\n\nAttachments: ${message.attachments.map((file) => `${file.filename} (${file.content.length} bytes)`).join(', ')}` : '';
  await database.db.insert(mailOutbox).values({ id, to: message.to, subject: message.subject, text: message.text + attached, html: message.html }).onConflictDoNothing({ target: mailOutbox.id });
  return id;
}

const columns = {
  id: mailOutbox.id,
  to: mailOutbox.to,
  subject: mailOutbox.subject,
  text: mailOutbox.text,
  html: mailOutbox.html,
  createdAt: mailOutbox.createdAt,
};

export async function findOutboxMail(database: DatabaseHandle, id: string): Promise<OutboxMail | undefined> {
  const [row] = await database.db.select(columns).from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return row;
}

/** Recent dev-outbox mail, newest first; `to` matches case-insensitively. */
export async function listOutbox(database: DatabaseHandle, options: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), 500);
  const rows = await database.db
    .select(columns)
    .from(mailOutbox)
    .where(options.to ? sql`lower(${mailOutbox.to}) = ${options.to.trim().toLowerCase()}` : undefined)
    .orderBy(desc(mailOutbox.seq))
    .limit(limit);
  return rows;
}
