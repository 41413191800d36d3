import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { apiKeys, avatars, notifications, passkeys, sessions, users } from '../../db/schema';
import { pickColumns } from '../../db/pick-columns';
import type { UserRow } from '../users';
/** One-time tokens this module issues. */
export type AccountTokenPurpose = 'email_change' | 'recovery_email' | 'education_email' | 'restore';

export function accountQueries(db: Database) {
  return {
    // Avatars. The version only grows, so a cached `?v=` URL never shows another picture;
    // a negative version means "no picture now" (the DTO shows avatar_url only when > 0).
    async saveAvatar(userId: string, content: Buffer, contentType: string, now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        await tx
          .insert(avatars)
          .values({ userId, content, contentType, updatedAt: now })
          .onConflictDoUpdate({ target: avatars.userId, set: { content, contentType, updatedAt: now } });
        const [row] = await tx
          .update(users)
          .set({ avatarVersion: sql`abs(${users.avatarVersion}) + 1`, updatedAt: now })
          .where(eq(users.id, userId))
          .returning({ version: users.avatarVersion });
        return row?.version ?? 0;
      });
    },

    async deleteAvatar(userId: string, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(avatars).where(eq(avatars.userId, userId));
        await tx
          .update(users)
          .set({ avatarVersion: sql`-abs(${users.avatarVersion})`, updatedAt: now })
          .where(eq(users.id, userId));
      });
    },

    async findAvatar(userId: string) {
      const [row] = await db
        .select({ content: avatars.content, contentType: avatars.contentType, updatedAt: avatars.updatedAt, version: users.avatarVersion })
        .from(avatars)
        .innerJoin(users, eq(users.id, avatars.userId))
        .where(eq(avatars.userId, userId))
        .limit(1);
      return row;
    },

    // Deletion.
    async scheduleDeletion(userId: string, now: Date, dueAt: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ deletionRequestedAt: now, deletionDueAt: dueAt, updatedAt: now })
        .where(and(eq(users.id, userId), isNull(users.purgedAt)))
        .returning();
      return row;
    },

    /** Cancels a scheduled deletion that is not due yet; undefined when it is too late (or none). */
    async cancelDeletion(userId: string, now: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ deletionRequestedAt: null, deletionDueAt: null, updatedAt: now })
        .where(and(eq(users.id, userId), isNull(users.purgedAt), gt(users.deletionDueAt, now)))
        .returning();
      return row;
    },

    /**
     * Everything we keep about a person, for the export. Secrets and hashes are never selected:
     * not the password, TOTP secret, token, key or credential hashes, nor public keys.
     */
    async exportData(userId: string) {
      const [sessionRows, passkeyRows, keyRows, notificationRows] = await Promise.all([
        db.select(pickColumns(sessions, 'id', 'deviceId', 'browser', 'device', 'ip', 'location', 'createdAt', 'lastActiveAt', 'expiresAt', 'revokedAt')).from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt)),
        db.select(pickColumns(passkeys, 'id', 'name', 'deviceType', 'backedUp', 'transports', 'createdAt', 'lastUsedAt')).from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt)),
        db.select(pickColumns(apiKeys, 'id', 'name', 'prefix', 'scopes', 'createdAt', 'lastUsedAt', 'expiresAt', 'revokedAt')).from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(asc(apiKeys.createdAt)),
        db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.createdAt)),
      ]);
      return { sessions: sessionRows, passkeys: passkeyRows, apiKeys: keyRows, notifications: notificationRows };
    },
  };
}

export type AccountQueries = ReturnType<typeof accountQueries>;
