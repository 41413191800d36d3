import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/client';
import { apiKeys, notifications, passkeys } from '../../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

export function notificationQueries(db: DatabaseExecutor) {
  return {
    /**
     * The account's ways in besides the password, for security mails to list (read only: the
     * passkeys and api-keys modules own these rows and write them).
     */
    async inventory(userId: string): Promise<{ passkeys: string[]; apiKeys: string[] }> {
      const [keys, tokens] = await Promise.all([
        db.select({ name: passkeys.name }).from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt),
        db
          .select({ name: apiKeys.name, prefix: apiKeys.prefix })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
          .orderBy(apiKeys.createdAt),
      ]);
      return { passkeys: keys.map((key) => key.name), apiKeys: tokens.map((token) => `${token.name} (${token.prefix}…)`) };
    },

    async insert(row: typeof notifications.$inferInsert): Promise<NotificationRow> {
      const [inserted] = await db.insert(notifications).values(row).returning();
      return inserted!;
    },

    /** One statement for many users (a fan-out); how many were stored. */
    async insertMany(rows: Array<typeof notifications.$inferInsert>): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db.insert(notifications).values(rows).returning({ id: notifications.id });
      return inserted.length;
    },

    /** One page of a user's notifications, newest first, with the totals the list shows. */
    async page(userId: string, offset: number, limit: number) {
      const mine = eq(notifications.userId, userId);
      const [items, [totals], [unread]] = await Promise.all([
        db.select().from(notifications).where(mine).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit).offset(offset),
        db.select({ total: count() }).from(notifications).where(mine),
        db.select({ unread: count() }).from(notifications).where(and(mine, isNull(notifications.readAt))),
      ]);
      return { items, total: totals?.total ?? 0, unread: unread?.unread ?? 0 };
    },

    /** Marks one of a user's notifications read (keeping the first read time); undefined when not theirs. */
    async markRead(userId: string, id: string, now: Date): Promise<NotificationRow | undefined> {
      const [row] = await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning();
      if (row) return row;
      const [already] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .limit(1);
      return already;
    },

    async markAllRead(userId: string, now: Date): Promise<number> {
      const rows = await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning({ id: notifications.id });
      return rows.length;
    },
  };
}
