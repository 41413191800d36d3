import { z } from 'zod';
import { codeSchema, messages, newPasswordSchema, passwordSchema } from '../auth/schemas';
import { recoveryCodeSchema, twoFactorStatusSchema } from '../mfa/schemas';

/** POST /sso/me/reauth: exactly one of the password, a current second-step code, or a recovery code. */
export const reauthRequestSchema = z
  .object({
    password: z.string().min(1).max(1024).optional(),
    code: codeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
    /** A WebAuthn assertion of one of the account's passkeys, for options from POST /sso/me/reauth/passkey/options. */
    passkey: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((value) => [value.password, value.code, value.recovery_code, value.passkey].filter(Boolean).length === 1, { message: messages.blank, path: ['password'] });

/** PUT /sso/me/password: change (current_password required when the account has one) or set (passkey-only accounts). */
export const changePasswordRequestSchema = z
  .object({
    current_password: passwordSchema.optional(),
    new_password: newPasswordSchema,
    confirm_password: z.string({ error: messages.blank }).min(1, messages.blank),
  })
  .refine((value) => value.new_password === value.confirm_password, { message: messages.confirmMismatch, path: ['confirm_password'] });

/** GET /sso/me/sessions */
export const sessionSchema = z.object({
  id: z.string(),
  browser: z.string().nullable(),
  device: z.string().nullable(),
  ip: z.string().nullable(),
  location: z.string().nullable(),
  created_at: z.string(),
  last_active_at: z.string(),
  current: z.boolean(),
});
export const sessionListSchema = z.array(sessionSchema);
export type SessionInfo = z.infer<typeof sessionSchema>;
/** DELETE /sso/me/sessions/{id} → 204; POST /sso/me/sessions/revoke-others → {revoked}. */
export const revokedCountSchema = z.object({ revoked: z.number().int() });

/** GET /sso/me/security: the overview page. */
export const securityOverviewSchema = z.object({
  has_password: z.boolean(),
  password_changed_at: z.string().nullable(),
  two_factor: twoFactorStatusSchema,
  passkeys: z.number().int(),
  recent_sessions: sessionListSchema,
});
