import { randomUUID } from 'node:crypto';
import { confirmationPath, paths, type ActivationResponse, type SignInRequest, type SignUpRequest } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import { requireCaptcha as requireSolvedCaptcha, type CaptchaVerifier } from '../../platform/captcha';
import type { Clock } from '../../platform/clock';
import { safeEqual } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { sendInBackground, type Mailer, type RenderedMail } from '../../platform/mail';
import { createOneTimeTokens } from '../../platform/one-time-tokens';
import { limits, rateLimited, rateKey, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import type { SessionService, SignInResult } from '../sessions';
import { hashPassword, isCommonPassword } from '../../platform/passwords';
import { createUserService, replyLanguage, type UserRow } from '../users';
import type { SignIn } from './sign-in';
import { activationMail, signupExistingMail } from './mail';
import { authQueries, type TokenPurpose } from './queries';

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
  /** The sign-in pipeline (sign-in.ts). */
  signIn: SignIn;
  /**
   * Runs once an account is activated (an organization invitation it signed up from joins it,
   * bound in app.ts). Its failure is logged, never the activation's.
   */
  afterActivation?: (user: { id: string; email: string }) => Promise<void>;
}

export type { SignInResult } from '../sessions';

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
  /**
   * The browser that asked for the link (registration-browser.ts): the credentials are kept
   * only when the link is followed there. Absent on links issued before links named one.
   */
  browser?: string;
}

/** The credentials in a token's payload; undefined for links issued before links carried them. */
function activationCredentials(payload: Record<string, unknown> | null): ActivationCredentials | undefined {
  if (!payload || typeof payload.full_name !== 'string' || typeof payload.keeps_passkeys !== 'boolean') return undefined;
  const hash = payload.password_hash;
  if (hash !== null && typeof hash !== 'string') return undefined;
  const browser = typeof payload.browser === 'string' ? payload.browser : undefined;
  return { password_hash: hash, full_name: payload.full_name, keeps_passkeys: payload.keeps_passkeys, ...(browser ? { browser } : {}) };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Sign-up, activation and password sign-in. Answers never reveal whether an account exists. */
export function createAuthService(deps: AuthDependencies) {
  const { config, clock, mailer, limiter, captcha } = deps;
  const queries = authQueries(deps.db);
  const users = createUserService(deps.db);

  const tokens = createOneTimeTokens<TokenPurpose>(deps);

  /** Mail goes out in the background: its latency must not tell known emails from unknown ones. */
  function mailLater(to: string, rendered: RenderedMail): void {
    sendInBackground(mailer, deps.log, { to, ...rendered });
  }

  /**
   * Mails an activation link bound to one registration's credentials: following it gives the
   * account exactly those (see ActivationCredentials). Newer links never void older ones (each
   * lives 24 h), so a stranger registering or resending for the same address cannot void the
   * owner's link.
   */
  async function sendActivation(user: UserRow, origin: RequestOrigin, registration: ActivationCredentials): Promise<void> {
    const token = await tokens.issueLink(user.id, 'activation', ACTIVATION_TTL_SECONDS, { payload: { ...registration }, retireOthers: false });
    const link = `${originFor(config, origin.brand)}${confirmationPath(token)}`;
    mailLater(user.email, activationMail({ lang: replyLanguage(user, origin), brand: origin.brand, name: registration.full_name, link }));
  }

  /** The credentials an account was created with: what resending its activation keeps. */
  const ownCredentials = (user: UserRow, browser: string): ActivationCredentials => ({ password_hash: user.passwordHash, full_name: user.fullName, keeps_passkeys: true, browser });

  const requireCaptcha = (answer: string | undefined, ip: string) => requireSolvedCaptcha(captcha, answer, ip);

  /** Refuses common and breached passwords, naming the request's own field. */
  function assertAcceptablePassword(password: string, field = 'password'): void {
    if (isCommonPassword(password)) {
      throw new AppError('auth.password_too_common', {}, { fields: { [field]: 'Choose a less common password' } });
    }
  }

  /**
   * Creates an inactive account and mails its activation link; when the email is taken, mails
   * the owner instead (or the activation again, if never activated). Returns the new account,
   * or undefined when none was made. The caller answers the same either way.
   */
  async function registerAccount(account: NewAccount, origin: RequestOrigin, browser: string): Promise<UserRow | undefined> {
    const existing = await users.findByEmail(account.email);
    if (existing) {
      if (existing.activatedAt) {
        mailLater(existing.email, signupExistingMail({
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
        await users.setPendingCredentials(existing.id, { passwordHash: null, keepPasskeys: false }, clock.now());
        await sendActivation(existing, origin, { password_hash: account.passwordHash, full_name: account.fullName, keeps_passkeys: false, browser });
      }
      return undefined;
    }
    const now = clock.now();
    const id = account.id ?? randomUUID();
    const inserted = await users.insert({
      id,
      email: account.email,
      fullName: account.fullName,
      passwordHash: account.passwordHash,
      language: account.language,
      customerLanguage: account.language,
      createdAt: now,
      updatedAt: now,
    });
    const user = inserted ? await users.findById(id) : undefined;
    if (user) await sendActivation(user, origin, ownCredentials(user, browser));
    return user;
  }

  return {
    assertAcceptablePassword,
    requireCaptcha,
    tokens,
    mailLater,
    registerAccount,

    async signUp(input: SignUpRequest, origin: RequestOrigin, browser: string): Promise<{ email: string }> {
      rateLimited(await limiter.consume(rateKey(limits.signUpPerIp, origin.limitAddress), limits.signUpPerIp));
      await requireCaptcha(input.captcha, origin.ip);
      assertAcceptablePassword(input.password);
      // Hash before looking up, so both paths spend the same time.
      const passwordHash = await hashPassword(input.password);
      await registerAccount({ email: input.email, fullName: input.full_name, passwordHash, language: input.language ?? origin.lang }, origin, browser);
      return { email: input.email };
    },

    async resendActivation(email: string, origin: RequestOrigin, browser: string, captcha?: string): Promise<{ email: string }> {
      rateLimited(await limiter.consume(rateKey(limits.recoveryPerIp, `activation:${origin.limitAddress}`), limits.recoveryPerIp));
      // Each answer mails someone: a script must not turn it into a mail cannon.
      await requireCaptcha(captcha, origin.ip);
      rateLimited(await limiter.consume(rateKey(limits.codeSendPerAccount, `activation:${email}`), limits.codeSendPerAccount));
      const user = await users.findByEmail(email);
      if (user && !user.activatedAt) await sendActivation(user, origin, ownCredentials(user, browser));
      return { email };
    },

    /**
     * Activates the account a link was mailed for, giving it the credentials of that
     * registration when the link is followed in the browser that asked for it (`browser`, the
     * hash of its registration cookie), and none at all elsewhere: whoever signed up with
     * someone else's address keeps nothing once the owner follows the link.
     */
    /**
     * An operator mails a new activation link (the console). It keeps none of the account's
     * credentials: they may be a stranger's who registered the address, and the operator cannot
     * tell; the owner proves the mailbox, then signs in with a mailed code or resets the password.
     */
    async resendActivationByOperator(user: UserRow, origin: RequestOrigin): Promise<void> {
      if (user.activatedAt) return;
      await sendActivation(user, origin, { password_hash: null, full_name: user.fullName, keeps_passkeys: false });
    },

    async activate(token: string, browser?: string): Promise<ActivationResponse> {
      const claimed = await tokens.claimLink('activation', token);
      if (!claimed) throw new AppError('auth.activation_link_invalid');
      const registration = activationCredentials(claimed.payload);
      // (An account active already keeps what it has: setPendingCredentials touches inactive ones only.)
      if (registration) {
        const { password_hash: passwordHash, full_name: fullName, keeps_passkeys: keepPasskeys } = registration;
        const sameBrowser = !registration.browser || (browser !== undefined && safeEqual(registration.browser, browser));
        await users.setPendingCredentials(claimed.userId, sameBrowser ? { passwordHash, fullName, keepPasskeys } : { passwordHash: null, fullName, keepPasskeys: false }, clock.now());
      }
      await users.activate(claimed.userId, clock.now());
      const user = await users.findById(claimed.userId);
      if (user && deps.afterActivation) await deps.afterActivation(user).catch((error: unknown) => deps.log.error({ err: error }, 'after activation'));
      return { email: user?.email ?? '', needs_password: !!user && !user.passwordHash && !(await queries.hasPasskeys(user.id)) };
    },

    /** Password sign-in: a session, or the mfa challenge when two-step is on (the sign-in pipeline's password way in). */
    signIn: (input: SignInRequest, origin: RequestOrigin): Promise<SignInResult> => deps.signIn.withPassword(input, origin),
  };
}
