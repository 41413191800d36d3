/** Signing in and up, recovery, second factors, passkeys and sessions (server modules auth, mfa, passkeys, security). */
export const authErrors = {
  'auth.invalid_credentials': { status: 400, message: 'Email or password not valid' },
  'auth.not_activated': { status: 403, message: 'Your account is not activated. Check your email' },
  'auth.account_locked': { status: 403, message: 'This account is locked. Contact support' },
  'auth.account_not_found': { status: 404, message: 'No account for this email or username' },
  'auth.captcha_required': { status: 400, message: 'Complete the captcha' },
  'auth.captcha_invalid': { status: 400, message: 'Captcha verification failed' },
  'auth.password_too_common': { status: 400, message: 'Choose a less common password' },
  'auth.password_same_as_old': { status: 400, message: 'Choose a new password different from the old one' },
  'auth.password_not_valid': { status: 400, message: 'Password not valid' },
  'auth.confirm_password_mismatch': { status: 400, message: 'Confirm password is not match!' },
  'auth.activation_link_invalid': { status: 400, message: 'This activation link has expired or has already been used' },
  'auth.reset_link_invalid': { status: 400, message: 'This reset link is invalid or has expired' },
  'auth.code_invalid': { status: 400, message: 'Verification code incorrect or expired' },
  'auth.recovery_email_mismatch': { status: 400, message: 'The recovery email does not match {hint}' },
  // The spec's validation rules: the server's words, shown in Vietnamese when the language is not English.
  'auth.email_exists': { status: 400, message: 'email already exists' },
  'auth.email_not_valid': { status: 400, message: 'email is not valid' },
  'auth.enter_valid_email': { status: 400, message: 'enter a valid email address' },

  // Second factors and passkeys.
  'auth.mfa_token_invalid': { status: 400, message: 'Your sign-in took too long. Sign in again' },
  'auth.reauth_required': { status: 403, message: 'Confirm it is you to continue' },
  'auth.mfa_not_email': { status: 400, message: 'This sign-in does not use email codes' },
  'auth.recovery_code_invalid': { status: 400, message: 'Recovery code not valid' },
  'auth.two_factor_required': { status: 403, message: 'Turn on two-step verification to do this' },
  'auth.two_factor_already_enabled': { status: 400, message: 'Two-step verification is already on' },
  'auth.two_factor_not_enabled': { status: 400, message: 'Two-step verification is not on' },
  'auth.current_password_required': { status: 400, message: 'Enter your current password' },
  'auth.passkey_failed': { status: 400, message: 'Passkeys authentication failed' },
  'auth.passkey_signup_failed': { status: 400, message: 'Failed to log in/sign up with passkeys' },
  'auth.passkey_not_found': { status: 404, message: 'Passkey not found' },
  'auth.session_not_found': { status: 404, message: 'Session not found' },
  // OAuth.
  '1002': { status: 400, message: 'The authorization code is not valid' },
} as const;
