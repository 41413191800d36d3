import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, VERIFICATION_CODE_LENGTH } from '../constants';
import { serviceScopes } from '../scopes';
import { personFields } from '../fields';
import { languageSchema } from '../resources/schemas';

/**
 * Identity-core calls under /v3/sso. Field messages are the spec's words where the spec
 * words them, else the forms' one voice: what to enter or choose ("Enter …", "Choose …";
 * web i18n/voice.test.ts holds both languages to it). The web app shows them translated
 * by the same text.
 */
export const messages = {
  blank: 'This field may not be blank.',
  emailRequired: 'The email field is required',
  emailInvalid: 'Email address is not valid',
  identifierInvalid: 'Email or username not valid',
  passwordRequired: 'Enter a password',
  passwordTooShort: `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Enter a password of at most ${PASSWORD_MAX_LENGTH} characters`,
  confirmMismatch: 'Confirm password is not match!',
  termsRequired: 'Accept the Terms of Service and Privacy Policy',
  codeInvalid: 'Verification code incorrect or expired',
  codeFormat: `Enter the ${VERIFICATION_CODE_LENGTH}-digit code`,
  /** The password recovery's mailed code (the spec's validation rules: 'recovery code is 6 digits'). */
  recoveryCodeFormat: `Recovery code is ${VERIFICATION_CODE_LENGTH} digits`,
} as const;

/** The profile's own field messages (PUT /sso/me): the account pages' words (`account.validation.<key>`). */
export const profileMessages = {
  username: 'Enter a username of letters and digits only',
  phone: 'Enter a phone number of digits only',
  company: 'Enter a company name of letters and digits only',
  organization: 'Enter an organization name of letters and digits only',
  address: 'Enter an address of letters and digits only',
  country: 'Choose a country from the list',
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = z
  .string({ error: messages.emailRequired })
  .trim()
  .min(1, messages.emailRequired)
  .max(254, messages.emailInvalid)
  .regex(EMAIL_PATTERN, messages.emailInvalid)
  .transform((value) => value.toLowerCase());

/** Email or username, as typed on the sign-in identifier step. */
export const identifierSchema = z
  .string({ error: messages.emailRequired })
  .trim()
  .min(1, messages.emailRequired)
  .max(254, messages.identifierInvalid)
  .regex(/^[^\s]+$/, messages.identifierInvalid);

/** A password as stored: never trimmed or truncated. */
export const newPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, messages.passwordTooLong);

/** A password as presented at sign-in: only presence and an upper bound are checked. */
export const passwordSchema = z.string({ error: messages.passwordRequired }).min(1, messages.passwordRequired).max(PASSWORD_MAX_LENGTH * 4);

export const fullNameSchema = z.string({ error: messages.blank }).trim().min(1, messages.blank).max(100);

export const codeSchema = z
  .string({ error: messages.codeFormat })
  .trim()
  .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), messages.codeFormat);

/** The code the password recovery mails: the same 6 digits, in the spec's words for it. */
export const recoveryVerificationCodeSchema = z
  .string({ error: messages.recoveryCodeFormat })
  .trim()
  .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), messages.recoveryCodeFormat);

/** Captcha answer (ALTCHA payload or reCAPTCHA token); required only when the server asks. */
export const captchaField = z.string().max(8192).optional();

export const signInRequestSchema = z.object({
  email: identifierSchema,
  password: passwordSchema,
  captcha: captchaField,
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const signUpRequestSchema = z.object({
  full_name: fullNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  accept_terms: z.literal(true, { error: messages.termsRequired }),
  captcha: captchaField,
  language: languageSchema.optional(),
  service_scope: z.enum(serviceScopes).optional(),
});
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

/** Sign-up and resend answer the same whether or not the email already had an account. */
export const sentToResponseSchema = z.object({ email: z.string() });

export const resendActivationRequestSchema = z.object({ email: emailSchema, captcha: captchaField });
export const activateRequestSchema = z.object({ token: z.string().min(1).max(200) });
/** The activated address; `needs_password` when the account has no way to sign in yet (choose one through recovery). */
export const activationResponseSchema = z.object({ email: z.string(), needs_password: z.boolean() });
export type ActivationResponse = z.infer<typeof activationResponseSchema>;

export const userSchema = z.object({
  ...personFields,
  language: languageSchema,
  customer_language: languageSchema,
  is_activated: z.boolean(),
  has_password: z.boolean(),
  created_at: z.string(),
  // What the account pages need.
  phone: z.string().nullable(),
  company: z.string().nullable(),
  organization: z.string().nullable(),
  address: z.string().nullable(),
  country: z.string().nullable(),
  /** Our own URL of the resized picture, or null. */
  avatar_url: z.string().nullable(),
  recovery_email: z.string().nullable(),
  recovery_email_verified: z.boolean(),
  education_email: z.string().nullable(),
  two_factor_method: z.enum(['totp', 'email']).nullable(),
  /** Set while the account is scheduled for deletion. */
  deletion_due_at: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

const usernameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]*$/, profileMessages.username)
  .max(50)
  .nullable()
  .optional();

/** The spec's "alphanumeric only": the letters A to Z (either case) and the digits, nothing else. */
export const ALPHANUMERIC_PATTERN = /^[A-Za-z0-9]*$/;

const alphanumeric = (message: string) =>
  z
    .string()
    .trim()
    .max(200)
    .regex(ALPHANUMERIC_PATTERN, message)
    .nullable()
    .optional();

/**
 * PUT /sso/me: the whole user object plus language and customer_language; fields the user
 * cannot change here (email, ids) are ignored. The spec's validation rules: phone numeric only; company,
 * username, address, organization alphanumeric only.
 */
export const updateMeRequestSchema = z.object({
  full_name: fullNameSchema,
  username: usernameSchema,
  language: languageSchema,
  customer_language: languageSchema.optional(),
  phone: z.string().trim().max(20).regex(/^\d*$/, profileMessages.phone).nullable().optional(),
  company: alphanumeric(profileMessages.company),
  organization: alphanumeric(profileMessages.organization),
  address: alphanumeric(profileMessages.address),
  country: z.string().regex(/^[A-Z]{2}$/, profileMessages.country).nullable().optional(),
});
export type UpdateMeRequest = z.infer<typeof updateMeRequestSchema>;

/** Step 1 of recovery: prove you know the recovery email; a code is then mailed. */
export const forgotVerifyEmailRequestSchema = z.object({
  identifier: identifierSchema,
  email: emailSchema,
  captcha: captchaField,
});
/** Step 2: exchange the mailed code for a short-lived reset token. */
export const forgotVerifyCodeRequestSchema = z.object({ identifier: identifierSchema, code: recoveryVerificationCodeSchema });
export const resetTokenResponseSchema = z.object({ reset_token: z.string() });

/** Step 3 (also the /reset-pwd/:token link): set the new password. */
export const resetPasswordRequestSchema = z
  .object({
    token: z.string().min(1).max(200),
    new_password: newPasswordSchema,
    confirm_password: z.string({ error: messages.blank }).min(1, messages.blank),
  })
  .refine((value) => value.new_password === value.confirm_password, {
    message: messages.confirmMismatch,
    path: ['confirm_password'],
  });

export const resetTokenCheckRequestSchema = z.object({ token: z.string().min(1).max(200) });
