import type { Database } from '../../db/client';
import type { CaptchaVerifier } from '../../platform/captcha';
import { requireCaptcha } from '../../platform/captcha';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { burnVerificationTime, hashPassword, needsRehash, verifyPassword } from '../../platform/passwords';
import { CAPTCHA_AFTER_FAILURES, failureDelay, limits, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { claimRestoreToken } from '../account';
import type { FactorProof, SecondFactorService } from '../mfa';
import type { AuthMethod } from '../sessions';
import { createUserService, type UserRow } from '../users';
import { signInIpKey } from './address-budget';
import { withMfa, type WayIn } from './pipeline';

export { signInIpKey } from './address-budget';

export interface WaysInDependencies {
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  captcha: CaptchaVerifier;
  secondFactor: Pick<SecondFactorService, 'checkCode' | 'pendingSignIn' | 'completePendingSignIn' | 'secondStepBudgetSpent'>;
  /** The operators' dashboard counters (modules/admin-dashboard, bound in app.ts): never throws. */
  countEvent?: (event: 'lockout') => Promise<void>;
  /** The account a password sign-in names (email or username); the users table's own lookup when absent. */
  findAccount?: (identifier: string) => Promise<UserRow | undefined>;
}

const AUTH_METHODS: readonly AuthMethod[] = ['pwd', 'otp', 'hwk', 'user', 'mfa', 'social', 'sso'];
const asAuthMethods = (values: readonly string[]): AuthMethod[] => AUTH_METHODS.filter((method) => values.includes(method));

/** The ways in the auth module knows itself; passkeys bring their own (modules/passkeys). */
export function createWaysIn(deps: WaysInDependencies) {
  const { limiter, secondFactor } = deps;
  const users = createUserService(deps.db);
  const findAccount = deps.findAccount ?? ((identifier: string) => users.findByIdentifier(identifier));

  /**
   * Failures count per account whatever identifier was typed, and per account and address.
   * The account's keys carry the time its password last changed, so a completed reset (or a
   * password change) starts them afresh, from every address at once, and touches nobody else's.
   * `account` and `lock` hold reservations (a try in flight counts until it is given back), so
   * they bound parallel guesses; `failed` counts only tries whose password was wrong, one
   * atomic increment after the check, and is what the captcha asks about: people signing in
   * to one account from several clients at once never meet a captcha they did not earn.
   */
  const failureKeys = (user: UserRow | undefined, identifier: string, origin: RequestOrigin) => {
    const subject = user ? `${user.id}:${user.passwordChangedAt?.getTime() ?? 0}` : identifier.toLowerCase();
    const account = `signin:fail:${subject}`;
    return { account, lock: `${account}:${origin.limitAddress}`, failed: `signin:failed:${subject}` };
  };

  /**
   * Email or username and password. Every try reserves its hits before the password is
   * checked, each in one atomic step, so parallel guesses never check more than the limits
   * allow: per address (refused past the limit), per account and address (refused past it),
   * and per account whatever the address (once the budget is spent, each further try also
   * waits a growing delay, told in seconds). A success gives the address's hit back and clears
   * the account's, so only failures count. The captcha is asked from the third confirmed
   * failure on the account (`failed`), never for tries still in flight.
   */
  const password: WayIn<{ email: string; password: string; captcha?: string }> = {
    method: 'password',
    claimedEmail: (input) => input.email,
    async identify(input) {
      return findAccount(input.email);
    },
    async lockout(user, input, origin) {
      const keys = failureKeys(user, input.email, origin);
      if ((await limiter.peek(keys.failed, limits.signInFailuresPerAccount)) >= CAPTCHA_AFTER_FAILURES) await requireCaptcha(deps.captcha, input.captcha, origin.ip);
      const address = await limiter.consume(signInIpKey(origin), limits.signInPerIp);
      if (!address.allowed) rateLimited(address);
      const lock = await limiter.consume(keys.lock, limits.signInFailuresPerAccount);
      if (!lock.allowed) {
        await limiter.refund(signInIpKey(origin));
        rateLimited(lock);
      }
      const account = await limiter.attempt(keys.account, limits.signInFailuresPerAccount, failureDelay());
      if (!account.allowed) {
        await Promise.all([limiter.refund(signInIpKey(origin)), limiter.refund(keys.lock)]);
        rateLimited(account);
      }
    },
    async verify(user, input, origin) {
      const keys = failureKeys(user, input.email, origin);
      const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await burnVerificationTime(input.password), false);
      if (!user || !valid) {
        const failed = await limiter.consume(keys.failed, limits.signInFailuresPerAccount);
        // The failure that spends the account's budget locks it (further tries wait or are
        // refused): one atomic count, so exactly one failure of a window sees it, however
        // many tries the lock refuses afterwards.
        if (user && failed.count === limits.signInFailuresPerAccount.limit) await deps.countEvent?.('lockout');
        throw new AppError('auth.invalid_credentials', {}, { captcha_required: failed.count >= CAPTCHA_AFTER_FAILURES });
      }
      await limiter.refund(signInIpKey(origin));
      // An account nobody activated has not signed in: its tries are given back, not cleared.
      if (!user.activatedAt) {
        await Promise.all([limiter.refund(keys.account), limiter.refund(keys.lock)]);
        throw new AppError('auth.not_activated');
      }
      await Promise.all([limiter.reset(keys.account), limiter.reset(keys.lock), limiter.reset(keys.failed)]);
      if (needsRehash(user.passwordHash!)) await users.setPasswordHash(user.id, await hashPassword(input.password), deps.clock.now(), false);
      return { user, amr: ['pwd'] };
    },
  };

  /** A mailed 6-digit code (email-code sign-in at /login/quick); its guesses are limited per code and per account (useCode). */
  const emailCode: WayIn<{ email: string; code: string }> = {
    method: 'email_code',
    claimedEmail: (input) => input.email,
    async identify(input, origin) {
      rateLimited(await limiter.consume(signInIpKey(origin), limits.signInPerIp));
      return users.findByEmail(input.email);
    },
    async verify(user, input, origin) {
      if (!(await secondFactor.checkCode(user?.id, 'login_code', input.code, input.email)) || !user) throw new AppError('auth.code_invalid');
      await limiter.refund(signInIpKey(origin));
      return { user, amr: ['otp'] };
    },
  };

  /** The second factor of a pending sign-in (the mfa_token a first factor answered). */
  const secondStep: WayIn<{ mfa_token: string } & FactorProof> = {
    method: 'second_step',
    async identify(input) {
      return (await secondFactor.pendingSignIn(input.mfa_token)).user;
    },
    // Per address like every way in; per user (like passwords) and per token inside completePendingSignIn.
    // Once the user's budget is spent, each further try needs the captcha, checked before the
    // token's guesses or the address's budget are touched (and then waits the growing delay).
    async lockout(user, input, origin) {
      if (user && (await secondFactor.secondStepBudgetSpent(user.id))) await requireCaptcha(deps.captcha, input.captcha, origin.ip);
      rateLimited(await limiter.consume(signInIpKey(origin), limits.signInPerIp));
    },
    async verify(user, input, origin) {
      let completed: Awaited<ReturnType<typeof secondFactor.completePendingSignIn>>;
      try {
        // The wrong proof that spends the user's budget locks their second step (each further try waits): a lockout, told once.
        completed = await secondFactor.completePendingSignIn(input.mfa_token, input, async () => deps.countEvent?.('lockout'));
      } catch (error) {
        // A wrong proof that spent the budget says the next try needs the captcha, as passwords do.
        if (error instanceof AppError && error.status === 400 && error.code !== 'auth.mfa_token_invalid' && user && (await secondFactor.secondStepBudgetSpent(user.id))) {
          throw new AppError(error.code, error.params, { ...error.details, captcha_required: true });
        }
        throw error;
      }
      const { amr, proved } = completed;
      await limiter.refund(signInIpKey(origin));
      // Back through the company SSO step, not past it: the membership the first factor met is
      // minutes old, and a person who joined an organization that requires SSO since, or whose
      // organization started requiring it, gets no session from a password. The second step's
      // own check passes (both factors are proved).
      return { user: user!, amr: withMfa([...asAuthMethods(amr), proved]), from: 'company sso' };
    },
  };

  /** The restore token a sign-in met at the deletion step: the sign-in goes on, and its session cancels the deletion. */
  const restore: WayIn<string> = {
    method: 'restore',
    // The token names the account and proves the earlier factors at once: verify uses it up.
    async identify() {
      return undefined;
    },
    async verify(_user, restoreToken) {
      const restored = await claimRestoreToken(deps, restoreToken);
      if (!restored) throw new AppError('auth.mfa_token_invalid');
      // Back through the company SSO step, as the second step comes back: the token may be a
      // quarter of an hour old. The second step passes on the factors the token recorded (every
      // session ended with the deletion request, so none could turn two-step on since). The
      // deletion stays scheduled until the session is made: a restore any step refuses (the
      // organization now requires SSO) leaves it as it was.
      return { user: restored.user, amr: asAuthMethods(restored.amr), from: 'company sso', restoresDeletion: true, events: [{ kind: 'deletion_cancelled' }] };
    },
  };

  return { password, emailCode, secondStep, restore };
}
