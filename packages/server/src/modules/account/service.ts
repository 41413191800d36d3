import {
  brands,
  educationEmailConfirmationPath,
  isLanguage,
  messages,
  type Language,
} from '@portal/contracts';
import { originFor } from '../../platform/brand';
import { AppError, fieldError } from '../../platform/errors';
import { renderAlert, sendInBackground, type RenderedMail } from '../../platform/mail';
import { createOneTimeTokens } from '../../platform/one-time-tokens';
import { failureDelay, limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { burnVerificationTime, verifyPassword } from '../../platform/passwords';
import { createUserService, mailLanguage, toUserDto, type UserRow } from '../users';
import { type NotifierDependencies, notifySecurityEvent } from '../notifications';
import { sessionDeviceDto, type SessionService } from '../sessions';
import { accountMailCopy, emailChangeCodeMail } from './mail';
import { accountQueries, type AccountTokenPurpose } from './queries';

/** Mailed codes live 10 minutes. */
export const ACCOUNT_CODE_TTL_SECONDS = 10 * 60;
/** Education email links live a day. */
export const EDUCATION_LINK_TTL_SECONDS = 24 * 60 * 60;

/** What proves the second factor: a current code, or one of the recovery codes. */
export interface FactorProof {
  code?: string;
  recovery_code?: string;
}

/**
 * Checks the second factor of a user who has one (users.twoFactorMethod set): true when the
 * proof is good, and uses it up (codes are single use). It may throw an AppError of its own
 * (a 429, a precise code error). Provided by modules/mfa; until it is wired, accounts with
 * two-step verification on cannot pass (fail closed).
 */
export type SecondFactorVerifier = (user: UserRow, proof: FactorProof) => Promise<boolean>;

/**
 * Told once an account's email changed: the new address may be one an organization added as a
 * member before any account held it, which makes this account that member (company SSO's,
 * bound in app.ts: it ends the sessions an organization requiring SSO forbids). Awaited, and its
 * failure is the request's: a session it failed to end would stand.
 */
export type EmailChangedHook = (user: { id: string; email: string }) => Promise<void>;

export interface AccountDependencies extends NotifierDependencies {
  limiter: RateLimiter;
  sessions: SessionService;
  verifySecondFactor?: SecondFactorVerifier;
  emailChanged?: EmailChangedHook;
}

export type AccountService = ReturnType<typeof createAccountService>;

/**
 * Account self-service that changes who the account answers to: the primary, recovery and
 * education emails, privacy choices, the export. Actions that change how one signs in take
 * the password, and the second factor when it is on.
 */
export function createAccountService(deps: AccountDependencies) {
  const { clock, limiter, mailer } = deps;
  const queries = accountQueries(deps.db);
  const users = createUserService(deps.db);
  const tokens = createOneTimeTokens<AccountTokenPurpose>(deps);
  const failureRule = limits.signInFailuresPerAccount;

  function mailLater(to: string, rendered: RenderedMail): void {
    sendInBackground(mailer, deps.log, { to, ...rendered });
  }

  function alert(to: string, user: UserRow, origin: RequestOrigin, text: { title: string; lines: string[]; label?: string }, url?: string): void {
    const lang = mailLanguage(user, origin);
    const link = text.label && url ? { label: text.label, url } : undefined;
    mailLater(to, renderAlert({ lang, brand: origin.brand, name: user.fullName, title: text.title, lines: text.lines, link }));
  }

  /** Mailed codes per account and per IP, as for every other code the portal mails. */
  async function throttleCodeSend(subject: string, ip: string): Promise<void> {
    rateLimited(await limiter.consume(rateKey(limits.codeSendPerIp, ip), limits.codeSendPerIp));
    rateLimited(await limiter.consume(rateKey(limits.codeSendPerAccount, subject), limits.codeSendPerAccount));
  }

  /**
   * Wrong passwords re-entered by a signed-in user share one budget with the security pages,
   * taken atomically before the check; once spent, each try waits a growing delay.
   */
  async function confirmPassword(user: UserRow, password: string): Promise<void> {
    const key = rateKey(failureRule, `reauth:${user.id}`);
    rateLimited(await limiter.attempt(key, failureRule, failureDelay()));
    const valid = user.passwordHash ? await verifyPassword(user.passwordHash, password) : (await burnVerificationTime(password), false);
    if (!valid) throw new AppError('auth.password_not_valid', {}, { fields: { password: 'Password not valid' } });
    await limiter.reset(key);
  }

  /** The password, then the second factor when the account has one. */
  async function confirmIdentity(user: UserRow, input: { password: string } & FactorProof): Promise<void> {
    await confirmPassword(user, input.password);
    if (!user.twoFactorMethod) return;
    if (!input.code && !input.recovery_code) {
      throw new AppError('auth.code_invalid', {}, { second_factor_required: true, method: user.twoFactorMethod, fields: { code: messages.codeInvalid } });
    }
    const ok = deps.verifySecondFactor ? await deps.verifySecondFactor(user, { code: input.code, recovery_code: input.recovery_code }) : false;
    if (!ok) {
      throw input.recovery_code
        ? new AppError('auth.recovery_code_invalid', {}, { fields: { recovery_code: 'Recovery code not valid' } })
        : new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
    }
  }

  const issueCode = (userId: string, purpose: AccountTokenPurpose, payload: Record<string, unknown>) =>
    tokens.issueCode(userId, purpose, ACCOUNT_CODE_TTL_SECONDS, payload);

  /** The payload of the newest live code when `code` matches it (then used up). */
  async function useCode(userId: string, purpose: AccountTokenPurpose, code: string): Promise<Record<string, unknown>> {
    const used = await tokens.useCode(userId, purpose, code);
    if (!used) throw new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
    return used.payload ?? {};
  }

  const pageUrl = (origin: RequestOrigin, path: string) => `${originFor(deps.config, origin.brand)}${path}`;

  return {
    confirmIdentity,

    /**
     * Refuses a username someone else holds. That answer says whether a username exists, so
     * asking is limited per account and per address: the profile is not a way to list them.
     * Keeping one's own username asks nothing.
     */
    async assertUsernameAvailable(user: UserRow, username: string | null, origin: RequestOrigin): Promise<void> {
      if (!username || username.toLowerCase() === user.username?.toLowerCase()) return;
      rateLimited(await limiter.consume(rateKey(limits.usernameChecksPerAccount, user.id), limits.usernameChecksPerAccount));
      rateLimited(await limiter.consume(rateKey(limits.usernameChecksPerIp, origin.limitAddress), limits.usernameChecksPerIp));
      if (await users.usernameTaken(username, user.id)) {
        throw fieldError('username', 'account.username_taken');
      }
    },

    /**
     * Step 1 of an email change: a code to the new address, a notice to the old. When the new
     * address already has an account, no code goes out and that account's owner is told
     * instead; the answer (and the notice to the old address) are the same either way.
     */
    async requestEmailChange(user: UserRow, input: { new_email: string; password: string } & FactorProof, origin: RequestOrigin): Promise<void> {
      await throttleCodeSend(`email-change:${user.id}`, origin.limitAddress);
      await confirmIdentity(user, input);
      const newEmail = input.new_email.toLowerCase();
      if (newEmail === user.email) throw fieldError('new_email', 'account.same_email');
      const copy = accountMailCopy(mailLanguage(user, origin));
      const brandName = brands[origin.brand].title;
      const owner = await users.findByEmail(newEmail);
      if (owner) {
        const ownerLang: Language = isLanguage(owner.language) ? owner.language : 'en';
        const text = accountMailCopy(ownerLang).emailTaken(brandName);
        mailLater(owner.email, renderAlert({ lang: ownerLang, brand: origin.brand, name: owner.fullName, title: text.title, lines: text.lines }));
        // A code nobody receives keeps the database work the same as the other path.
        await issueCode(user.id, 'email_change', { new_email: null });
      } else {
        const code = await issueCode(user.id, 'email_change', { new_email: newEmail });
        mailLater(
          newEmail,
          emailChangeCodeMail({ lang: mailLanguage(user, origin), brand: origin.brand, name: user.fullName, code, newEmail, validMinutes: ACCOUNT_CODE_TTL_SECONDS / 60 }),
        );
      }
      alert(user.email, user, origin, copy.emailChangeRequested(brandName, newEmail), pageUrl(origin, '/email'));
    },

    /** Step 2: the code from the new address makes it the account's email. */
    async confirmEmailChange(user: UserRow, code: string, origin: RequestOrigin) {
      const payload = await useCode(user.id, 'email_change', code);
      const newEmail = typeof payload.new_email === 'string' ? payload.new_email : null;
      if (!newEmail) throw new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
      const updated = await users.changeEmail(user.id, newEmail, clock.now());
      if (!updated) throw new AppError('auth.email_exists', {}, { fields: { new_email: 'email already exists' } });
      await deps.emailChanged?.(updated);
      await notifySecurityEvent(deps, user.id, 'email_changed', { brand: origin.brand, detail: newEmail, mailTo: user.email });
      return toUserDto(updated);
    },

    /** Sets a recovery email (unverified until its code comes back) and mails it a code. */
    async setRecoveryEmail(user: UserRow, input: { email: string; password: string }, origin: RequestOrigin): Promise<void> {
      await throttleCodeSend(`recovery-email:${user.id}`, origin.limitAddress);
      await confirmPassword(user, input.password);
      const email = input.email.toLowerCase();
      if (email === user.email) throw fieldError('email', 'account.recovery_same_as_email');
      await users.update(user.id, { recoveryEmail: email, recoveryEmailVerifiedAt: null }, clock.now());
      const code = await issueCode(user.id, 'recovery_email', { email });
      const text = accountMailCopy(mailLanguage(user, origin)).recoveryCode(brands[origin.brand].title, email, code, ACCOUNT_CODE_TTL_SECONDS / 60);
      alert(email, user, origin, text);
    },

    async verifyRecoveryEmail(user: UserRow, code: string, origin: RequestOrigin) {
      const payload = await useCode(user.id, 'recovery_email', code);
      if (typeof payload.email !== 'string' || payload.email !== user.recoveryEmail) {
        throw new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
      }
      const updated = await users.update(user.id, { recoveryEmailVerifiedAt: clock.now() }, clock.now());
      await notifySecurityEvent(deps, user.id, 'recovery_email_changed', { brand: origin.brand, detail: payload.email });
      return toUserDto(updated ?? user);
    },

    async removeRecoveryEmail(user: UserRow, origin: RequestOrigin) {
      const had = user.recoveryEmail !== null;
      const updated = await users.update(user.id, { recoveryEmail: null, recoveryEmailVerifiedAt: null }, clock.now());
      await tokens.retire(user.id, 'recovery_email');
      if (had) await notifySecurityEvent(deps, user.id, 'recovery_email_changed', { brand: origin.brand });
      return toUserDto(updated ?? user);
    },

    /** Mails a single-use link (24 hours) to the education address; the account keeps its old one until then. */
    async requestEducationEmail(user: UserRow, email: string, origin: RequestOrigin): Promise<void> {
      await throttleCodeSend(`education-email:${user.id}`, origin.limitAddress);
      const token = await tokens.issueLink(user.id, 'education_email', EDUCATION_LINK_TTL_SECONDS, { payload: { email: email.toLowerCase() } });
      const text = accountMailCopy(mailLanguage(user, origin)).educationLink(brands[origin.brand].title, email, EDUCATION_LINK_TTL_SECONDS / 3600);
      alert(email, user, origin, text, pageUrl(origin, educationEmailConfirmationPath(token)));
    },

    /** The mailed link (no sign-in needed: it may be opened on another device). */
    async confirmEducationEmail(token: string): Promise<{ email: string }> {
      const claimed = await tokens.claimLink('education_email', token);
      const email = typeof claimed?.payload?.email === 'string' ? claimed.payload.email : null;
      const user = claimed ? await users.findById(claimed.userId) : undefined;
      if (!claimed || !email || !user || user.purgedAt) throw new AppError('account.email_link_invalid');
      await users.update(user.id, { educationEmail: email, educationEmailVerifiedAt: clock.now() }, clock.now());
      return { email };
    },

    privacy(user: UserRow) {
      return { marketing_emails: user.marketingEmails, usage_data: user.usageData };
    },

    async setPrivacy(user: UserRow, input: { marketing_emails: boolean; usage_data: boolean }) {
      const updated = await users.update(user.id, { marketingEmails: input.marketing_emails, usageData: input.usage_data }, clock.now());
      return { marketing_emails: updated?.marketingEmails ?? input.marketing_emails, usage_data: updated?.usageData ?? input.usage_data };
    },

    /** Every piece of personal data we keep about the user, without hashes or secrets. */
    async exportData(user: UserRow) {
      const data = await queries.exportData(user.id);
      const iso = (date: Date | null) => date?.toISOString() ?? null;
      return {
        exported_at: clock.now().toISOString(),
        user: {
          ...toUserDto(user),
          recovery_email_verified_at: iso(user.recoveryEmailVerifiedAt),
          education_email_on_file: user.educationEmail,
          education_email_verified_at: iso(user.educationEmailVerifiedAt),
          activated_at: iso(user.activatedAt),
          password_changed_at: iso(user.passwordChangedAt),
          updated_at: user.updatedAt.toISOString(),
          deletion_requested_at: iso(user.deletionRequestedAt),
          privacy: { marketing_emails: user.marketingEmails, usage_data: user.usageData },
        },
        sessions: data.sessions.map((row) => ({
          ...sessionDeviceDto(row),
          device_id: row.deviceId,
          expires_at: row.expiresAt.toISOString(),
          revoked_at: iso(row.revokedAt),
        })),
        passkeys: data.passkeys.map((row) => ({
          id: row.id,
          name: row.name,
          device_type: row.deviceType,
          backed_up: row.backedUp,
          transports: row.transports,
          created_at: row.createdAt.toISOString(),
          last_used_at: iso(row.lastUsedAt),
        })),
        api_keys: data.apiKeys.map((row) => ({
          id: row.id,
          name: row.name,
          prefix: row.prefix,
          scopes: row.scopes,
          created_at: row.createdAt.toISOString(),
          last_used_at: iso(row.lastUsedAt),
          expires_at: iso(row.expiresAt),
          revoked_at: iso(row.revokedAt),
        })),
        notifications: data.notifications.map((row) => ({
          id: row.id,
          type: row.type,
          title: row.title,
          body: row.body,
          metadata: row.metadata,
          target: row.target,
          read_at: iso(row.readAt),
          created_at: row.createdAt.toISOString(),
        })),
      };
    },
  };
}
