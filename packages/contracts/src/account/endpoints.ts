import { z } from 'zod';
import {
  deletionRequestSchema,
  deletionResponseSchema,
  educationEmailConfirmSchema,
  educationEmailRequestSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  privacySettingsSchema,
  recoveryEmailRequestSchema,
  recoveryEmailVerifySchema,
  restoreRequestSchema,
} from './schemas';
import { sentToResponseSchema, tokenResponseSchema, updateMeRequestSchema, userSchema } from '../auth/schemas';
import { endpoint } from '../endpoint';
import * as firstPaint from '../first-paint';

/** The profile, its emails, privacy, export and deletion. API keys reach the profile and privacy with me:read / me:write. */
const tag = 'account';
const read = { scope: 'me:read' } as const;
const write = { scope: 'me:write' } as const;

export const me = endpoint({
  ...firstPaint.me,
  tag,
  auth: read,
  summary: 'The signed-in user',
  response: userSchema,
});

export const updateMe = endpoint({
  ...firstPaint.updateMe,
  tag,
  auth: write,
  summary: 'Update the user; language also sets the lang cookie',
  body: updateMeRequestSchema,
  response: userSchema,
});

export const lastActive = endpoint({
  ...firstPaint.lastActive,
  tag,
  auth: 'session',
  summary: 'Record that the user is active now',
  response: null,
});

export const requestEmailChange = endpoint({
  method: 'POST',
  path: '/sso/me/email/change',
  tag,
  auth: 'session',
  recentAuth: true,
  summary: 'Ask to change the email: a code goes to the new address, a notice to the old',
  body: emailChangeRequestSchema,
  response: null,
  errors: ['auth.email_exists', 'auth.password_not_valid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'rate_limited'],
});

export const confirmEmailChange = endpoint({
  method: 'POST',
  path: '/sso/me/email/change/confirm',
  tag,
  auth: 'session',
  summary: 'Confirm the new email with the code it received',
  body: emailChangeConfirmSchema,
  response: userSchema,
  errors: ['auth.code_invalid', 'auth.email_exists', 'rate_limited'],
});

export const setRecoveryEmail = endpoint({
  method: 'PUT',
  path: '/sso/me/recovery-email',
  tag,
  auth: 'session',
  summary: 'Set the recovery email (a code is mailed to it)',
  body: recoveryEmailRequestSchema,
  response: null,
  errors: ['auth.password_not_valid', 'rate_limited'],
});

export const verifyRecoveryEmail = endpoint({
  method: 'POST',
  path: '/sso/me/recovery-email/verify',
  tag,
  auth: 'session',
  summary: 'Verify the recovery email with its code',
  body: recoveryEmailVerifySchema,
  response: userSchema,
  errors: ['auth.code_invalid', 'rate_limited'],
});

export const removeRecoveryEmail = endpoint({
  method: 'DELETE',
  path: '/sso/me/recovery-email',
  tag,
  auth: 'session',
  summary: 'Remove the recovery email',
  response: userSchema,
});

export const requestEducationEmail = endpoint({
  method: 'POST',
  path: '/sso/me/education-email',
  tag,
  auth: 'session',
  summary: 'Mail a confirmation link to an education address',
  body: educationEmailRequestSchema,
  response: null,
  errors: ['rate_limited'],
});

export const confirmEducationEmail = endpoint({
  method: 'POST',
  path: '/sso/users/education-email/confirm',
  tag,
  auth: 'public',
  summary: 'Confirm an education email with the mailed link token',
  body: educationEmailConfirmSchema,
  response: sentToResponseSchema,
  errors: ['account.email_link_invalid'],
});

export const privacy = endpoint({
  method: 'GET',
  path: '/sso/me/privacy',
  tag,
  auth: read,
  summary: 'Privacy choices',
  response: privacySettingsSchema,
});

export const setPrivacy = endpoint({
  method: 'PUT',
  path: '/sso/me/privacy',
  tag,
  auth: write,
  summary: 'Change privacy choices',
  body: privacySettingsSchema,
  response: privacySettingsSchema,
});

export const exportData = endpoint({
  method: 'GET',
  path: '/sso/me/export',
  tag,
  auth: 'session',
  summary: 'Every piece of personal data we keep, as a JSON attachment (never hashes or secrets)',
  response: z.record(z.string(), z.unknown()),
});

export const requestDeletion = endpoint({
  method: 'POST',
  path: '/sso/me/deletion',
  tag,
  auth: 'session',
  summary: 'Schedule the deletion of the account (14 days) and sign out everywhere',
  body: deletionRequestSchema,
  response: deletionResponseSchema,
  errors: ['account.confirmation_mismatch', 'auth.password_not_valid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'rate_limited'],
});

export const restore = endpoint({
  ...firstPaint.restore,
  tag: 'auth',
  auth: 'public',
  summary: 'Cancel a scheduled deletion with the restore token a sign-in answered, and sign in',
  body: restoreRequestSchema,
  response: tokenResponseSchema,
  errors: ['auth.mfa_token_invalid', 'rate_limited'],
});
