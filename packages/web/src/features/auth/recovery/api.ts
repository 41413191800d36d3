import { authEndpoints } from '@portal/contracts';
import { call } from '../../../lib/api';

const options = { handle: [400, 429] } as const;

/** Step 1: the full recovery email of the account; the code (and a link) are mailed. */
export const verifyRecoveryEmail = (identifier: string, email: string, captcha?: string) =>
  call(authEndpoints.forgotVerifyEmail, { body: { identifier, email, captcha } }, options);

/** Step 2: the mailed code for a short-lived reset token. */
export const verifyRecoveryCode = (identifier: string, code: string) =>
  call(authEndpoints.forgotVerifyCode, { body: { identifier, code } }, options);

/** Whether a reset token (the mailed link's, or the code's) still works. */
export const checkResetToken = (token: string) => call(authEndpoints.checkResetToken, { body: { token } }, options);

/** The new password; every session of the account is signed out. */
export const resetPassword = (token: string, newPassword: string, confirmPassword: string) =>
  call(authEndpoints.resetPassword, { body: { token, new_password: newPassword, confirm_password: confirmPassword } }, options);
