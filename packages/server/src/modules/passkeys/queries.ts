import { and, asc, count, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { passkeys, webauthnChallenges } from './tables';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengeRow = typeof webauthnChallenges.$inferSelect;
export type ChallengePurpose = 'register' | 'enable' | 'auth' | 'reauth';

export function passkeyQueries(db: Database) {
  return {
    /** Stores a challenge (its hash) and sweeps expired ones, so the table stays small. */
    async insertChallenge(row: typeof webauthnChallenges.$inferInsert, now: Date): Promise<void> {
      await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
      await db.insert(webauthnChallenges).values(row);
    },

    /** Atomically uses a live challenge of a purpose: exactly one caller of a race gets the row. */
    async claimChallenge(challengeHash: string, purpose: ChallengePurpose, now: Date): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .update(webauthnChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(webauthnChallenges.challengeHash, challengeHash),
            eq(webauthnChallenges.purpose, purpose),
            isNull(webauthnChallenges.usedAt),
            gt(webauthnChallenges.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },

    list(userId: string): Promise<PasskeyRow[]> {
      return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
    },

    async count(userId: string): Promise<number> {
      const [row] = await db.select({ value: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      return Number(row?.value ?? 0);
    },

    async findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
      return row;
    },

    /** Inserts unless the credential is registered already; returns the row or undefined. */
    async insert(row: typeof passkeys.$inferInsert): Promise<PasskeyRow | undefined> {
      const [inserted] = await db.insert(passkeys).values(row).onConflictDoNothing().returning();
      return inserted;
    },

    async rename(userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
      const [row] = await db
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning();
      return row;
    },

    async remove(userId: string, id: string): Promise<PasskeyRow | undefined> {
      const [row] = await db
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning();
      return row;
    },

    /**
     * Records a successful use: compare-and-set on the counter that was verified against, so
     * two racing assertions cannot both move it.
     */
    async recordUse(id: string, expectedCounter: number, newCounter: number, backedUp: boolean, now: Date): Promise<boolean> {
      const rows = await db
        .update(passkeys)
        .set({ counter: newCounter, backedUp, lastUsedAt: now })
        .where(and(eq(passkeys.id, id), eq(passkeys.counter, expectedCounter)))
        .returning({ id: passkeys.id });
      return rows.length > 0;
    },
  };
}
