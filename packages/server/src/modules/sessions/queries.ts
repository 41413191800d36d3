import { and, desc, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Database, DatabaseExecutor, DatabaseTransaction } from '../../db/client';
import { sessionProofs, sessions, users } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;

/** What the user had before a new session: any session at all, and one from the same device id. */
export interface SessionHistory {
  hadSessions: boolean;
  deviceSeen: boolean;
}

type NewLiveSession = Omit<SessionRow, 'revokedAt'>;

export function sessionQueries(db: Database) {
  // Prepared once (built SQL, and a named statement on PostgreSQL): every sign-in runs it. In a
  // caller's transaction it is built again for that transaction, under the same statement name.
  // Its RETURNING sub-selects do not see the row being inserted, so they tell what came before.
  const placeholder = (name: keyof NewLiveSession) => sql.placeholder(name);
  const insertSessionOn = (executor: DatabaseExecutor) =>
    executor
      .insert(sessions)
      .values({
        id: placeholder('id'),
        userId: placeholder('userId'),
        tokenHash: placeholder('tokenHash'),
        deviceId: placeholder('deviceId'),
        browser: placeholder('browser'),
        device: placeholder('device'),
        ip: placeholder('ip'),
        location: placeholder('location'),
        createdAt: placeholder('createdAt'),
        lastActiveAt: placeholder('lastActiveAt'),
        expiresAt: placeholder('expiresAt'),
        amr: placeholder('amr'),
      })
      .returning({
        hadSessions: sql<boolean>`exists(select 1 from ${sessions} earlier where earlier.user_id = ${placeholder('userId')})`,
        deviceSeen: sql<boolean>`exists(select 1 from ${sessions} earlier where earlier.user_id = ${placeholder('userId')} and earlier.device_id = ${placeholder('deviceId')})`,
      })
      .prepare('insert_session');
  const insertSession = insertSessionOn(db);

  return {
    /** Records that a session proved a factor again now (re-authentication). */
    async recordProof(sessionId: string, now: Date): Promise<void> {
      await db.insert(sessionProofs).values({ sessionId, provedAt: now }).onConflictDoUpdate({ target: sessionProofs.sessionId, set: { provedAt: now } });
    },

    /** When a session last proved a factor again, if ever. */
    async lastProof(sessionId: string): Promise<Date | undefined> {
      const [row] = await db.select({ provedAt: sessionProofs.provedAt }).from(sessionProofs).where(eq(sessionProofs.sessionId, sessionId)).limit(1);
      return row?.provedAt;
    },

    /**
     * Inserts a live session; answers what the user had before it (for the new-device alert).
     * `within`: a transaction of the caller's that writes what goes with the session.
     */
    async insert(row: NewLiveSession, within?: DatabaseTransaction): Promise<SessionHistory> {
      const [history] = await (within ? insertSessionOn(within) : insertSession).execute(row);
      return { hadSessions: history?.hadSessions === true, deviceSeen: history?.deviceSeen === true };
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

    /** Sessions that still sign in: not revoked, not expired, and used since `idleSince` (older ones are idle past the timeout). */
    async listLive(userId: string, now: Date, idleSince: Date): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gte(sessions.lastActiveAt, idleSince)))
        .orderBy(desc(sessions.lastActiveAt));
    },

    /** Revokes one of a user's sessions; false when it was not theirs or already gone. */
    /** Revokes one of a user's sessions; the ids revoked (none when it was not theirs or already gone). */
    async revoke(userId: string, id: string, now: Date): Promise<string[]> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.map((row) => row.id);
    },

    async revokeAll(userId: string, now: Date, exceptId?: string): Promise<string[]> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptId ? ne(sessions.id, exceptId) : undefined))
        .returning({ id: sessions.id });
      return rows.map((row) => row.id);
    },
  };
}
