import { type ChallengeMethod, type ErrorCode, type MfaChallengeResponse } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError, fieldError } from '../../platform/errors';
import { sendInBackground, type Mailer, type RenderedMail } from '../../platform/mail';
import { CODE_MAX_ATTEMPTS, createOneTimeTokens } from '../../platform/one-time-tokens';
import { failureDelay, limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { burnVerificationTime, verifyPassword } from '../../platform/passwords';
import { createUserService, replyLanguage, type UserRow } from '../users';
import type { SessionService } from '../sessions';
import { recordMemberEvent } from '../audit';
import { notifySecurityEvent } from '../notifications';

type SecurityEvent = 'two_factor_disabled' | 'two_factor_enabled' | 'passkey_added' | 'passkey_removed';
import type { DataProtection } from '../../platform/data-protection';
import { matchTotp, recoveryCodeHash } from './codes';
import { loginCodeMail } from './mail';
import { mfaQueries, type MfaTokenPurpose } from './queries';

/** A pending sign-in (mfa_token) lives 5 minutes. */
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;
/** Mailed codes live 10 minutes. */
export const CODE_TTL_SECONDS = 10 * 60;

export interface SecondFactorDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  sessions: SessionService;
  log: { error(object: unknown, message: string): void };
  /** Seals TOTP seeds and keys recovery-code hashes (platform/data-protection.ts). */
  secrets: DataProtection;
}

/** What proves the second factor: a current code, or one of the recovery codes (or the password, for method `password`). */
export interface FactorProof {
  code?: string;
  recovery_code?: string;
  password?: string;
  /** The captcha answer a second step needs once the account's failure budget is spent. */
  captcha?: string;
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;

/**
 * The second factor itself: mailed codes, TOTP and recovery-code checks, password re-checks,
 * and the pending sign-in (mfa_token) that password, email-code, passkey and social sign-in
 * answer when two-step verification is on. Built before the auth service, which asks it for
 * a challenge; it needs nothing from auth.
 */
export function createSecondFactorService(deps: SecondFactorDependencies) {
  const { clock, limiter, mailer } = deps;
  const queries = mfaQueries(deps.db);
  const tokens = createOneTimeTokens<MfaTokenPurpose>(deps);
  const users = createUserService(deps.db);
  const failureRule = limits.signInFailuresPerAccount;
  /** Wrong codes of one user, at sign-in or in the account: throttled like wrong passwords. */
  const factorFailureKey = (userId: string) => rateKey(failureRule, `mfa:${userId}`);
  /** Wrong passwords re-entered by a signed-in user (disable, regenerate, password change). */
  const passwordFailureKey = (userId: string) => rateKey(failureRule, `reauth:${userId}`);

  /** Mail goes out in the background: its latency must not tell known emails from unknown ones. */
  function mailLater(to: string, rendered: RenderedMail): void {
    sendInBackground(mailer, deps.log, { to, ...rendered });
  }

  /** One code of a kind every 30 seconds per address (kinds apart, so enabling then signing in works). */
  const gapKey = (purpose: MfaTokenPurpose, address: string) => rateKey(limits.codeSendInterval, `${purpose}:${address}`);
  /** Five codes of every kind together per 15 minutes per address. */
  const totalKey = (address: string) => rateKey(limits.codeSendPerAccount, address);

  /**
   * Limits on mailing a code to `address`: one of a kind every 30 seconds, five per 15 minutes,
   * and a per-IP cap across addresses. Throws the 429 naming the seconds to wait.
   */
  async function throttleCodeSend(address: string, ip: string, purpose: MfaTokenPurpose): Promise<void> {
    rateLimited(await limiter.consume(rateKey(limits.codeSendPerIp, ip), limits.codeSendPerIp));
    rateLimited(await limiter.consume(gapKey(purpose, address), limits.codeSendInterval));
    rateLimited(await limiter.consume(totalKey(address), limits.codeSendPerAccount));
  }

  async function mailCode(user: UserRow, purpose: MfaTokenPurpose, origin: RequestOrigin): Promise<void> {
    const code = await tokens.issueCode(user.id, purpose, CODE_TTL_SECONDS);
    mailLater(user.email, loginCodeMail({ lang: replyLanguage(user, origin), brand: origin.brand, name: user.fullName, code, validMinutes: CODE_TTL_SECONDS / 60 }));
  }

  /** Whether a mailed code is the newest live one of its purpose (then used up); see useCode (`subject`: what was typed, for nobody's account). */
  async function checkCode(userId: string | undefined, purpose: MfaTokenPurpose, code: string, subject?: string): Promise<boolean> {
    return (await tokens.useCode(userId, purpose, code, subject)) !== undefined;
  }

  /** Whether the proof is good for this user's method; uses it up when it is (codes are single use). */
  async function verifyFactor(user: UserRow, proof: FactorProof, emailPurpose: MfaTokenPurpose): Promise<boolean> {
    if (proof.recovery_code) return queries.useRecoveryCode(user.id, deps.secrets.keyedHash(recoveryCodeHash(proof.recovery_code)), clock.now());
    if (!proof.code) return false;
    if (user.twoFactorMethod === 'totp' && user.totpSecret) {
      const step = await matchTotp(deps.secrets.open(user.totpSecret), proof.code, clock.now(), user.totpLastStep);
      // Accepted once: the step is recorded with a compare-and-set, so a replay (or a racing twin) loses.
      return step !== null && queries.advanceTotpStep(user.id, step);
    }
    if (user.twoFactorMethod === 'email') return checkCode(user.id, emailPurpose, proof.code);
    return false;
  }

  /**
   * Runs a check throttled per user like passwords, one atomic step before anything is
   * checked: parallel tries never run more than the budget; once it is spent, each further
   * try waits a growing delay (429 naming the seconds). A failure throws `error`; a success
   * clears the count. `onLocked` hears of the failure that spent the budget: the try that took
   * its last place (one atomic count), so one lock is told once, however many tries run in
   * parallel or are refused afterwards.
   */
  async function throttled(key: string, check: () => Promise<boolean>, fail: () => AppError, onLocked?: () => Promise<void>): Promise<void> {
    const decision = await limiter.attempt(key, failureRule, failureDelay());
    rateLimited(decision);
    if (!(await check())) {
      if (decision.count === failureRule.limit) await onLocked?.();
      throw fail();
    }
    await limiter.reset(key);
  }

  /** A code check (second step, enabling two-step) throttled per user: see throttled. */
  function throttledCheck(userId: string, check: () => Promise<boolean>, error: ErrorCode = 'auth.code_invalid', onLocked?: () => Promise<void>): Promise<void> {
    return throttled(factorFailureKey(userId), check, () => new AppError(error), onLocked);
  }

  /** Requires a good second factor for the user's method (or a recovery code), throttled. */
  function requireFactor(user: UserRow, proof: FactorProof, emailPurpose: MfaTokenPurpose, onLocked?: () => Promise<void>): Promise<void> {
    return throttledCheck(user.id, () => verifyFactor(user, proof, emailPurpose), proof.recovery_code ? 'auth.recovery_code_invalid' : 'auth.code_invalid', onLocked);
  }

  /** A signed-in user re-entering their password; throttled per user (see throttled). */
  function confirmPassword(user: UserRow, password: string, field = 'password'): Promise<void> {
    return throttled(
      passwordFailureKey(user.id),
      async () => (user.passwordHash ? verifyPassword(user.passwordHash, password) : (await burnVerificationTime(password), false)),
      () => new AppError('auth.password_not_valid', {}, { fields: { [field]: 'Password not valid' } }),
    );
  }

  /**
   * Mails the sign-in code of the email method when a challenge is issued, within the send
   * limits but without failing the sign-in: when a code went out moments ago and is still good,
   * that one stands; past the limits, resend answers how long to wait.
   */
  async function mailSignInCode(user: UserRow, origin: RequestOrigin): Promise<void> {
    const live = await tokens.latest(user.id, 'mfa_email');
    const gap = await limiter.consume(gapKey('mfa_email', user.email), limits.codeSendInterval);
    if (live && live.attempts < CODE_MAX_ATTEMPTS && !gap.allowed) return;
    if (!(await limiter.consume(totalKey(user.email), limits.codeSendPerAccount)).allowed) return;
    await mailCode(user, 'mfa_email', origin);
  }

  async function liveChallenge(mfaToken: string) {
    const challenge = await tokens.findLink('mfa_challenge', mfaToken);
    const user = challenge ? await users.findById(challenge.userId) : undefined;
    if (!challenge || !user || !user.twoFactorMethod || challenge.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('auth.mfa_token_invalid');
    return { challenge, user };
  }

  /** Tells the owner, in the app and by mail, about a change to how their account is protected. */
  function notify(user: UserRow, origin: RequestOrigin, event: SecurityEvent, detail?: string): void {
    void notifySecurityEvent(deps, user.id, event, { brand: origin.brand, lang: replyLanguage(user, origin), detail });
    // The same event in the audit log of the member's organization (none: one lookup, nothing written).
    const about: Record<string, string | null> = event.startsWith('passkey') ? { name: detail ?? null } : { method: detail ?? null };
    void recordMemberEvent(deps, user, event, origin, about);
  }

  return {
    mailLater,
    notify,
    throttleCodeSend,
    mailCode,
    checkCode,
    requireFactor,
    throttledCheck,
    confirmPassword,

    /**
     * The answer to a first factor that passed when two-step verification is on: an opaque,
     * single-use mfa_token (5 minutes, stored as SHA-256). The email method mails a code now.
     */
    async challenge(user: UserRow, origin: RequestOrigin, amr: readonly string[] = []): Promise<MfaChallengeResponse> {
      // One mailbox is not two factors: a mailed sign-in code and an emailed second step prove
      // the same thing, so after a mailed code the second step of the email method is the password.
      const mailboxOnly = user.twoFactorMethod === 'email' && amr.includes('otp') && !amr.includes('pwd') && !amr.includes('hwk');
      const method: ChallengeMethod = mailboxOnly ? 'password' : (user.twoFactorMethod as ChallengeMethod);
      // The factors passed so far ride along, so the finished sign-in states them all (amr).
      const token = await tokens.issueLink(user.id, 'mfa_challenge', MFA_TOKEN_TTL_SECONDS, { payload: { method, amr }, retireOthers: false });
      if (method === 'email') await mailSignInCode(user, origin);
      return { mfa_required: true, mfa_token: token, method };
    },

    /** Mails another sign-in code for a pending sign-in of the email method. */
    async resend(mfaToken: string, origin: RequestOrigin): Promise<void> {
      const { challenge, user } = await liveChallenge(mfaToken);
      if (user.twoFactorMethod !== 'email' || challenge.payload?.method === 'password') throw fieldError('mfa_token', 'auth.mfa_not_email');
      await throttleCodeSend(user.email, origin.limitAddress, 'mfa_email');
      await mailCode(user, 'mfa_email', origin);
    },

    /** Whether the user's budget of failed second steps is spent: each further try then needs the captcha (and waits the delay). */
    async secondStepBudgetSpent(userId: string): Promise<boolean> {
      return (await limiter.peek(factorFailureKey(userId), failureRule)) >= failureRule.limit;
    },

    /** The pending sign-in an mfa_token stands for, and its user; 400 auth.mfa_token_invalid when dead. */
    pendingSignIn: liveChallenge,

    /**
     * Uses up a pending sign-in with the second factor (wrong proofs count against the token
     * and, like passwords, against the user); answers the factors its first step passed.
     * `onLocked`: the wrong proof that spent the user's budget (see throttled).
     */
    async completePendingSignIn(mfaToken: string, proof: FactorProof, onLocked?: () => Promise<void>): Promise<{ amr: string[]; proved: 'pwd' | 'otp' }> {
      const { challenge, user } = await liveChallenge(mfaToken);
      // One of the token's guesses is taken before the proof is checked, in one statement.
      if (!(await tokens.takeAttempt(challenge.id))) throw new AppError('auth.mfa_token_invalid');
      if (challenge.payload?.method === 'password' && !proof.recovery_code) {
        // The mailbox was the first step: the password (or a recovery code) is the second.
        const password = proof.password ?? '';
        await throttledCheck(user.id, async () => (user.passwordHash ? verifyPassword(user.passwordHash, password) : (await burnVerificationTime(password), false)), 'auth.invalid_credentials', onLocked);
      } else {
        if (proof.password) throw new AppError('auth.code_invalid');
        await requireFactor(user, proof, 'mfa_email', onLocked);
      }
      if (!(await tokens.markUsed(challenge.id))) throw new AppError('auth.mfa_token_invalid');
      const amr = Array.isArray(challenge.payload?.amr) ? challenge.payload.amr.filter((value): value is string => typeof value === 'string') : [];
      return { amr, proved: proof.password ? 'pwd' : 'otp' };
    },
  };
}
