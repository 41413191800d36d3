import { accountInventory, notifySecurityEvent } from '../notifications';
import { decoyEmail } from './decoy-email';
import { RESET_LINK_TTL_SECONDS, resetPasswordPath } from '@portal/contracts';
import { originFor } from '../../platform/brand';
import { safeEqual } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { CAPTCHA_AFTER_FAILURES, limits, rateKey, rateLimited } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { hashPassword, verifyPassword } from '../../platform/passwords';
import { createUserService, replyLanguage, type UserRow } from '../users';
import { passwordChangedMail, resetPasswordMail } from './mail';
import { endPendingSignIns } from './pending';
import type { AuthDependencies, AuthService } from './service';

/**
 * "jo***n@g***.com": the first and last parts of an address, enough for its owner to
 * recognise it and not enough for anyone else to learn it.
 */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  const head = local.slice(0, Math.min(2, Math.max(1, local.length - 1)));
  const tail = local.length > 2 ? local.slice(-1) : '';
  return `${head}***${tail}@${host.slice(0, 1)}***${tld}`;
}

/** A stable, plausible hint for a username with no account, so a mismatch looks the same either way. */
function fakeHint(identifier: string, secret: string): string {
  return maskEmail(decoyEmail(identifier, secret));
}

/**
 * Password recovery: verify the recovery email, receive a 6-digit code (and a link) by mail,
 * exchange the code for a reset token, set the new password. Every step answers the same
 * whether or not the account exists.
 */
export function createRecoveryService(deps: AuthDependencies & { auth: AuthService; hintSecret: string }) {
  const { limiter, sessions, auth, config } = deps;
  const { tokens } = auth;
  const users = createUserService(deps.db);

  /** The code and link go to the address the person proved they know: the recovery email, or the primary one. */
  async function sendResetMail(user: UserRow, to: string, origin: RequestOrigin): Promise<void> {
    const code = await tokens.issueCode(user.id, 'reset_code', RESET_LINK_TTL_SECONDS);
    const link = `${originFor(config, origin.brand)}${resetPasswordPath(await tokens.issueLink(user.id, 'reset_link', RESET_LINK_TTL_SECONDS))}`;
    auth.mailLater(to, resetPasswordMail({ lang: replyLanguage(user, origin), brand: origin.brand, name: user.fullName, code, link }));
  }

  return {
    /**
     * Step 1. The person types the account's recovery email (its verified one; the primary
     * email is accepted too) and the code is mailed to that address, so someone who lost the
     * primary mailbox recovers through the recovery one. A mismatch hints at the recovery email
     * when the account has a verified one. Wrong emails count per identifier typed (known or not, so the counting reveals
     * nothing): a captcha from the third on, then refused, so hints cannot be harvested.
     */
    async verifyEmail(input: { identifier: string; email: string; captcha?: string }, origin: RequestOrigin): Promise<void> {
      rateLimited(await limiter.consume(rateKey(limits.recoveryPerIp, origin.limitAddress), limits.recoveryPerIp));
      const identifier = input.identifier.toLowerCase();
      const failKey = `recovery:fail:${identifier}`;
      rateLimited(await limiter.status(failKey, limits.recoveryFailuresPerAccount));
      if ((await limiter.peek(failKey, limits.recoveryFailuresPerAccount)) >= CAPTCHA_AFTER_FAILURES) await auth.requireCaptcha(input.captcha, origin.ip);
      const user = await users.findByIdentifier(identifier);
      const rightEmail = user?.email ?? (identifier.includes('@') ? identifier : null);
      const recoveryEmail = user?.recoveryEmail && user.recoveryEmailVerifiedAt ? user.recoveryEmail : null;
      const typed = input.email.trim().toLowerCase();
      const sendTo = recoveryEmail && safeEqual(recoveryEmail.toLowerCase(), typed) ? recoveryEmail : rightEmail && safeEqual(rightEmail, typed) ? rightEmail : null;
      if (!rightEmail || !sendTo) {
        const hinted = recoveryEmail ?? rightEmail;
        const hint = hinted ? maskEmail(hinted) : fakeHint(identifier, deps.hintSecret);
        const failures = await limiter.consume(failKey, limits.recoveryFailuresPerAccount);
        throw new AppError('auth.recovery_email_mismatch', { hint }, { hint, captcha_required: failures.count >= CAPTCHA_AFTER_FAILURES });
      }
      await limiter.reset(failKey);
      rateLimited(await limiter.consume(rateKey(limits.codeSendPerAccount, `recovery:${rightEmail}`), limits.codeSendPerAccount));
      if (!user) return;
      // Issued after the answer, so the writes cannot make a real account answer slower than none.
      setImmediate(() => {
        sendResetMail(user, sendTo, origin).catch((error: unknown) => deps.log.error({ err: error }, 'reset mail not sent'));
      });
    },

    /** Exchanges a mailed code for a reset token. Codes are attempt-limited and single use. */
    async verifyCode(input: { identifier: string; code: string }, origin: RequestOrigin): Promise<{ reset_token: string }> {
      rateLimited(await limiter.consume(rateKey(limits.recoveryPerIp, origin.limitAddress), limits.recoveryPerIp));
      const user = await users.findByIdentifier(input.identifier);
      if (!(await tokens.useCode(user?.id, 'reset_code', input.code, input.identifier.toLowerCase())) || !user) throw new AppError('auth.code_invalid');
      return { reset_token: await tokens.issueLink(user.id, 'reset_link', RESET_LINK_TTL_SECONDS) };
    },

    async checkResetToken(token: string): Promise<void> {
      if (!(await tokens.findLink('reset_link', token))) throw new AppError('auth.reset_link_invalid');
    },

    /** Sets the new password, signs out every session and tells the owner by mail. */
    async resetPassword(input: { token: string; new_password: string }, origin: RequestOrigin): Promise<void> {
      const live = await tokens.findLink('reset_link', input.token);
      const user = live ? await users.findById(live.userId) : undefined;
      if (!live || !user) throw new AppError('auth.reset_link_invalid');
      if (user.passwordHash && (await verifyPassword(user.passwordHash, input.new_password))) {
        throw new AppError('auth.password_same_as_old', {}, { fields: { new_password: 'Choose a new password different from the old one' } });
      }
      auth.assertAcceptablePassword(input.new_password, 'new_password');
      const passwordHash = await hashPassword(input.new_password);
      if (!(await tokens.claimLink('reset_link', input.token))) throw new AppError('auth.reset_link_invalid');
      await users.setPasswordHash(user.id, passwordHash, deps.clock.now(), true);
      // Every pending sign-in, second step, restore and reset of the account ends here.
      await endPendingSignIns(deps, user.id);
      // Receiving the mail proved the address, so an account never activated becomes active,
      // with this password only: passkeys made before anyone proved the mailbox are dropped.
      await users.setPendingCredentials(user.id, { passwordHash, keepPasskeys: false }, deps.clock.now());
      await users.activate(user.id, deps.clock.now());
      await sessions.revokeAll(user.id);
      const lang = replyLanguage(user, origin);
      const inventory = await accountInventory(deps, user.id, lang, originFor(config, origin.brand));
      auth.mailLater(user.email, passwordChangedMail({ lang, brand: origin.brand, name: user.fullName, inventory }));
      void notifySecurityEvent(deps, user.id, 'password_changed', { brand: origin.brand, mail: false });
    },
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
