import { z } from 'zod';
import { tokenResponseSchema } from '../auth/schemas';
import { mfaChallengeResponseSchema } from '../mfa/schemas';
import {
  linkedIdentitiesSchema,
  socialAuthorizeRequestSchema,
  socialLinkedSchema,
  socialProviderParamsSchema,
  socialSignUpOfferSchema,
  socialSignUpRequestSchema,
  socialSignUpVerifyRequestSchema,
  socialStartRequestSchema,
  socialStartResponseSchema,
  socialVerificationRequiredSchema,
} from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** Sign-in and sign-up with Google, GitHub, Facebook, Apple, Microsoft and VinCSS, and the linked methods of an account. */
const { anyone, maybeSignedIn, signedIn, sensitive } = endpointGroups('social');

export const start = endpointIn(maybeSignedIn, 'POST /_auth/oauth/{provider}/start', 'The provider authorization URL to send the browser to; state, nonce and PKCE verifier are kept in a sealed cookie. intent=link needs a recent sign-in', {
  params: socialProviderParamsSchema, body: socialStartRequestSchema, response: socialStartResponseSchema,
  errors: ['social.provider_unavailable', 'auth.reauth_required', 'rate_limited'],
});

/** The spec's social code exchange: a session, the second step, the deletion-restore offer (403), "no account yet", or linked. */
export const authorize = endpointIn(maybeSignedIn, 'POST /_auth/oauth/{provider}/authorize', 'Exchange the code the provider returned to /callback: a session, the second-factor step, the deletion-restore offer, a sign-up offer, or the identity linked', {
  params: socialProviderParamsSchema, body: socialAuthorizeRequestSchema, response: z.union([tokenResponseSchema, mfaChallengeResponseSchema, socialSignUpOfferSchema, socialLinkedSchema]),
  errors: ['1002', 'social.provider_unavailable', 'social.state_invalid', 'social.account_exists', 'social.linked_elsewhere', 'social.already_linked', 'account.deletion_pending', 'rate_limited'],
});

export const signUp = endpointIn(anyone, 'POST /_auth/oauth/signup', 'Finish a social sign-up (/create-user): a session when the email is the provider-verified one, else a code is mailed to it', {
  body: socialSignUpRequestSchema, response: z.union([tokenResponseSchema, socialVerificationRequiredSchema]),
  errors: ['social.signup_expired', 'social.account_exists', 'social.linked_elsewhere', 'rate_limited'],
});

export const verifySignUp = endpointIn(anyone, 'POST /_auth/oauth/signup/verify', 'Prove the mailed code of a social sign-up: the account is created active and signed in', {
  body: socialSignUpVerifyRequestSchema, response: tokenResponseSchema,
  errors: ['auth.code_invalid', 'social.signup_expired', 'social.account_exists', 'social.linked_elsewhere', 'rate_limited'],
});

export const linked = endpointIn(signedIn, 'GET /sso/me/social', 'The social accounts linked to this account, and the providers it could link', {
  response: linkedIdentitiesSchema,
});

export const unlink = endpointIn(sensitive, 'DELETE /sso/me/social/{provider}', 'Unlink a social account; refused when it is the last way to sign in', {
  params: socialProviderParamsSchema, response: null, errors: ['social.not_linked', 'social.last_method'],
});
