import { z } from 'zod';
import { changePasswordRequestSchema, reauthRequestSchema, revokedCountSchema, securityOverviewSchema, sessionListSchema } from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** The security pages. Sessions only: an API key never reaches them. */
const { signedIn } = endpointGroups('security');

export const overview = endpointIn(signedIn, 'GET /sso/me/security', 'Security overview: password, two-step, passkeys, recent sessions', {
  response: securityOverviewSchema,
});

export const changePassword = endpointIn(signedIn, 'PUT /sso/me/password', 'Change the password (or set the first one); other sessions are signed out', {
  body: changePasswordRequestSchema, response: null,
  errors: ['auth.current_password_required', 'auth.password_not_valid', 'auth.password_same_as_old', 'auth.password_too_common', 'auth.reauth_required', 'rate_limited'],
});

export const reauthenticate = endpointIn(signedIn, 'POST /sso/me/reauth', "Prove it is you again (the password, a second-step or recovery code, or one of the account's passkeys) before a sensitive change", {
  body: reauthRequestSchema, response: null,
  errors: ['auth.password_not_valid', 'auth.code_invalid', 'auth.recovery_code_invalid', 'auth.two_factor_not_enabled', 'auth.passkey_failed', 'rate_limited'],
});

export const reauthPasskeyOptions = endpointIn(signedIn, 'POST /sso/me/reauth/passkey/options', "Request options to re-authenticate with one of the account's passkeys (its assertion goes to POST /sso/me/reauth as `passkey`)", {
  response: z.record(z.string(), z.unknown()), errors: ['auth.passkey_not_found', 'rate_limited'],
});

export const listSessions = endpointIn(signedIn, 'GET /sso/me/sessions', 'Signed-in sessions, the current one marked', { response: sessionListSchema });

export const revokeSession = endpointIn(signedIn, 'DELETE /sso/me/sessions/{id}', 'Sign out one session', {
  params: z.object({ id: z.string().max(100) }), response: null, errors: ['auth.session_not_found'],
});

export const revokeOtherSessions = endpointIn(signedIn, 'POST /sso/me/sessions/revoke-others', 'Sign out every other session', {
  response: revokedCountSchema,
});
