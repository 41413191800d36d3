import { z } from 'zod';
import { captchaField, codeSchema, emailSchema, messages, passwordSchema } from '../auth/schemas';

/**
 * Second factors: the second-factor step of a sign-in, email-code sign-in and the two-step
 * settings. Calls under /v3/sso.
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
