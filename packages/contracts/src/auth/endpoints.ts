import {
  activateRequestSchema,
  activationResponseSchema,
  forgotVerifyCodeRequestSchema,
  forgotVerifyEmailRequestSchema,
  resendActivationRequestSchema,
  resetPasswordRequestSchema,
  resetTokenCheckRequestSchema,
  resetTokenResponseSchema,
  sentToResponseSchema,
  signInRequestSchema,
  signUpRequestSchema,
  tokenResponseSchema,
} from './schemas';
import { mfaChallengeResponseSchema } from '../mfa/schemas';
import { endpointGroups, endpointIn } from '../endpoint';
import * as firstPaint from '../first-paint';
import { z } from 'zod';

/** Sign-in with a password, sign-up, activation and password recovery: anyone may call them. */
const { anyone } = endpointGroups('auth');

/** A session (the cookies are set too), or the second-factor step when two-step is on. */
export const signInAnswerSchema = z.union([tokenResponseSchema, mfaChallengeResponseSchema]);

export const signIn = endpointIn(anyone, firstPaint.signIn, 'Sign in with email or username and password; answers the second-factor step when two-step is on', {
  body: signInRequestSchema, response: signInAnswerSchema,
  errors: ['auth.invalid_credentials', 'auth.captcha_required', 'auth.captcha_invalid', 'auth.not_activated', 'sso.required', 'account.deletion_pending', 'rate_limited'],
});

export const signUp = endpointIn(anyone, 'POST /sso/users', 'Sign up; an activation mail follows', {
  body: signUpRequestSchema, status: 201, response: sentToResponseSchema,
  errors: ['auth.password_too_common', 'auth.captcha_required', 'auth.captcha_invalid', 'rate_limited'],
});

export const resendActivation = endpointIn(anyone, firstPaint.resendActivation, 'Send the activation mail again', {
  body: resendActivationRequestSchema, response: sentToResponseSchema,
  errors: ['auth.captcha_required', 'auth.captcha_invalid', 'rate_limited'],
});

export const activate = endpointIn(anyone, 'POST /sso/users/activate', 'Activate an account with the mailed link token', {
  body: activateRequestSchema, response: activationResponseSchema, errors: ['auth.activation_link_invalid', 'rate_limited'],
});

export const forgotVerifyEmail = endpointIn(anyone, 'POST /sso/password/forgot/verify-email', 'Verify the recovery email; a code is mailed', {
  body: forgotVerifyEmailRequestSchema, response: null,
  errors: ['auth.recovery_email_mismatch', 'auth.captcha_required', 'auth.captcha_invalid', 'auth.not_activated', 'rate_limited'],
});

export const forgotVerifyCode = endpointIn(anyone, 'POST /sso/password/forgot/verify-code', 'Exchange the mailed code for a reset token', {
  body: forgotVerifyCodeRequestSchema, response: resetTokenResponseSchema, errors: ['auth.code_invalid', 'rate_limited'],
});

export const checkResetToken = endpointIn(anyone, 'POST /sso/password/reset/check', 'Whether a reset link is still valid', {
  body: resetTokenCheckRequestSchema, response: null, errors: ['auth.reset_link_invalid', 'rate_limited'],
});

export const resetPassword = endpointIn(anyone, 'POST /sso/password/reset', 'Set a new password with a reset token', {
  body: resetPasswordRequestSchema, response: null,
  errors: ['auth.reset_link_invalid', 'auth.password_too_common', 'auth.password_same_as_old', 'rate_limited'],
});
