import { z } from 'zod';
import { sentToResponseSchema } from '../auth/schemas';
import {
  passkeyAuthOptionsRequestSchema,
  passkeyAuthRequestSchema,
  passkeyEnableOptionsRequestSchema,
  passkeyEnableRequestSchema,
  passkeyListSchema,
  passkeyRegisterOptionsRequestSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  passkeySchema,
} from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';
import * as firstPaint from '../first-paint';
import { signInAnswerSchema } from '../auth/endpoints';

const { anyone, signedIn, sensitive, sensitiveSecondStep } = endpointGroups('passkeys');

/** WebAuthn options as @simplewebauthn produces them, passed through to the browser. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());
const idParams = z.object({ id: z.string().max(100) });

export const registerOptions = endpointIn(anyone, 'POST /sso/users/webauthn/register/options', 'Creation options for signing up with a passkey', {
  body: passkeyRegisterOptionsRequestSchema, response: webauthnOptionsSchema, errors: ['rate_limited'],
});

export const register = endpointIn(anyone, 'POST /sso/users/webauthn/register', 'Sign up with a passkey; the account is activated by mail', {
  body: passkeyRegisterRequestSchema, status: 201, response: sentToResponseSchema, errors: ['auth.passkey_signup_failed', 'rate_limited'],
});

export const authOptions = endpointIn(anyone, firstPaint.passkeyAuthOptions, 'Request options for signing in with a passkey (discoverable credentials)', {
  body: passkeyAuthOptionsRequestSchema, response: webauthnOptionsSchema, errors: ['rate_limited'],
});

export const authenticate = endpointIn(anyone, firstPaint.passkeyAuthenticate, 'Sign in with a passkey; answers the second-factor step when two-step is on', {
  body: passkeyAuthRequestSchema, response: signInAnswerSchema,
  errors: ['auth.passkey_failed', 'auth.not_activated', 'account.deletion_pending', 'rate_limited'],
});

export const enableOptions = endpointIn(sensitiveSecondStep, 'POST /sso/users/me/webauthn/enable/options', 'Creation options for adding a passkey to the account', {
  body: passkeyEnableOptionsRequestSchema, response: webauthnOptionsSchema, errors: ['rate_limited'],
});

export const enable = endpointIn(sensitiveSecondStep, 'POST /sso/users/me/webauthn/enable', 'Add a passkey to the account', {
  body: passkeyEnableRequestSchema, response: passkeySchema, errors: ['auth.passkey_failed', 'rate_limited'],
});

export const list = endpointIn(signedIn, 'GET /sso/users/me/webauthn', 'The passkeys of the account', { response: passkeyListSchema });

export const rename = endpointIn(signedIn, 'PUT /sso/users/me/webauthn/{id}', 'Rename a passkey', {
  params: idParams, body: passkeyRenameRequestSchema, response: passkeySchema, errors: ['auth.passkey_not_found'],
});

// A factor taken away, as one added, asks for a recent proof: an old or stolen session could
// otherwise strip the owner's passkeys.
export const remove = endpointIn(sensitive, 'DELETE /sso/users/me/webauthn/{id}', 'Remove a passkey', {
  params: idParams, response: null, errors: ['auth.passkey_not_found'],
});
