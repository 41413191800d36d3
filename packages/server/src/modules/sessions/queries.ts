import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;

export function sessionQueries(db: Database) {
  return {
    async insert(row: NewSessionRow): Promise<void> {
      await db.insert(sessions).values(row);
    },

    /** A live session (not revoked, not expired) and its user, by token hash. */
    async findLive(tokenHash: string, now: Date) {
      const [row] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .limit(1);
      return row;
    },

    async touch(id: string, now: Date): Promise<void> {
      await db.update(sessions).set({ lastActiveAt: now }).where(eq(sessions.id, id));
    },

    async listLive(userId: string, now: Date): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.lastActiveAt));
    },

    /** Revokes one of a user's sessions; false when it was not theirs or already gone. */
    async revoke(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length > 0;
    },

    async revokeAll(userId: string, now: Date, exceptId?: string): Promise<number> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptId ? ne(sessions.id, exceptId) : undefined))
        .returning({ id: sessions.id });
      return rows.length;
    },
  };
}
