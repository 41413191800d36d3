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

  // Second factors and passkeys.
  'auth.mfa_token_invalid': { status: 400, message: 'Your sign-in took too long. Please sign in again' },
  'auth.recovery_code_invalid': { status: 400, message: 'Recovery code not valid' },
  'auth.two_factor_required': { status: 403, message: 'Turn on two-step verification to do this' },
  'auth.two_factor_already_enabled': { status: 400, message: 'Two-step verification is already on' },
  'auth.two_factor_not_enabled': { status: 400, message: 'Two-step verification is not on' },
  'auth.current_password_required': { status: 400, message: 'Enter your current password' },
  'auth.passkey_failed': { status: 400, message: 'Passkeys authentication failed' },
  'auth.passkey_signup_failed': { status: 400, message: 'Failed to log in/sign up with passkeys' },
  'auth.passkey_not_found': { status: 404, message: 'Passkey not found' },
  'auth.session_not_found': { status: 404, message: 'Session not found' },

  // Account self-service.
  'account.deletion_pending': { status: 403, message: 'This account is scheduled for deletion on {date}' },
  'account.confirmation_mismatch': { status: 400, message: 'Type {word} to confirm' },
  'account.avatar_invalid': { status: 400, message: 'The picture must be a PNG, JPEG or WebP image of at most 5 MB' },
  'account.email_link_invalid': { status: 400, message: 'This confirmation link has expired or has already been used' },
  'api_keys.scope_missing': { status: 403, message: "Your account doesn't have permission to perform this action" },
  'api_keys.not_found': { status: 404, message: 'API key not found' },
  'notifications.not_found': { status: 404, message: 'Notification not found' },

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
