import { z } from 'zod';
import { codeSchema, emailSchema, messages, passwordSchema } from '../auth/schemas';
import { recoveryCodeSchema } from '../mfa/schemas';

/**
 * Account self-service (issue: account self-service). Calls under /v3 unless noted.
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

/** API keys. A key never manages keys, password, second factors, sessions or deletion. */
export const apiKeyScopes = ['me:read', 'me:write', 'notifications:read', 'notifications:write'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];
export const API_KEY_PREFIX = 'pk_';
/**
 * An API key's whole shape: the prefix and 43 characters (32 random bytes, base64url). Only
 * this shape is taken for a key: session and access tokens are 43 random base64url characters
 * too, and one in 262,144 of them starts with the prefix by chance.
 */
export const API_KEY_PATTERN = /^pk_[A-Za-z0-9_-]{43}$/;
/** POST /sso/me/api-keys → the key, shown this once. */
export const createApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1, messages.blank).max(60),
  scopes: z.array(z.enum(apiKeyScopes)).min(1, 'Choose at least one scope'),
  /** Days until the key stops working; absent for no expiry. */
  expires_in_days: z.number().int().min(1).max(365).optional(),
});
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(apiKeyScopes)),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
/** GET /sso/me/api-keys; DELETE /sso/me/api-keys/{id} → 204. */
export const apiKeyListSchema = z.array(apiKeySchema);
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });

/** Notifications (the spec's entities and state rules). GET /notifications?page=&page_size= ; PUT /notifications/{id} {read: true}; PUT /notifications/read-all. */
export const notificationTypes = ['reports', 'programs', 'programs/updates', 'transactions', 'other'] as const;
export const notificationSchema = z.object({
  id: z.string(),
  type: z.enum(notificationTypes),
  title: z.string(),
  body: z.string(),
  metadata: z.object({
    report_id: z.string().optional(),
    comment_id: z.string().optional(),
    program_alias: z.string().optional(),
    transaction_id: z.string().optional(),
  }),
  /** 'owner' when the user owns the program the notification is about. */
  target: z.enum(['owner', 'other']),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListSchema = z.object({ items: z.array(notificationSchema), unread_count: z.number().int(), total: z.number().int() });
export const markNotificationRequestSchema = z.object({ read: z.literal(true) });

/** GET /sso/me/chatwoot and GET /{product}_platform/pm/users/me/chatwoot: Chatwoot identity validation. */
export const chatwootIdentitySchema = z.object({
  identifier: z.string(),
  name: z.string(),
  email: z.string(),
  language_override: z.string(),
  /** HMAC-SHA256 of identifier with the configured secret. */
  user_hash: z.string(),
});
