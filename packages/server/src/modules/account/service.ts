import { randomUUID } from 'node:crypto';
import {
  brands,
  educationEmailConfirmationPath,
  isLanguage,
  messages,
  VERIFICATION_CODE_LENGTH,
  type Language,
} from '@portal/contracts';
import { originFor } from '../../platform/brand';
import { randomDigits, randomToken, safeEqual, sha256 } from '../../platform/crypto';
import { AppError, fieldError } from '../../platform/errors';
import { renderMail } from '../../platform/mail';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { burnVerificationTime, verifyPassword } from '../auth/passwords';
import { notifySecurityEvent, type NotifierDependencies } from '../notifications/service';
import type { SessionService } from '../sessions/service';
import { accountMailCopy } from './mail-copy';
import { accountQueries, type AccountTokenPurpose, type UserRow } from './queries';
import { toUserDto } from './user-dto';

/** Mailed codes live 10 minutes and die after this many wrong guesses. */
export const ACCOUNT_CODE_TTL_SECONDS = 10 * 60;
export const ACCOUNT_CODE_MAX_ATTEMPTS = 5;
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

export interface AccountDependencies extends NotifierDependencies {
  limiter: RateLimiter;
  sessions: SessionService;
  verifySecondFactor?: SecondFactorVerifier;
}

export type AccountService = ReturnType<typeof createAccountService>;

export function mailLanguage(user: UserRow, origin: RequestOrigin): Language {
  return isLanguage(user.language) ? user.language : origin.lang;
}

/**
 * Account self-service that changes who the account answers to: the primary, recovery and
 * education emails, privacy choices, the export. Actions that change how one signs in take
 * the password, and the second factor when it is on.
 */
export function createAccountService(deps: AccountDependencies) {
  const { clock, limiter, mailer } = deps;
  const queries = accountQueries(deps.db);
  const failureRule = limits.signInFailuresPerAccount;

  function mailLater(to: string, rendered: ReturnType<typeof renderMail>): void {
    mailer.send({ to, ...rendered }).catch((error: unknown) => deps.log.error({ err: error }, 'mail not sent'));
  }

  function alert(to: string, user: UserRow, origin: RequestOrigin, text: { title: string; lines: string[]; label?: string }, url?: string): void {
    const lang = mailLanguage(user, origin);
    const link = text.label && url ? { label: text.label, url } : undefined;
    mailLater(to, renderMail('security_alert', { lang, brand: origin.brand, name: user.fullName, title: text.title, lines: text.lines, link }));
  }

  /** Mailed codes per account and per IP, as for every other code the portal mails. */
  async function throttleCodeSend(subject: string, ip: string): Promise<void> {
    rateLimited(await limiter.consume(rateKey(limits.codeSendPerIp, ip), limits.codeSendPerIp));
    rateLimited(await limiter.consume(rateKey(limits.codeSendPerAccount, subject), limits.codeSendPerAccount));
  }

  /** Wrong passwords re-entered by a signed-in user share one budget with the security pages. */
  async function confirmPassword(user: UserRow, password: string): Promise<void> {
    const key = rateKey(failureRule, `reauth:${user.id}`);
    rateLimited(await limiter.status(key, failureRule));
    const valid = user.passwordHash ? await verifyPassword(user.passwordHash, password) : (await burnVerificationTime(password), false);
    if (!valid) {
      rateLimited(await limiter.consume(key, failureRule));
      throw new AppError('auth.password_not_valid', {}, { fields: { password: 'Password not valid' } });
    }
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

  /** 6-digit codes are stored salted with their row id, so equal codes never collide in the unique index. */
  const codeHash = (tokenId: string, code: string) => sha256(`code:${tokenId}:${code}`);

  async function issueCode(userId: string, purpose: AccountTokenPurpose, payload: Record<string, unknown>): Promise<string> {
    const code = randomDigits(VERIFICATION_CODE_LENGTH);
    const now = clock.now();
    const id = randomUUID();
    await queries.retireTokens(userId, purpose, now);
    await queries.insertToken({ id, userId, purpose, tokenHash: codeHash(id, code), payload, expiresAt: new Date(now.getTime() + ACCOUNT_CODE_TTL_SECONDS * 1000) });
    return code;
  }

  /** The payload of the newest live code when `code` matches it (then used up); single use, attempt-limited. */
  async function useCode(userId: string, purpose: AccountTokenPurpose, code: string): Promise<Record<string, unknown>> {
    const live = await queries.latestLiveToken(userId, purpose, clock.now());
    const matches = safeEqual(live?.tokenHash ?? '', codeHash(live?.id ?? randomUUID(), code));
    const invalid = () => new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
    if (!live || live.attempts >= ACCOUNT_CODE_MAX_ATTEMPTS) throw invalid();
    if (!matches) {
      await queries.countAttempt(live.id);
      throw invalid();
    }
    if (!(await queries.markTokenUsed(live.id, clock.now()))) throw invalid();
    return live.payload ?? {};
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
      if (await queries.usernameTaken(username, user.id)) {
        throw new AppError('validation_error', {}, { fields: { username: 'This username is already taken' } });
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
      if (newEmail === user.email) throw fieldError('new_email', 'This is already your email address');
      const copy = accountMailCopy(mailLanguage(user, origin));
      const brandName = brands[origin.brand].title;
      const owner = await queries.findUserByEmail(newEmail);
      if (owner) {
        const ownerLang: Language = isLanguage(owner.language) ? owner.language : 'en';
        const text = accountMailCopy(ownerLang).emailTaken(brandName);
        mailLater(owner.email, renderMail('security_alert', { lang: ownerLang, brand: origin.brand, name: owner.fullName, title: text.title, lines: text.lines }));
        // A code nobody receives keeps the database work the same as the other path.
        await issueCode(user.id, 'email_change', { new_email: null });
      } else {
        const code = await issueCode(user.id, 'email_change', { new_email: newEmail });
        mailLater(
          newEmail,
          renderMail('email_change_code', { lang: mailLanguage(user, origin), brand: origin.brand, name: user.fullName, code, newEmail, validMinutes: ACCOUNT_CODE_TTL_SECONDS / 60 }),
        );
      }
      alert(user.email, user, origin, copy.emailChangeRequested(brandName, newEmail), pageUrl(origin, '/email'));
    },

    /** Step 2: the code from the new address makes it the account's email. */
    async confirmEmailChange(user: UserRow, code: string, origin: RequestOrigin) {
      const payload = await useCode(user.id, 'email_change', code);
      const newEmail = typeof payload.new_email === 'string' ? payload.new_email : null;
      if (!newEmail) throw new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
      const updated = await queries.changeEmail(user.id, newEmail, clock.now());
      if (!updated) throw new AppError('auth.email_exists', {}, { fields: { new_email: 'email already exists' } });
      await notifySecurityEvent(deps, user.id, 'email_changed', { brand: origin.brand, detail: newEmail, mailTo: user.email });
      return toUserDto(updated);
    },

    /** Sets a recovery email (unverified until its code comes back) and mails it a code. */
    async setRecoveryEmail(user: UserRow, input: { email: string; password: string }, origin: RequestOrigin): Promise<void> {
      await throttleCodeSend(`recovery-email:${user.id}`, origin.limitAddress);
      await confirmPassword(user, input.password);
      const email = input.email.toLowerCase();
      if (email === user.email) throw fieldError('email', 'The recovery email must be different from your email address');
      await queries.updateUser(user.id, { recoveryEmail: email, recoveryEmailVerifiedAt: null }, clock.now());
      const code = await issueCode(user.id, 'recovery_email', { email });
      const text = accountMailCopy(mailLanguage(user, origin)).recoveryCode(brands[origin.brand].title, email, code, ACCOUNT_CODE_TTL_SECONDS / 60);
      alert(email, user, origin, text);
    },

    async verifyRecoveryEmail(user: UserRow, code: string, origin: RequestOrigin) {
      const payload = await useCode(user.id, 'recovery_email', code);
      if (typeof payload.email !== 'string' || payload.email !== user.recoveryEmail) {
        throw new AppError('auth.code_invalid', {}, { fields: { code: messages.codeInvalid } });
      }
      const updated = await queries.updateUser(user.id, { recoveryEmailVerifiedAt: clock.now() }, clock.now());
      await notifySecurityEvent(deps, user.id, 'recovery_email_changed', { brand: origin.brand, detail: payload.email });
      return toUserDto(updated ?? user);
    },

    async removeRecoveryEmail(user: UserRow, origin: RequestOrigin) {
      const had = user.recoveryEmail !== null;
      const updated = await queries.updateUser(user.id, { recoveryEmail: null, recoveryEmailVerifiedAt: null }, clock.now());
      await queries.retireTokens(user.id, 'recovery_email', clock.now());
      if (had) await notifySecurityEvent(deps, user.id, 'recovery_email_changed', { brand: origin.brand });
      return toUserDto(updated ?? user);
    },

    /** Mails a single-use link (24 hours) to the education address; the account keeps its old one until then. */
    async requestEducationEmail(user: UserRow, email: string, origin: RequestOrigin): Promise<void> {
      await throttleCodeSend(`education-email:${user.id}`, origin.limitAddress);
      const token = randomToken();
      const now = clock.now();
      await queries.retireTokens(user.id, 'education_email', now);
      await queries.insertToken({
        id: randomUUID(),
        userId: user.id,
        purpose: 'education_email',
        tokenHash: sha256(token),
        payload: { email: email.toLowerCase() },
        expiresAt: new Date(now.getTime() + EDUCATION_LINK_TTL_SECONDS * 1000),
      });
      const text = accountMailCopy(mailLanguage(user, origin)).educationLink(brands[origin.brand].title, email, EDUCATION_LINK_TTL_SECONDS / 3600);
      alert(email, user, origin, text, pageUrl(origin, educationEmailConfirmationPath(token)));
    },

    /** The mailed link (no sign-in needed: it may be opened on another device). */
    async confirmEducationEmail(token: string): Promise<{ email: string }> {
      const claimed = await queries.claimToken('education_email', sha256(token), clock.now());
      const email = typeof claimed?.payload?.email === 'string' ? claimed.payload.email : null;
      const user = claimed ? await queries.findUserById(claimed.userId) : undefined;
      if (!claimed || !email || !user || user.purgedAt) throw new AppError('account.email_link_invalid');
      await queries.updateUser(user.id, { educationEmail: email, educationEmailVerifiedAt: clock.now() }, clock.now());
      return { email };
    },

    privacy(user: UserRow) {
      return { marketing_emails: user.marketingEmails, usage_data: user.usageData };
    },

    async setPrivacy(user: UserRow, input: { marketing_emails: boolean; usage_data: boolean }) {
      const updated = await queries.updateUser(user.id, { marketingEmails: input.marketing_emails, usageData: input.usage_data }, clock.now());
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
          id: row.id,
          device_id: row.deviceId,
          browser: row.browser,
          device: row.device,
          ip: row.ip,
          location: row.location,
          created_at: row.createdAt.toISOString(),
          last_active_at: row.lastActiveAt.toISOString(),
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
