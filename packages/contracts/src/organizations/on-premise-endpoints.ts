import { z } from 'zod';
import { emailSchema } from '../auth/schemas';
import { endpoint } from '../endpoint';
import { productParams, productPatterns } from '../product-platform';

/**
 * One on-premise result (the spec's entities): the organization's own server (`base_api`), whether
 * it is activated, and for the member asking: the email as the organization knows it, the
 * avatar of their account here (null without one), whether passwordless sign-in is required
 * and whether they still have to set up a passkey for it. `login_url` is the deployment's
 * login page the browser is sent to (the "matching host" of the spec's state rules).
 */
export const onPremiseResultSchema = z.object({
  activated: z.boolean(),
  base_api: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  require_passwordless: z.boolean(),
  set_up_passwordless: z.boolean(),
  login_url: z.string(),
});
export type OnPremiseResult = z.infer<typeof onPremiseResultSchema>;

export const onPremisePreloginRequestSchema = z.object({
  email: emailSchema,
  /** The page's language; accepted as the spec sends it, the answer does not depend on it. */
  language: z.string().trim().max(35).optional(),
});

/**
 * On-premise discovery (the spec's call list): the deployments of the organization the email is a
 * member of. An empty list means not an enterprise user of an on-premise deployment; anyone
 * else gets the same empty answer. Counted per address.
 */
export const onPremisePrelogin = endpoint({
  method: 'POST',
  path: '/{product}_platform/pm/users/onpremise/prelogin',
  tag: 'organizations',
  auth: 'public',
  summary: 'The on-premise deployments of the organization an email is a member of (empty when none)',
  params: productParams,
  paramPatterns: productPatterns,
  body: onPremisePreloginRequestSchema,
  response: z.array(onPremiseResultSchema),
  errors: ['rate_limited'],
});
