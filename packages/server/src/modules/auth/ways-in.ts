import type { Database } from '../../db/client';
import type { CaptchaVerifier } from '../../platform/captcha';
import { requireCaptcha } from '../../platform/captcha';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { burnVerificationTime, hashPassword, needsRehash, verifyPassword } from '../../platform/passwords';
import { CAPTCHA_AFTER_FAILURES, limits, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { restoreScheduledDeletion } from '../account';
import type { FactorProof, SecondFactorService } from '../mfa';
import type { AuthMethod } from '../sessions';
import { createUserService, type UserRow } from '../users';
import { withMfa, type WayIn } from './pipeline';

export interface WaysInDependencies {
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  captcha: CaptchaVerifier;
  secondFactor: Pick<SecondFactorService, 'checkCode' | 'pendingSignIn' | 'completePendingSignIn'>;
}

/** The per-IP budget every way in that guesses a secret shares: one budget, whatever the method. */
const signInIpKey = (origin: RequestOrigin) => `signin:ip:${origin.limitAddress}`;

const AUTH_METHODS: readonly AuthMethod[] = ['pwd', 'otp', 'hwk', 'user', 'mfa'];
const asAuthMethods = (values: readonly string[]): AuthMethod[] => AUTH_METHODS.filter((method) => values.includes(method));

/** The ways in the auth module knows itself; passkeys bring their own (modules/passkeys). */
export function createWaysIn(deps: WaysInDependencies) {
  const { limiter, secondFactor } = deps;
  const users = createUserService(deps.db);

  /** Failures count per account whatever identifier was typed, and per account and address. */
  const failureKeys = (user: UserRow | undefined, identifier: string, origin: RequestOrigin) => {
    const account = `signin:fail:${user ? user.id : identifier.toLowerCase()}`;
    return { account, lock: `${account}:${origin.limitAddress}` };
  };

  /**
   * Email or username and password. Failures count three ways: per IP (refused past the
   * limit), per account whatever identifier was typed (a captcha past three), and per account
   * and IP (refused past the limit), so a stranger can slow a guesser down but never lock the
   * owner out.
   */
  const password: WayIn<{ email: string; password: string; captcha?: string }> = {
    async identify(input) {
      return users.findByIdentifier(input.email);
    },
    async lockout(user, input, origin) {
      rateLimited(await limiter.status(signInIpKey(origin), limits.signInPerIp));
      const keys = failureKeys(user, input.email, origin);
      rateLimited(await limiter.status(keys.lock, limits.signInFailuresPerAccount));
      if ((await limiter.peek(keys.account, limits.signInFailuresPerAccount)) >= CAPTCHA_AFTER_FAILURES) await requireCaptcha(deps.captcha, input.captcha, origin.ip);
    },
    async verify(user, input, origin) {
      const keys = failureKeys(user, input.email, origin);
      const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await burnVerificationTime(input.password), false);
      if (!user || !valid) {
        await limiter.consume(signInIpKey(origin), limits.signInPerIp);
        await limiter.consume(keys.lock, limits.signInFailuresPerAccount);
        const decision = await limiter.consume(keys.account, limits.signInFailuresPerAccount);
        throw new AppError('auth.invalid_credentials', {}, { captcha_required: decision.count >= CAPTCHA_AFTER_FAILURES });
      }
      // Before the counters clear: an account nobody activated has not signed in.
      if (!user.activatedAt) throw new AppError('auth.not_activated');
      await Promise.all([limiter.reset(keys.account), limiter.reset(keys.lock)]);
      if (needsRehash(user.passwordHash!)) await users.setPasswordHash(user.id, await hashPassword(input.password), deps.clock.now(), false);
      return { user, amr: ['pwd'] };
    },
  };

  /** A mailed 6-digit code (email-code sign-in at /login/quick). */
  const emailCode: WayIn<{ email: string; code: string }> = {
    async identify(input, origin) {
      rateLimited(await limiter.consume(signInIpKey(origin), limits.signInPerIp));
      return users.findByEmail(input.email);
    },
    async verify(user, input) {
      if (!(await secondFactor.checkCode(user?.id, 'login_code', input.code)) || !user) throw new AppError('auth.code_invalid');
      return { user, amr: ['otp'] };
    },
  };

  /** The second factor of a pending sign-in (the mfa_token a first factor answered). */
  const secondStep: WayIn<{ mfa_token: string } & FactorProof> = {
    async identify(input) {
      return (await secondFactor.pendingSignIn(input.mfa_token)).user;
    },
    // The lockout of codes (per user, like passwords) is part of checking one: see requireFactor.
    async verify(user, input) {
      const { amr } = await secondFactor.completePendingSignIn(input.mfa_token, input);
      return { user: user!, amr: withMfa([...asAuthMethods(amr), 'otp']), from: 'deletion' };
    },
  };

  /** The restore token a sign-in met at the deletion step: the deletion is cancelled, the sign-in goes on. */
  const restore: WayIn<string> = {
    // The token names the account and proves the earlier factors at once: verify uses it up.
    async identify() {
      return undefined;
    },
    async verify(_user, restoreToken) {
      const restored = await restoreScheduledDeletion(deps, restoreToken);
      if (!restored) throw new AppError('auth.mfa_token_invalid');
      return { user: restored.user, amr: asAuthMethods(restored.amr), from: 'session', events: [{ kind: 'deletion_cancelled' }] };
    },
  };

  return { password, emailCode, secondStep, restore };
}
