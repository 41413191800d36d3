import { sentToResponseSchema, tokenResponseSchema } from '../auth/schemas';
import {
  confirmTwoFactorRequestSchema,
  enableTwoFactorRequestSchema,
  loginCodeRequestSchema,
  loginCodeSendRequestSchema,
  mfaResendRequestSchema,
  mfaVerifyRequestSchema,
  recoveryCodesResponseSchema,
  totpSetupResponseSchema,
  twoFactorStatusSchema,
} from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';
import { signInAnswerSchema } from '../auth/endpoints';
import * as firstPaint from '../first-paint';

/** Email-code sign-in and the second-factor step of a sign-in (tag `auth`), and the two-step settings. */
const { anyone: signingIn } = endpointGroups('auth');
const { signedIn, sensitive } = endpointGroups('two-step verification');
/** Turning a method on with its first code. */
const enableErrors = ['auth.code_invalid', 'auth.two_factor_already_enabled', 'rate_limited'] as const;
/** The password and a current or recovery code. */
const confirmErrors = ['auth.password_not_valid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'auth.two_factor_not_enabled', 'rate_limited'] as const;

export const verifySecondFactor = endpointIn(signingIn, firstPaint.verifySecondFactor, 'Complete a sign-in with the second factor (a current code or a recovery code)', {
  body: mfaVerifyRequestSchema, response: tokenResponseSchema,
  errors: ['auth.mfa_token_invalid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'auth.not_activated', 'auth.captcha_required', 'auth.captcha_invalid', 'rate_limited'],
});

export const resendSecondFactor = endpointIn(signingIn, firstPaint.resendSecondFactor, 'Mail another sign-in code (email method)', {
  body: mfaResendRequestSchema, response: null, errors: ['auth.mfa_token_invalid', 'rate_limited'],
});

export const sendLoginCode = endpointIn(signingIn, 'POST /sso/auth/code/send', 'Mail a 6-digit sign-in code (same answer whether or not the account exists)', {
  body: loginCodeSendRequestSchema, response: sentToResponseSchema,
  errors: ['auth.captcha_required', 'auth.captcha_invalid', 'rate_limited'],
});

export const signInWithCode = endpointIn(signingIn, 'POST /sso/auth/code', 'Sign in with a mailed code; answers the second-factor step when two-step is on', {
  body: loginCodeRequestSchema, response: signInAnswerSchema,
  errors: ['auth.code_invalid', 'auth.not_activated', 'sso.required', 'account.deletion_pending', 'rate_limited'],
});

export const status = endpointIn(signedIn, 'GET /sso/me/2fa', 'Two-step verification status', { response: twoFactorStatusSchema });

export const totpSetup = endpointIn(sensitive, 'POST /sso/me/2fa/totp/setup', 'Start TOTP: a pending secret, its otpauth URL and QR code', {
  response: totpSetupResponseSchema, errors: ['auth.two_factor_already_enabled', 'rate_limited'],
});

export const totpEnable = endpointIn(sensitive, 'POST /sso/me/2fa/totp/enable', 'Turn TOTP on with a code from the app; answers the recovery codes', {
  body: enableTwoFactorRequestSchema, response: recoveryCodesResponseSchema,
  errors: enableErrors,
});

export const emailSend = endpointIn(signedIn, 'POST /sso/me/2fa/email/send', 'Mail a code to turn the email method on (or to confirm changes while it is on)', {
  response: null, errors: ['rate_limited'],
});

export const emailEnable = endpointIn(sensitive, 'POST /sso/me/2fa/email/enable', 'Turn the email method on with the mailed code; answers the recovery codes', {
  body: enableTwoFactorRequestSchema, response: recoveryCodesResponseSchema,
  errors: enableErrors,
});

export const disable = endpointIn(sensitive, 'POST /sso/me/2fa/disable', 'Turn two-step verification off (password and a current or recovery code)', {
  body: confirmTwoFactorRequestSchema, response: null,
  errors: confirmErrors,
});

export const regenerateRecoveryCodes = endpointIn(sensitive, 'POST /sso/me/2fa/recovery-codes', 'Replace the recovery codes (password and a current or recovery code)', {
  body: confirmTwoFactorRequestSchema, response: recoveryCodesResponseSchema,
  errors: confirmErrors,
});
