import { z } from 'zod';
import { tokenResponseSchema } from '../api/auth';
import { companySsoFinishRequestSchema, companySsoStartRequestSchema, companySsoStartResponseSchema } from '../api/company-sso';
import { mfaChallengeResponseSchema } from '../api/second-factors';
import { endpoint } from '../endpoint';

/** Company SSO (/login/sso, /sso/redirect): an organization's OpenID Connect or SAML 2.0 identity provider. */
const tag = 'company-sso';

export const start = endpoint({
  method: 'POST',
  path: '/_auth/sso/start',
  tag,
  auth: 'public',
  summary: "The organization's identity provider to send the browser to, found by its SSO identifier or an email of a domain it verified; OpenID Connect state, nonce and PKCE are kept in a sealed cookie",
  body: companySsoStartRequestSchema,
  response: companySsoStartResponseSchema,
  errors: ['sso.identifier_invalid', 'sso.idp_unavailable', 'rate_limited'],
});

export const finish = endpoint({
  method: 'POST',
  path: '/_auth/sso/finish',
  tag,
  auth: 'public',
  summary: 'Finish a company SSO sign-in at /sso/redirect: a session, the second-factor step or the deletion-restore offer; a new person is provisioned just in time as a member',
  body: companySsoFinishRequestSchema,
  response: z.union([tokenResponseSchema, mfaChallengeResponseSchema]),
  errors: [
    '1002',
    'sso.state_invalid',
    'sso.idp_unavailable',
    'sso.email_missing',
    'sso.domain_not_verified',
    'sso.account_unverified',
    'sso.member_elsewhere',
    'account.deletion_pending',
    'rate_limited',
  ],
});
