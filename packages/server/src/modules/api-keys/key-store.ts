import { randomUUID } from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_PREFIX } from '@portal/contracts';
import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inAccountsTurn } from '../../db/account-turns';
import type { Database } from '../../db/client';
import { apiKeys, sessions, users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import { randomToken, sha256 } from '../../platform/crypto';

/** Writing last-used on every call would turn every read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;
/** Characters of the secret part shown in lists, so people can tell their keys apart. */
export const API_KEY_VISIBLE_CHARS = 8;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A table of bearer keys: the personal keys' (api_keys) or the operators' admin keys' (operator_api_keys), the same columns. */
type KeyTable = PgTable & Record<'id' | 'userId' | 'keyHash' | 'revokedAt' | 'lastUsedAt' | 'createdAt', PgColumn>;
export type KeyRow = typeof apiKeys.$inferSelect;
type UserRow = typeof users.$inferSelect;
/** The session a key is made on, as its row reads under the key's transaction. */
export type MadeOn = Pick<typeof sessions.$inferSelect, 'amr' | 'createdAt'>;

/** What lists show of a key (never its hash), with the scopes the caller still knows. */
export function toKeyDto<Scope extends string>(row: KeyRow, knownScopes: (scopes: readonly string[]) => Scope[]) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: knownScopes(row.scopes),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Bearer keys kept in `table`: `pk_` + 32 random bytes (base64url, 256 bits), stored only as
 * SHA-256, limited to scopes, revocable and optionally expiring. The personal API keys and the
 * operators' admin keys are both such keys, in tables of their own.
 */
export function bearerKeyStore(db: Database, clock: Clock, table: KeyTable) {
  const live = (userId: string) => and(eq(table.userId, userId), isNull(table.revokedAt));

  return {
    /** A user's keys that are not revoked (expired ones included, so the list can say so). */
    async liveKeysOf(userId: string): Promise<KeyRow[]> {
      const rows = await db
        .select()
        .from(table as PgTable)
        .where(live(userId))
        .orderBy(desc(table.createdAt));
      return rows as KeyRow[];
    },

    /**
     * Creates a key; the secret is in the answer this once and nowhere else. Undefined when the
     * user already holds `limit` keys that are not revoked. The count and the insert run in the
     * account's turn (inAccountsTurn), so parallel requests cannot pass the limit together.
     * `onSession`: the session the key is made on, which must still be live; it is locked FOR
     * SHARE, so a sweep that ends it (company SSO) either waits for this key and then finds it,
     * or ended the session first and this refuses. What the key keeps of that session (`own`)
     * is read from its row, here.
     */
    async create(
      userId: string,
      input: { name: string; scopes: string[]; expires_in_days?: number | undefined },
      rules: {
        limit: number;
        onSession?: string;
        /** Columns of this table's own (the personal keys' sso_signed_in_at), from the session the key is made on. */
        own?: (session: MadeOn) => Partial<typeof apiKeys.$inferInsert>;
      },
    ): Promise<{ row: KeyRow; key: string } | undefined> {
      const secret = randomToken(32);
      const key = `${API_KEY_PREFIX}${secret}`;
      const now = clock.now();
      const values: typeof apiKeys.$inferInsert = {
        id: randomUUID(),
        userId,
        name: input.name,
        prefix: secret.slice(0, API_KEY_VISIBLE_CHARS),
        keyHash: sha256(key),
        scopes: [...new Set(input.scopes)],
        expiresAt: input.expires_in_days ? new Date(now.getTime() + input.expires_in_days * DAY_MS) : null,
        createdAt: now,
      };
      return inAccountsTurn(db, userId, async (tx) => {
        if (rules.onSession) {
          const [session] = await tx
            .select({ amr: sessions.amr, createdAt: sessions.createdAt })
            .from(sessions)
            .where(and(eq(sessions.id, rules.onSession), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
            .for('share');
          if (!session) throw new AppError('unauthorized');
          Object.assign(values, rules.own?.(session));
        }
        const [held] = await tx.select({ count: count() }).from(table as PgTable).where(live(userId));
        if (held!.count >= rules.limit) return undefined;
        const [row] = await tx
          .insert(table as PgTable)
          .values(values)
          .returning();
        return { row: row as KeyRow, key };
      });
    },

    /** Revokes one of a user's keys; false when it was not theirs or already revoked. */
    async revoke(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(table as PgTable)
        .set({ revokedAt: clock.now() })
        .where(and(eq(table.id, id), live(userId)))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    /** Revokes every key of a user. */
    async revokeAll(userId: string): Promise<void> {
      await db
        .update(table as PgTable)
        .set({ revokedAt: clock.now() })
        .where(live(userId));
    },

    /** A live key (not revoked, not expired) and its user, or null; records its use at most once a minute. */
    async authenticate(key: string): Promise<{ key: KeyRow; user: UserRow } | null> {
      if (!API_KEY_PATTERN.test(key)) return null;
      const [found] = (await db
        .select({ key: table, user: users })
        .from(table as PgTable)
        .innerJoin(users, eq(users.id, table.userId))
        .where(eq(table.keyHash, sha256(key)))
        .limit(1)) as { key: KeyRow; user: UserRow }[];
      const now = clock.now();
      if (!found || found.key.revokedAt || (found.key.expiresAt && found.key.expiresAt <= now)) return null;
      if (!found.key.lastUsedAt || now.getTime() - found.key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        const since = new Date(now.getTime() - TOUCH_INTERVAL_MS);
        await db
          .update(table as PgTable)
          .set({ lastUsedAt: now })
          .where(and(eq(table.id, found.key.id), or(isNull(table.lastUsedAt), lt(table.lastUsedAt, since))));
      }
      return found;
    },
  };
}
