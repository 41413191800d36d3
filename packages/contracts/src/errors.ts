import { z } from 'zod';

/**
 * Every error the `/v3` API can answer, declared once. The server throws these codes;
 * the web app maps a code to translated text (i18n key `errors.<code>`), falling back
 * to `message`. Numeric codes are the spec's (section 8); the rest are dotted names.
 */
export const errorCatalogue = {
  validation_error: { status: 400, message: 'Invalid data' },
  not_found: { status: 404, message: 'Resource not found' },
  unauthorized: { status: 401, message: 'Session expired, please login again' },
  forbidden: { status: 403, message: "Your account doesn't have permission to perform this action" },
  rate_limited: { status: 429, message: 'Too many requests. Try again in {second} seconds' },
  something_went_wrong: { status: 500, message: 'Something went wrong!' },
  payload_too_large: { status: 413, message: 'The request is too large' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type' },

  'auth.invalid_credentials': { status: 400, message: 'Email or password not valid' },
  'auth.not_activated': { status: 403, message: 'Your account is not activated. Please check your email' },
  'auth.account_not_found': { status: 404, message: 'No account for this email or username' },
  'auth.captcha_required': { status: 400, message: 'Please complete the captcha' },
  'auth.captcha_invalid': { status: 400, message: 'Captcha verification failed' },
  'auth.password_too_common': { status: 400, message: 'This password is too common. Choose another one' },
  'auth.password_same_as_old': { status: 400, message: 'The new password must be different from the old one' },
  'auth.password_not_valid': { status: 400, message: 'Password not valid' },
  'auth.confirm_password_mismatch': { status: 400, message: 'Confirm password is not match!' },
  'auth.activation_link_invalid': { status: 400, message: 'This activation link has expired or has already been used' },
  'auth.reset_link_invalid': { status: 400, message: 'This reset link is invalid or has expired' },
  'auth.code_invalid': { status: 400, message: 'Verification code incorrect or expired' },
  'auth.recovery_email_mismatch': { status: 400, message: 'The recovery email does not match {hint}' },
  'auth.email_exists': { status: 400, message: 'email already exists' },
  'auth.email_not_valid': { status: 400, message: 'email is not valid' },

  '1002': { status: 400, message: 'The authorization code is not valid' },
  '7013': { status: 400, message: 'The trial plan was applied for {email}' },
  '7014': {
    status: 400,
    message: 'A Locker account for this email exists. Cancel the current plan or use another email to register the business plan',
  },
  '7015': { status: 400, message: '{email} is in an Enterprise, leave it or use another email' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The one error body of `/v3`. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Fill `{name}` placeholders of a catalogue message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
