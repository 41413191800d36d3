import { randomUUID } from 'node:crypto';
import { confirmationPath, paths, type ActivationResponse, type MfaChallengeResponse, type SignInRequest, type SignUpRequest } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { CaptchaVerifier } from '../../platform/captcha';
import type { Clock } from '../../platform/clock';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { renderMail, type Mailer } from '../../platform/mail';
import { CAPTCHA_AFTER_FAILURES, limits, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import type { SessionService } from '../sessions/service';
import { burnVerificationTime, hashPassword, isCommonPassword, needsRehash, verifyPassword } from './passwords';
import type { SessionOpener } from './session-opener';
import { authQueries, type TokenPurpose, type UserRow } from './queries';

const ACTIVATION_TTL_SECONDS = 24 * 60 * 60;

export interface AuthDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  captcha: CaptchaVerifier;
  sessions: SessionService;
  log: { error(object: unknown, message: string): void };
  /** Issues the pending sign-in (mfa_token) when two-step verification is on (modules/mfa). */
  secondFactor?: { challenge(user: UserRow, origin: RequestOrigin): Promise<MfaChallengeResponse> };
  /** Turns a fully signed-in user into a session (session-opener.ts). */
  openSession: SessionOpener;
}

/** What every sign-in answers: a new session, or the second-factor step when two-step is on. */
export type SignInResult = { token: string; user: UserRow } | MfaChallengeResponse;

/** A new account: the password is null for one made with a passkey. */
export interface NewAccount {
  id?: string;
  email: string;
  fullName: string;
  passwordHash: string | null;
  language: string;
}

/**
 * What an activation link carries: the credentials of the registration that mailed it.
 * Activating an account gives it exactly these, so credentials nobody proved the mailbox for
 * (a stranger who registered the address first) never survive activation.
 */
export interface ActivationCredentials {
  password_hash: string | null;
  full_name: string;
  /** False when the link came from a later registration than the one that made the account. */
  keeps_passkeys: boolean;
}

/** The credentials in a token's payload; undefined for links issued before links carried them. */
function activationCredentials(payload: Record<string, unknown> | null): ActivationCredentials | undefined {
  if (!payload || typeof payload.full_name !== 'string' || typeof payload.keeps_passkeys !== 'boolean') return undefined;
  const hash = payload.password_hash;
  if (hash !== null && typeof hash !== 'string') return undefined;
  return { password_hash: hash, full_name: payload.full_name, keeps_passkeys: payload.keeps_passkeys };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Sign-up, activation and password sign-in. Answers never reveal whether an account exists. */
export function createAuthService(deps: AuthDependencies) {
  const { config, clock, mailer, limiter, captcha } = deps;
  const queries = authQueries(deps.db);

  /** Mail goes out in the background: its latency must not tell known emails from unknown ones. */
  function mailLater(to: string, rendered: ReturnType<typeof renderMail>): void {
    mailer.send({ to, ...rendered }).catch((error: unknown) => deps.log.error({ err: error }, 'mail not sent'));
  }

  async function issueToken(
    userId: string,
    purpose: TokenPurpose,
    ttlSeconds: number,
    options: { secret?: string; payload?: Record<string, unknown>; retireOthers?: boolean } = {},
  ): Promise<string> {
    const { secret = randomToken(), payload, retireOthers = true } = options;
    const now = clock.now();
    if (retireOthers) await queries.retireTokens(userId, purpose, now);
    await queries.insertToken({
      id: randomUUID(),
      userId,
      purpose,
      tokenHash: sha256(secret),
      payload: payload ?? null,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    });
    return secret;
  }

  /**
   * Mails an activation link bound to one registration's credentials: following it gives the
   * account exactly those (see ActivationCredentials). Newer links never void older ones (each
   * lives 24 h), so a stranger registering or resending for the same address cannot void the
   * owner's link.
   */
  async function sendActivation(user: UserRow, origin: RequestOrigin, registration: ActivationCredentials): Promise<void> {
    const token = await issueToken(user.id, 'activation', ACTIVATION_TTL_SECONDS, { payload: { ...registration }, retireOthers: false });
    const link = `${originFor(config, origin.brand)}${confirmationPath(token)}`;
    mailLater(user.email, renderMail('activation', { lang: user.language === 'vi' ? 'vi' : origin.lang, brand: origin.brand, name: registration.full_name, link }));
  }

  /** The credentials an account was created with: what resending its activation keeps. */
  const ownCredentials = (user: UserRow): ActivationCredentials => ({ password_hash: user.passwordHash, full_name: user.fullName, keeps_passkeys: true });

  async function requireCaptcha(answer: string | undefined, ip: string): Promise<void> {
    if (!answer) throw new AppError('auth.captcha_required', {}, { captcha_required: true });
    if (!(await captcha.verify(answer, ip))) throw new AppError('auth.captcha_invalid', {}, { captcha_required: true });
  }

  /** Refuses common and breached passwords, naming the request's own field. */
  function assertAcceptablePassword(password: string, field = 'password'): void {
    if (isCommonPassword(password)) {
      throw new AppError('auth.password_too_common', {}, { fields: { [field]: 'This password is too common. Choose another one' } });
    }
  }

  /**
   * The end of every sign-in whose first factor passed (password, email code, passkey, and
   * later social): a session, or the mfa challenge when the account has two-step verification
   * and the sign-in did not already prove both factors.
   */
  async function completeSignIn(user: UserRow, origin: RequestOrigin, options: { bothFactors?: boolean } = {}): Promise<SignInResult> {
    if (!user.activatedAt) throw new AppError('auth.not_activated');
    // A user-verified passkey is something you have and something you know or are: both factors.
    if (user.twoFactorMethod && !options.bothFactors) {
      // Fail closed: an account with a second factor never gets a session without it.
      if (!deps.secondFactor) throw new Error('two-step verification is on but no second-factor service is wired');
      return deps.secondFactor.challenge(user, origin);
    }
    const { token } = await deps.openSession(user, origin);
    return { token, user };
  }

  /**
   * Creates an inactive account and mails its activation link; when the email is taken, mails
   * the owner instead (or the activation again, if never activated). Returns the new account,
   * or undefined when none was made. The caller answers the same either way.
   */
  async function registerAccount(account: NewAccount, origin: RequestOrigin): Promise<UserRow | undefined> {
    const existing = await queries.findUserByEmail(account.email);
    if (existing) {
      if (existing.activatedAt) {
        mailLater(existing.email, renderMail('signup_existing', {
          lang: origin.lang,
          brand: origin.brand,
          name: existing.fullName,
          link: `${originFor(config, origin.brand)}${paths.login}`,
          resetLink: `${originFor(config, origin.brand)}${paths.forgot}`,
        }));
      } else {
        // Never activated, and now claimed twice: whoever follows this mail gets this
        // registration's password, and the account keeps none of the earlier one's (a
        // stranger's password or passkey), so a resent link cannot bring them back either.
        await queries.setPendingCredentials(existing.id, { passwordHash: null, keepPasskeys: false }, clock.now());
        await sendActivation(existing, origin, { password_hash: account.passwordHash, full_name: account.fullName, keeps_passkeys: false });
      }
      return undefined;
    }
    const now = clock.now();
    const id = account.id ?? randomUUID();
    const inserted = await queries.insertUser({
      id,
      email: account.email,
      fullName: account.fullName,
      passwordHash: account.passwordHash,
      language: account.language,
      customerLanguage: account.language,
      createdAt: now,
      updatedAt: now,
    });
    const user = inserted ? await queries.findUserById(id) : undefined;
    if (user) await sendActivation(user, origin, ownCredentials(user));
    return user;
  }

  return {
    assertAcceptablePassword,
    requireCaptcha,
    issueToken,
    mailLater,
    completeSignIn,
    registerAccount,

    async signUp(input: SignUpRequest, origin: RequestOrigin): Promise<{ email: string }> {
      rateLimited(await limiter.consume(`signup:ip:${origin.limitAddress}`, limits.signUpPerIp));
      await requireCaptcha(input.captcha, origin.ip);
      assertAcceptablePassword(input.password);
      // Hash before looking up, so both paths spend the same time.
      const passwordHash = await hashPassword(input.password);
      await registerAccount({ email: input.email, fullName: input.full_name, passwordHash, language: input.language ?? origin.lang }, origin);
      return { email: input.email };
    },

    async resendActivation(email: string, origin: RequestOrigin, captcha?: string): Promise<{ email: string }> {
      rateLimited(await limiter.consume(`activation:ip:${origin.limitAddress}`, limits.recoveryPerIp));
      // Each answer mails someone: a script must not turn it into a mail cannon.
      await requireCaptcha(captcha, origin.ip);
      rateLimited(await limiter.consume(`activation:${email}`, limits.codeSendPerAccount));
      const user = await queries.findUserByEmail(email);
      if (user && !user.activatedAt) await sendActivation(user, origin, ownCredentials(user));
      return { email };
    },

    async activate(token: string): Promise<ActivationResponse> {
      const claimed = await queries.claimToken('activation', sha256(token), clock.now());
      if (!claimed) throw new AppError('auth.activation_link_invalid');
      const registration = activationCredentials(claimed.payload);
      if (registration) {
        const { password_hash: passwordHash, full_name: fullName, keeps_passkeys: keepPasskeys } = registration;
        await queries.setPendingCredentials(claimed.userId, { passwordHash, fullName, keepPasskeys }, clock.now());
      }
      await queries.activateUser(claimed.userId, clock.now());
      const user = await queries.findUserById(claimed.userId);
      return { email: user?.email ?? '', needs_password: !!user && !user.passwordHash && !(await queries.hasPasskeys(user.id)) };
    },

    /** Password sign-in; returns a new session token, or the mfa challenge when two-step is on. */
    /**
     * Password sign-in. Failures count three ways: per IP (refused past the limit), per account
     * whatever identifier was typed (a captcha past three), and per account and IP (refused past
     * the limit) — so a stranger can slow a guesser down but never lock the owner out.
     */
    async signIn(input: SignInRequest, origin: RequestOrigin): Promise<SignInResult> {
      const ipKey = `signin:ip:${origin.limitAddress}`;
      rateLimited(await limiter.status(ipKey, limits.signInPerIp));
      const user = await queries.findUserByIdentifier(input.email);
      const accountKey = `signin:fail:${user ? user.id : input.email.toLowerCase()}`;
      const lockKey = `${accountKey}:${origin.limitAddress}`;
      rateLimited(await limiter.status(lockKey, limits.signInFailuresPerAccount));
      const failures = await limiter.peek(accountKey, limits.signInFailuresPerAccount);
      if (failures >= CAPTCHA_AFTER_FAILURES) await requireCaptcha(input.captcha, origin.ip);

      const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await burnVerificationTime(input.password), false);
      if (!user || !valid) {
        await limiter.consume(ipKey, limits.signInPerIp);
        await limiter.consume(lockKey, limits.signInFailuresPerAccount);
        const decision = await limiter.consume(accountKey, limits.signInFailuresPerAccount);
        throw new AppError('auth.invalid_credentials', {}, { captcha_required: decision.count >= CAPTCHA_AFTER_FAILURES });
      }
      if (!user.activatedAt) throw new AppError('auth.not_activated');
      await Promise.all([limiter.reset(accountKey), limiter.reset(lockKey)]);
      if (needsRehash(user.passwordHash!)) {
        await queries.setPasswordHash(user.id, await hashPassword(input.password), clock.now(), false);
      }
      return completeSignIn(user, origin);
    },

    findUserById: (id: string) => queries.findUserById(id),
  };
}
