import { z } from 'zod';
import { codeSchema, emailSchema, messages, passwordSchema } from '../auth/schemas';
import { recoveryCodeSchema } from '../mfa/schemas';

/**
 * Account self-service: the profile, its emails, privacy, export and deletion. Calls under /v3 unless noted.
 * Actions that change how one signs in take the password, and the second factor when on.
 */
const secondFactor = {
  password: passwordSchema,
  code: codeSchema.optional(),
  recovery_code: recoveryCodeSchema.optional(),
};

/** PUT /sso/me/avatar: multipart field `file` (PNG, JPEG or WebP, ≤ 5 MB) → {avatar_url}; DELETE /sso/me/avatar → 204. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const avatarResponseSchema = z.object({ avatar_url: z.string().nullable() });

/** POST /sso/me/email/change → 204: a code goes to the new address, a notice to the old. */
export const emailChangeRequestSchema = z.object({ new_email: emailSchema, ...secondFactor });
/** POST /sso/me/email/change/confirm {code} → user. */
export const emailChangeConfirmSchema = z.object({ code: codeSchema });

/** PUT /sso/me/recovery-email → 204 (a code is mailed to it); POST /sso/me/recovery-email/verify {code} → user; DELETE /sso/me/recovery-email → user. */
export const recoveryEmailRequestSchema = z.object({ email: emailSchema, password: passwordSchema });
export const recoveryEmailVerifySchema = z.object({ code: codeSchema });

/** POST /sso/me/education-email {email} → 204 (a link is mailed); POST /sso/users/education-email/confirm {token} → {email}. */
export const educationEmailRequestSchema = z.object({ email: emailSchema });
export const educationEmailConfirmSchema = z.object({ token: z.string().min(1).max(200) });

/** GET and PUT /sso/me/privacy. GET /sso/me/export → every piece of personal data we keep, as JSON. */
export const privacySettingsSchema = z.object({ marketing_emails: z.boolean(), usage_data: z.boolean() });

/**
 * Deletion. POST /sso/me/deletion → {deletion_due_at}: signs out everywhere and schedules the
 * purge. Signing in before it is due answers 403 account.deletion_pending with details
 * {deletion_due_at, restore_token}; POST /sso/auth/restore {restore_token} cancels the deletion
 * and answers {token}. Both languages say personal data is deleted once the window
 * (ACCOUNT_DELETION_WINDOW_DAYS) has passed, which is when the purge job runs.
 */
export const DELETION_CONFIRMATION_WORD = 'DELETE';
export const deletionRequestSchema = z.object({ ...secondFactor, confirmation: z.string().trim().min(1, messages.blank) });
export const deletionResponseSchema = z.object({ deletion_due_at: z.string() });
export const restoreRequestSchema = z.object({ restore_token: z.string().min(1).max(200) });
