import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { securityAlerts, sessionProofs, sessions, users } from '../../db/schema';
import { heldWithoutSsoSince, type BoundSince } from './sso-since';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;

/** What the user had before a new session: any session at all, and one from the same device id. */
export interface SessionHistory {
  hadSessions: boolean;
  deviceSeen: boolean;
}

type NewLiveSession = Omit<SessionRow, 'revokedAt'>;

/**
 * Security alerts a new session means for the account's owner, written by the session's own
 * statement: a crash keeps both or neither. `ifNewDevice` is written only when the session's
 * device id was never seen on an account that had sessions before (what its history tells).
 */
export interface SessionAlerts {
  brand: string;
  /** The account's address at the sign-in, where the mails go. */
  mailTo: string;
  always: ReadonlyArray<{ kind: string; detail?: string }>;
  ifNewDevice?: { kind: string; detail?: string };
}

const NO_ALERTS: SessionAlerts = { brand: '', mailTo: '', always: [] };

export function sessionQueries(db: Database) {
  // One statement prepared once (a named statement on PostgreSQL): the session, its alerts, and
  // what the user had before it. Its RETURNING sub-selects do not see the row being inserted,
  // so they tell what came before; the alerts read that history from the same statement.
  const p = (name: string) => sql.placeholder(name);
  const inserted = new QueryBuilder().$with('inserted', { hadSessions: sql<boolean>`had_sessions`.as('had_sessions'), deviceSeen: sql<boolean>`device_seen`.as('device_seen') }).as(
    sql`insert into ${sessions} (id, user_id, token_hash, device_id, browser, device, ip, location, created_at, last_active_at, expires_at, amr)
        values (${p('id')}::uuid, ${p('userId')}::uuid, ${p('tokenHash')}, ${p('deviceId')}, ${p('browser')}, ${p('device')}, ${p('ip')}, ${p('location')},
                ${p('createdAt')}::timestamptz, ${p('lastActiveAt')}::timestamptz, ${p('expiresAt')}::timestamptz, ${p('amr')}::text[])
        returning exists(select 1 from ${sessions} earlier where earlier.user_id = ${p('userId')}::uuid) as had_sessions,
                  exists(select 1 from ${sessions} earlier where earlier.user_id = ${p('userId')}::uuid and earlier.device_id = ${p('deviceId')}) as device_seen`,
  );
  const alerted = new QueryBuilder().$with('alerted', { id: sql<string>`id` }).as(
    sql`insert into ${securityAlerts} (id, session_id, kind, brand, detail, mail_to, next_attempt_at)
        select alert.id, ${p('id')}::uuid, alert.kind, ${p('brand')}, alert.detail, ${p('mailTo')}, ${p('createdAt')}::timestamptz
        from unnest(${p('alertIds')}::uuid[], ${p('alertKinds')}::text[], ${p('alertDetails')}::text[]) as alert(id, kind, detail)
        union all
        select ${p('newDeviceAlertId')}::uuid, ${p('id')}::uuid, ${p('newDeviceKind')}, ${p('brand')}, ${p('newDeviceDetail')}, ${p('mailTo')}, ${p('createdAt')}::timestamptz
        from inserted
        where ${p('newDeviceAlertId')}::uuid is not null and ${p('deviceId')}::text is not null and inserted.had_sessions and not inserted.device_seen
        returning id`,
  );
  const insertSession = db.with(inserted, alerted).select({ hadSessions: inserted.hadSessions, deviceSeen: inserted.deviceSeen }).from(inserted).prepare('insert_session');

  return {
    /** Records that a session proved a factor again now (re-authentication), and whether it was the second step. */
    async recordProof(sessionId: string, now: Date, secondStep: boolean): Promise<void> {
      const secondStepAt = secondStep ? now : null;
      await db
        .insert(sessionProofs)
        .values({ sessionId, provedAt: now, secondStepAt })
        .onConflictDoUpdate({ target: sessionProofs.sessionId, set: { provedAt: now, ...(secondStep ? { secondStepAt: now } : {}) } });
    },

    /** When a session last proved a factor again, and the second step, if ever. */
    async lastProof(sessionId: string): Promise<{ provedAt: Date; secondStepAt: Date | null } | undefined> {
      const [row] = await db
        .select({ provedAt: sessionProofs.provedAt, secondStepAt: sessionProofs.secondStepAt })
        .from(sessionProofs)
        .where(eq(sessionProofs.sessionId, sessionId))
        .limit(1);
      return row;
    },

    /**
     * Inserts a live session and the alerts it means, in one statement; answers what the user
     * had before it (for the new-device alert).
     */
    async insert(row: NewLiveSession, alerts: SessionAlerts = NO_ALERTS): Promise<SessionHistory> {
      const [history] = await insertSession.execute({
        ...row,
        createdAt: row.createdAt.toISOString(),
        lastActiveAt: row.lastActiveAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        brand: alerts.brand,
        mailTo: alerts.mailTo,
        alertIds: alerts.always.map(() => randomUUID()),
        alertKinds: alerts.always.map((alert) => alert.kind),
        alertDetails: alerts.always.map((alert) => alert.detail ?? null),
        newDeviceAlertId: alerts.ifNewDevice ? randomUUID() : null,
        newDeviceKind: alerts.ifNewDevice?.kind ?? null,
        newDeviceDetail: alerts.ifNewDevice?.detail ?? null,
      });
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

    /**
     * Revokes, in one statement, the sessions of each person that company SSO did not sign in
     * since `since` (when they joined the organization that requires it: an SSO session from
     * before was another organization's IdP, or none); the rows revoked, and whether the person
     * still has a live session (one kept).
     */
    async revokeUnlessSsoSince(people: readonly BoundSince[], now: Date): Promise<Array<{ id: string; userId: string; kept: boolean }>> {
      if (people.length === 0) return [];
      // amr is null on rows older than the column: not an SSO sign-in.
      const withoutSso = heldWithoutSsoSince(people, { userId: sessions.userId, viaSso: sql`coalesce(${sessions.amr}, '{}'::text[]) @> array['sso']::text[]`, createdAt: sessions.createdAt });
      const revoked = db.$with('revoked').as(
        db
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(isNull(sessions.revokedAt), withoutSso))
          .returning({ id: sessions.id, userId: sessions.userId }),
      );
      // The statement's snapshot still shows the rows it revokes as live: they are left out by id.
      const kept = sql<boolean>`exists (select 1 from ${sessions} live where live.user_id = ${revoked.userId} and live.revoked_at is null and live.expires_at > ${now.toISOString()}::timestamptz
                                                  and live.id not in (select id from ${revoked}))`;
      return db.with(revoked).select({ id: revoked.id, userId: revoked.userId, kept: kept.as('kept') }).from(revoked);
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
