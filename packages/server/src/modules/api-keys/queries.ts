import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys, users } from '../../db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function apiKeyQueries(db: Database) {
  return {
    async insert(row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
      const [inserted] = await db.insert(apiKeys).values(row).returning();
      return inserted!;
    },

    /** A user's keys that are not revoked (expired ones included, so the list can say so). */
    async listForUser(userId: string): Promise<ApiKeyRow[]> {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt));
    },

    /** Revokes one of a user's keys; false when it was not theirs or already revoked. */
    async revoke(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return rows.length > 0;
    },

    /** A key by its hash with its user, whatever its state (the caller checks revoked and expiry). */
    async findByHash(keyHash: string) {
      const [row] = await db
        .select({ key: apiKeys, user: users })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(eq(apiKeys.keyHash, keyHash))
        .limit(1);
      return row;
    },

    /** Records use, at most once per `since` (one write a minute, not one per call). */
    async touch(id: string, now: Date, since: Date): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))));
    },
  };
}
