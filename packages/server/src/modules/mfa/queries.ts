import { and, count, eq, isNotNull, isNull, lt, notLike, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { recoveryCodes, users } from '../../db/schema';


/**
 * One-time tokens of this module:
 * - login_code: a mailed 6-digit sign-in code (email-code sign-in);
 * - mfa_challenge: "the first factor passed", the opaque mfa_token of a pending sign-in;
 * - mfa_email: a mailed 6-digit code for the email second factor at sign-in;
 * - two_factor_email: a mailed 6-digit code to turn on (or confirm) the email second factor;
 * - totp_setup: a pending TOTP secret (in payload) until a valid code turns it on.
 */
export type MfaTokenPurpose = 'login_code' | 'mfa_challenge' | 'mfa_email' | 'two_factor_email' | 'totp_setup';

export function mfaQueries(db: Database) {

  return {
    // The user's second factor: columns of users that change only with the recovery codes.

    /** Turns a method on unless one is on already (a concurrent enable); returns whether it did. */
    async enableTwoFactor(userId: string, method: 'totp' | 'email', totpSecret: string | null, totpLastStep: number | null, now: Date): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ twoFactorMethod: method, totpSecret, totpLastStep, updatedAt: now })
        .where(and(eq(users.id, userId), isNull(users.twoFactorMethod)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    async disableTwoFactor(userId: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(users)
          .set({ twoFactorMethod: null, totpSecret: null, totpLastStep: null, updatedAt: now })
          .where(and(eq(users.id, userId), sql`${users.twoFactorMethod} is not null`))
          .returning({ id: users.id });
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        return rows.length > 0;
      });
    },

    /**
     * Compare-and-set of the last accepted TOTP step: succeeds only when `step` is newer than
     * the stored one, so two concurrent requests with the same code cannot both win.
     */
    async advanceTotpStep(userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), eq(users.twoFactorMethod, 'totp'), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    // Recovery codes.

    /** Replaces every recovery code of a user with new ones (hashes), in one transaction. */
    async replaceRecoveryCodes(userId: string, rows: Array<{ id: string; codeHash: string }>, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(rows.map((row) => ({ ...row, userId, createdAt: now })));
      });
    },

    /** Atomically uses one unused recovery code by hash; false when none matched. */
    async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return rows.length > 0;
    },

    /**
     * Stored secrets from before they were protected: TOTP seeds in plain text and recovery
     * codes as bare SHA-256. `protect` turns each into its protected form; every write is a
     * compare-and-set on the old value, so nodes starting together do each row once.
     */
    async protectLegacySecrets(protect: { seal(value: string): string; keyedHash(value: string): string }): Promise<number> {
      let changed = 0;
      const seeds = await db
        .select({ id: users.id, secret: users.totpSecret })
        .from(users)
        .where(and(isNotNull(users.totpSecret), notLike(users.totpSecret, 'v1:%')));
      for (const { id, secret } of seeds) {
        const rows = await db.update(users).set({ totpSecret: protect.seal(secret!) }).where(and(eq(users.id, id), eq(users.totpSecret, secret!))).returning({ id: users.id });
        changed += rows.length;
      }
      const codes = await db.select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash }).from(recoveryCodes).where(notLike(recoveryCodes.codeHash, 'k1:%'));
      for (const { id, codeHash } of codes) {
        const rows = await db
          .update(recoveryCodes)
          .set({ codeHash: protect.keyedHash(codeHash) })
          .where(and(eq(recoveryCodes.id, id), eq(recoveryCodes.codeHash, codeHash)))
          .returning({ id: recoveryCodes.id });
        changed += rows.length;
      }
      return changed;
    },

    async countRecoveryCodes(userId: string): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return Number(row?.value ?? 0);
    },
  };
}

export type MfaQueries = ReturnType<typeof mfaQueries>;
