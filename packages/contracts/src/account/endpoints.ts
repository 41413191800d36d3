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
import { endpointGroups, endpointIn } from '../endpoint';
import * as firstPaint from '../first-paint';

/** The profile, its emails, privacy, export and deletion. API keys reach the profile and privacy with me:read / me:write. */
const tag = 'account';
const read = { tag, auth: { scope: 'me:read' } } as const;
const write = { tag, auth: { scope: 'me:write' } } as const;
const { anyone, signedIn, sensitive } = endpointGroups(tag);
/** The sign-in flows' own calls (tag `auth`). */
const { anyone: signingIn } = endpointGroups('auth');

export const me = endpointIn(read, firstPaint.me, 'The signed-in user', { response: userSchema });

export const updateMe = endpointIn(write, firstPaint.updateMe, 'Update the user; language also sets the lang cookie', {
  body: updateMeRequestSchema, response: userSchema,
});

export const lastActive = endpointIn(signedIn, firstPaint.lastActive, 'Record that the user is active now', { response: null });

export const requestEmailChange = endpointIn(sensitive, 'POST /sso/me/email/change', 'Ask to change the email: a code goes to the new address, a notice to the old', {
  body: emailChangeRequestSchema, response: null,
  errors: ['auth.email_exists', 'auth.password_not_valid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'rate_limited'],
});

export const confirmEmailChange = endpointIn(signedIn, 'POST /sso/me/email/change/confirm', 'Confirm the new email with the code it received', {
  body: emailChangeConfirmSchema, response: userSchema, errors: ['auth.code_invalid', 'auth.email_exists', 'rate_limited'],
});

export const setRecoveryEmail = endpointIn(signedIn, 'PUT /sso/me/recovery-email', 'Set the recovery email (a code is mailed to it)', {
  body: recoveryEmailRequestSchema, response: null, errors: ['auth.password_not_valid', 'rate_limited'],
});

export const verifyRecoveryEmail = endpointIn(signedIn, 'POST /sso/me/recovery-email/verify', 'Verify the recovery email with its code', {
  body: recoveryEmailVerifySchema, response: userSchema, errors: ['auth.code_invalid', 'rate_limited'],
});

// Setting one asks for the password in the request; taking the way back in away asks for a recent proof.
export const removeRecoveryEmail = endpointIn(sensitive, 'DELETE /sso/me/recovery-email', 'Remove the recovery email', { response: userSchema });

export const requestEducationEmail = endpointIn(signedIn, 'POST /sso/me/education-email', 'Mail a confirmation link to an education address', {
  body: educationEmailRequestSchema, response: null, errors: ['rate_limited'],
});

export const confirmEducationEmail = endpointIn(anyone, 'POST /sso/users/education-email/confirm', 'Confirm an education email with the mailed link token', {
  body: educationEmailConfirmSchema, response: sentToResponseSchema, errors: ['account.email_link_invalid'],
});

export const privacy = endpointIn(read, 'GET /sso/me/privacy', 'Privacy choices', { response: privacySettingsSchema });

export const setPrivacy = endpointIn(write, 'PUT /sso/me/privacy', 'Change privacy choices', { body: privacySettingsSchema, response: privacySettingsSchema });

export const exportData = endpointIn(signedIn, 'GET /sso/me/export', 'Every piece of personal data we keep, as a JSON attachment (never hashes or secrets)', {
  response: z.record(z.string(), z.unknown()),
});

export const requestDeletion = endpointIn(signedIn, 'POST /sso/me/deletion', 'Schedule the deletion of the account (14 days) and sign out everywhere', {
  body: deletionRequestSchema, response: deletionResponseSchema,
  errors: ['account.confirmation_mismatch', 'auth.password_not_valid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'rate_limited'],
});

export const restore = endpointIn(signingIn, firstPaint.restore, 'Cancel a scheduled deletion with the restore token a sign-in answered, and sign in', {
  body: restoreRequestSchema, response: tokenResponseSchema, errors: ['auth.mfa_token_invalid', 'rate_limited'],
});
