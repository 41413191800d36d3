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
} from '../mfa/schemas';
import { endpoint } from '../endpoint';
import * as firstPaint from '../first-paint';
import { signInAnswerSchema } from '../auth/endpoints';

const tag = 'passkeys';

/** WebAuthn options as @simplewebauthn produces them, passed through to the browser. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());
const idParams = z.object({ id: z.string().max(100) });

export const registerOptions = endpoint({
  method: 'POST',
  path: '/sso/users/webauthn/register/options',
  tag,
  auth: 'public',
  summary: 'Creation options for signing up with a passkey',
  body: passkeyRegisterOptionsRequestSchema,
  response: webauthnOptionsSchema,
  errors: ['rate_limited'],
});

export const register = endpoint({
  method: 'POST',
  path: '/sso/users/webauthn/register',
  tag,
  auth: 'public',
  summary: 'Sign up with a passkey; the account is activated by mail',
  body: passkeyRegisterRequestSchema,
  status: 201,
  response: sentToResponseSchema,
  errors: ['auth.passkey_signup_failed', 'rate_limited'],
});

export const authOptions = endpoint({
  ...firstPaint.passkeyAuthOptions,
  tag,
  auth: 'public',
  summary: 'Request options for signing in with a passkey (discoverable credentials)',
  body: passkeyAuthOptionsRequestSchema,
  response: webauthnOptionsSchema,
  errors: ['rate_limited'],
});

export const authenticate = endpoint({
  ...firstPaint.passkeyAuthenticate,
  tag,
  auth: 'public',
  summary: 'Sign in with a passkey; answers the second-factor step when two-step is on',
  body: passkeyAuthRequestSchema,
  response: signInAnswerSchema,
  errors: ['auth.passkey_failed', 'auth.not_activated', 'account.deletion_pending', 'rate_limited'],
});

export const enableOptions = endpoint({
  method: 'POST',
  path: '/sso/users/me/webauthn/enable/options',
  tag,
  auth: 'session',
  recentAuth: true,
  summary: 'Creation options for adding a passkey to the account',
  body: passkeyEnableOptionsRequestSchema,
  response: webauthnOptionsSchema,
  errors: ['rate_limited'],
});

export const enable = endpoint({
  method: 'POST',
  path: '/sso/users/me/webauthn/enable',
  tag,
  auth: 'session',
  recentAuth: true,
  summary: 'Add a passkey to the account',
  body: passkeyEnableRequestSchema,
  response: passkeySchema,
  errors: ['auth.passkey_failed', 'rate_limited'],
});

export const list = endpoint({
  method: 'GET',
  path: '/sso/users/me/webauthn',
  tag,
  auth: 'session',
  summary: 'The passkeys of the account',
  response: passkeyListSchema,
});

export const rename = endpoint({
  method: 'PUT',
  path: '/sso/users/me/webauthn/{id}',
  tag,
  auth: 'session',
  summary: 'Rename a passkey',
  params: idParams,
  body: passkeyRenameRequestSchema,
  response: passkeySchema,
  errors: ['auth.passkey_not_found'],
});

export const remove = endpoint({
  method: 'DELETE',
  path: '/sso/users/me/webauthn/{id}',
  tag,
  auth: 'session',
  summary: 'Remove a passkey',
  params: idParams,
  response: null,
  errors: ['auth.passkey_not_found'],
});
