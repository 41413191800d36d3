import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/client';
import { apiKeys, notifications, passkeys } from '../../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

/** An account's ways in besides the password, as security mails list them. */
export interface AccountInventory {
  passkeys: string[];
  apiKeys: string[];
}

export function notificationQueries(db: DatabaseExecutor) {
  /** The account's ways in, for several accounts in two statements (the security alert worker's batch), by user id. */
  async function inventories(userIds: readonly string[]): Promise<Map<string, AccountInventory>> {
    const found = new Map(userIds.map((userId): [string, AccountInventory] => [userId, { passkeys: [], apiKeys: [] }]));
    if (userIds.length === 0) return found;
    const [keys, tokens] = await Promise.all([
      db.select({ userId: passkeys.userId, name: passkeys.name }).from(passkeys).where(inArray(passkeys.userId, [...userIds])).orderBy(passkeys.createdAt),
      db
        .select({ userId: apiKeys.userId, name: apiKeys.name, prefix: apiKeys.prefix })
        .from(apiKeys)
        .where(and(inArray(apiKeys.userId, [...userIds]), isNull(apiKeys.revokedAt)))
        .orderBy(apiKeys.createdAt),
    ]);
    for (const key of keys) found.get(key.userId)?.passkeys.push(key.name);
    for (const token of tokens) found.get(token.userId)?.apiKeys.push(`${token.name} (${token.prefix}…)`);
    return found;
  }

  return {
    inventories,

    /**
     * The account's ways in besides the password, for security mails to list (read only: the
     * passkeys and api-keys modules own these rows and write them).
     */
    async inventory(userId: string): Promise<AccountInventory> {
      return (await inventories([userId])).get(userId)!;
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
