import { z } from 'zod';
import { captchaField, codeSchema, emailSchema, fullNameSchema, identifierSchema, messages, newPasswordSchema, passwordSchema } from '../auth/schemas';

/**
 * Second factors and passwordless sign-in (issue: second factors). Calls under /v3/sso.
 * Recovery codes are 10 characters (two groups of five, Crockford base32), not the spec's
 * 6 digits: a recovery code stands in for the authenticator, so it gets 50 bits, not 20.
 */
export const twoFactorMethodSchema = z.enum(['totp', 'email']);
export type TwoFactorMethod = z.infer<typeof twoFactorMethodSchema>;

export const recoveryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-Z]{5}-?[0-9A-Z]{5}$/, 'Recovery code not valid');

/**
 * What the second step of a sign-in asks for: the account's method, or `password` when the
 * first step was a mailed code and the second step is email too (one mailbox is not two factors).
 */
export const challengeMethodSchema = z.enum(['totp', 'email', 'password']);
export type ChallengeMethod = z.infer<typeof challengeMethodSchema>;

/** POST /sso/auth (and every other sign-in) answers this instead of {token} when two-step is on. */
export const mfaChallengeResponseSchema = z.object({
  mfa_required: z.literal(true),
  /** Opaque, single use, 5 minutes; stands for "first factor passed". */
  mfa_token: z.string(),
  method: challengeMethodSchema,
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;

/** POST /sso/auth/mfa: the second factor (exactly one of code, recovery_code or, for method `password`, password) → {token}. */
export const mfaVerifyRequestSchema = z
  .object({
    mfa_token: z.string().min(1).max(200),
    code: codeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
    password: z.string().min(1).max(1024).optional(),
    /** Needed once the account's budget of failed second steps is spent (`captcha_required` in the last refusal). */
    captcha: captchaField,
  })
  .refine((value) => [value.code, value.recovery_code, value.password].filter(Boolean).length === 1, { message: messages.codeInvalid, path: ['code'] });
/** POST /sso/auth/mfa/resend: mail another code (email method). */
export const mfaResendRequestSchema = z.object({ mfa_token: z.string().min(1).max(200) });

/** POST /sso/auth/code/send → {email} (same answer whether or not the account exists). */
export const loginCodeSendRequestSchema = z.object({ email: emailSchema, captcha: z.string().max(8192).optional() });
/** POST /sso/auth/code → {token} | MfaChallengeResponse. */
export const loginCodeRequestSchema = z.object({ email: emailSchema, code: codeSchema });

/** GET /sso/me/2fa */
export const twoFactorStatusSchema = z.object({
  method: twoFactorMethodSchema.nullable(),
  recovery_codes_remaining: z.number().int(),
});
/** POST /sso/me/2fa/totp/setup → a pending secret (enabled only after a valid code). */
export const totpSetupResponseSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** data:image/svg+xml;base64,... QR code of otpauth_url. */
  qr_code: z.string(),
});
/** POST /sso/me/2fa/totp/enable {code}; POST /sso/me/2fa/email/enable {code} (after POST /sso/me/2fa/email/send). */
export const enableTwoFactorRequestSchema = z.object({ code: codeSchema });
/** Shown once, after enabling and after regenerating. */
export const recoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()) });
/** POST /sso/me/2fa/disable, POST /sso/me/2fa/recovery-codes: the password and a current code (or a recovery code). */
export const confirmTwoFactorRequestSchema = z
  .object({ password: passwordSchema, code: codeSchema.optional(), recovery_code: recoveryCodeSchema.optional() })
  .refine((value) => Boolean(value.code) !== Boolean(value.recovery_code), { message: messages.codeInvalid, path: ['code'] });

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

// Passkeys (the spec names the option calls). WebAuthn JSON is passed through as
// @simplewebauthn produces and consumes it; the server checks it fully.
export const webauthnAlgorithmsSchema = z.array(z.enum(['es256', 'rs256'])).min(1).default(['es256', 'rs256']);
const webauthnJson = z.record(z.string(), z.unknown());

/** POST /sso/users/me/webauthn/enable/options {algorithms} → creation options JSON. */
export const passkeyEnableOptionsRequestSchema = z.object({ algorithms: webauthnAlgorithmsSchema });
/** POST /sso/users/me/webauthn/enable {response, name?} → passkey. */
export const passkeyEnableRequestSchema = z.object({ response: webauthnJson, name: z.string().trim().min(1).max(60).optional() });
/** POST /sso/users/webauthn/auth/options {username?} → request options JSON (discoverable credentials). */
export const passkeyAuthOptionsRequestSchema = z.object({ username: identifierSchema.optional() });
/** POST /sso/users/webauthn/auth {username?, response} → {token}. */
export const passkeyAuthRequestSchema = z.object({ username: identifierSchema.optional(), response: webauthnJson });
/** POST /sso/users/webauthn/register/options {algorithms, email, full_name} → creation options JSON. */
export const passkeyRegisterOptionsRequestSchema = z.object({ algorithms: webauthnAlgorithmsSchema, email: emailSchema, full_name: fullNameSchema, captcha: captchaField });
/** POST /sso/users/webauthn/register {response} → 201 {email}; the account is activated by mail as with a password. */
export const passkeyRegisterRequestSchema = z.object({ response: webauthnJson });

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  device_type: z.string().nullable(),
  backed_up: z.boolean(),
});
/** GET /sso/users/me/webauthn; PUT /sso/users/me/webauthn/{id} {name}; DELETE /sso/users/me/webauthn/{id}. */
export const passkeyListSchema = z.array(passkeySchema);
export const passkeyRenameRequestSchema = z.object({ name: z.string().trim().min(1, messages.blank).max(60) });
