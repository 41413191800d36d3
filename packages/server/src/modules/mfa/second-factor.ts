import type { SessionOpener } from '../auth/session-opener';
import { randomUUID } from 'node:crypto';
import { VERIFICATION_CODE_LENGTH, type ErrorCode, type MfaChallengeResponse, type TwoFactorMethod } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { randomDigits, randomToken, safeEqual, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { renderMail, type Mailer } from '../../platform/mail';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { burnVerificationTime, verifyPassword } from '../auth/passwords';
import type { SessionService } from '../sessions/service';
import { notifySecurityEvent } from '../notifications/service';

type SecurityEvent = 'two_factor_disabled' | 'two_factor_enabled' | 'passkey_added' | 'passkey_removed';
import type { DataProtection } from '../../platform/data-protection';
import { matchTotp, recoveryCodeHash } from './codes';
import { mfaQueries, type MfaTokenPurpose, type UserRow } from './queries';

/** A pending sign-in (mfa_token) lives 5 minutes. */
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;
/** Mailed codes live 10 minutes... */
export const CODE_TTL_SECONDS = 10 * 60;
/** ...and die after this many wrong guesses. */
export const CODE_MAX_ATTEMPTS = 5;

export interface SecondFactorDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  sessions: SessionService;
  log: { error(object: unknown, message: string): void };
  /** Turns a fully signed-in user into a session (auth/session-opener.ts). */
  openSession: SessionOpener;
  /** Seals TOTP seeds and keys recovery-code hashes (platform/data-protection.ts). */
  secrets: DataProtection;
}

/** What proves the second factor: a current code, or one of the recovery codes. */
export interface FactorProof {
  code?: string;
  recovery_code?: string;
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;

export function mailLanguage(user: UserRow, origin: RequestOrigin): 'en' | 'vi' {
  return user.language === 'vi' ? 'vi' : origin.lang;
}

/**
 * The second factor itself: mailed codes, TOTP and recovery-code checks, password re-checks,
 * and the pending sign-in (mfa_token) that password, email-code, passkey and social sign-in
 * answer when two-step verification is on. Built before the auth service, which asks it for
 * a challenge; it needs nothing from auth.
 */
export function createSecondFactorService(deps: SecondFactorDependencies) {
  const { clock, limiter, mailer } = deps;
  const queries = mfaQueries(deps.db);
  const failureRule = limits.signInFailuresPerAccount;
  /** Wrong codes of one user, at sign-in or in the account: throttled like wrong passwords. */
  const factorFailureKey = (userId: string) => rateKey(failureRule, `mfa:${userId}`);
  /** Wrong passwords re-entered by a signed-in user (disable, regenerate, password change). */
  const passwordFailureKey = (userId: string) => rateKey(failureRule, `reauth:${userId}`);

  /** Mail goes out in the background: its latency must not tell known emails from unknown ones. */
  function mailLater(to: string, rendered: ReturnType<typeof renderMail>): void {
    mailer.send({ to, ...rendered }).catch((error: unknown) => deps.log.error({ err: error }, 'mail not sent'));
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

  /**
   * A 6-digit code is stored salted with its row id: hashes of short codes would otherwise
   * collide across users (and with old rows) in the unique (purpose, hash) index.
   */
  const codeHash = (tokenId: string, code: string) => sha256(`code:${tokenId}:${code}`);

  /** Issues a new code of a purpose (older live ones die) and returns it; only its hash is kept. */
  async function issueCode(userId: string, purpose: MfaTokenPurpose): Promise<string> {
    const code = randomDigits(VERIFICATION_CODE_LENGTH);
    const now = clock.now();
    const id = randomUUID();
    await queries.retireTokens(userId, purpose, now);
    await queries.insertToken({
      id,
      userId,
      purpose,
      tokenHash: codeHash(id, code),
      expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
    });
    return code;
  }

  async function mailCode(user: UserRow, purpose: MfaTokenPurpose, origin: RequestOrigin): Promise<void> {
    const code = await issueCode(user.id, purpose);
    mailLater(user.email, renderMail('login_code', { lang: mailLanguage(user, origin), brand: origin.brand, name: user.fullName, code, validMinutes: CODE_TTL_SECONDS / 60 }));
  }

  /**
   * Checks a mailed code against the newest live one of its purpose: single use, expiring,
   * dead after CODE_MAX_ATTEMPTS wrong guesses. Every failure runs the same queries (a lookup
   * and one attempt count, against nobody when there is no account or no live code), so the
   * clock does not tell accounts apart.
   */
  async function checkCode(userId: string | undefined, purpose: MfaTokenPurpose, code: string): Promise<boolean> {
    const live = await queries.latestLiveToken(userId ?? randomUUID(), purpose, clock.now());
    const matches = safeEqual(live?.tokenHash ?? sha256(randomToken()), codeHash(live?.id ?? randomUUID(), code));
    if (live && live.attempts < CODE_MAX_ATTEMPTS && matches) return queries.markTokenUsed(live.id, clock.now());
    await queries.countAttempt(live?.id ?? randomUUID());
    return false;
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
   * Runs a code check throttled per user like passwords: a blocked user gets the 429 before
   * anything is checked; a failure counts and throws `error`; a success clears the count.
   */
  async function throttledCheck(userId: string, check: () => Promise<boolean>, error: ErrorCode = 'auth.code_invalid'): Promise<void> {
    const key = factorFailureKey(userId);
    rateLimited(await limiter.status(key, failureRule));
    if (!(await check())) {
      rateLimited(await limiter.consume(key, failureRule));
      throw new AppError(error);
    }
    await limiter.reset(key);
  }

  /** Requires a good second factor for the user's method (or a recovery code), throttled. */
  function requireFactor(user: UserRow, proof: FactorProof, emailPurpose: MfaTokenPurpose): Promise<void> {
    return throttledCheck(user.id, () => verifyFactor(user, proof, emailPurpose), proof.recovery_code ? 'auth.recovery_code_invalid' : 'auth.code_invalid');
  }

  /** A signed-in user re-entering their password; throttled per user. */
  async function confirmPassword(user: UserRow, password: string, field = 'password'): Promise<void> {
    const key = passwordFailureKey(user.id);
    rateLimited(await limiter.status(key, failureRule));
    const valid = user.passwordHash ? await verifyPassword(user.passwordHash, password) : (await burnVerificationTime(password), false);
    if (!valid) {
      rateLimited(await limiter.consume(key, failureRule));
      throw new AppError('auth.password_not_valid', {}, { fields: { [field]: 'Password not valid' } });
    }
    await limiter.reset(key);
  }

  /**
   * Mails the sign-in code of the email method when a challenge is issued, within the send
   * limits but without failing the sign-in: when a code went out moments ago and is still good,
   * that one stands; past the limits, resend answers how long to wait.
   */
  async function mailSignInCode(user: UserRow, origin: RequestOrigin): Promise<void> {
    const live = await queries.latestLiveToken(user.id, 'mfa_email', clock.now());
    const gap = await limiter.consume(gapKey('mfa_email', user.email), limits.codeSendInterval);
    if (live && live.attempts < CODE_MAX_ATTEMPTS && !gap.allowed) return;
    if (!(await limiter.consume(totalKey(user.email), limits.codeSendPerAccount)).allowed) return;
    await mailCode(user, 'mfa_email', origin);
  }

  async function liveChallenge(mfaToken: string) {
    const challenge = await queries.findLiveToken('mfa_challenge', sha256(mfaToken), clock.now());
    const user = challenge ? await queries.findUserById(challenge.userId) : undefined;
    if (!challenge || !user || !user.twoFactorMethod || challenge.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('auth.mfa_token_invalid');
    return { challenge, user };
  }

  /** Tells the owner, in the app and by mail, about a change to how their account is protected. */
  function notify(user: UserRow, origin: RequestOrigin, event: SecurityEvent, detail?: string): void {
    void notifySecurityEvent(deps, user.id, event, { brand: origin.brand, lang: mailLanguage(user, origin), detail });
  }

  return {
    mailLater,
    notify,
    throttleCodeSend,
    issueCode,
    mailCode,
    checkCode,
    requireFactor,
    throttledCheck,
    confirmPassword,

    /**
     * The answer to a first factor that passed when two-step verification is on: an opaque,
     * single-use mfa_token (5 minutes, stored as SHA-256). The email method mails a code now.
     */
    async challenge(user: UserRow, origin: RequestOrigin): Promise<MfaChallengeResponse> {
      const method = user.twoFactorMethod as TwoFactorMethod;
      const token = randomToken();
      const now = clock.now();
      await queries.insertToken({
        id: randomUUID(),
        userId: user.id,
        purpose: 'mfa_challenge',
        tokenHash: sha256(token),
        expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_SECONDS * 1000),
        payload: { method },
      });
      if (method === 'email') await mailSignInCode(user, origin);
      return { mfa_required: true, mfa_token: token, method };
    },

    /** Mails another sign-in code for a pending sign-in of the email method. */
    async resend(mfaToken: string, origin: RequestOrigin): Promise<void> {
      const { user } = await liveChallenge(mfaToken);
      if (user.twoFactorMethod !== 'email') throw new AppError('validation_error', {}, { fields: { mfa_token: 'This sign-in does not use email codes' } });
      await throttleCodeSend(user.email, origin.limitAddress, 'mfa_email');
      await mailCode(user, 'mfa_email', origin);
    },

    /** Completes a pending sign-in with the second factor; returns a new session. */
    async verify(input: { mfa_token: string } & FactorProof, origin: RequestOrigin): Promise<{ token: string; user: UserRow }> {
      const { challenge, user } = await liveChallenge(input.mfa_token);
      try {
        await requireFactor(user, input, 'mfa_email');
      } catch (error) {
        if (error instanceof AppError && error.status === 400) await queries.countAttempt(challenge.id);
        throw error;
      }
      if (!(await queries.markTokenUsed(challenge.id, clock.now()))) throw new AppError('auth.mfa_token_invalid');
      const { token } = await deps.openSession(user, origin);
      return { token, user };
    },
  };
}
