import { z } from 'zod';
import { productPlanSchema } from './billing/schemas';
import { emailSchema } from './auth/schemas';
import { languageSchema } from './resources/schemas';
import { endpoint } from './endpoint';

/** `{product}_platform`: a product id of lower-case letters and digits (e.g. `locker`). */
export const productParams = z.object({ product: z.string() });
export const productPatterns = { product: '^[a-z][a-z0-9]{0,31}' } as const;

/**
 * The password-manager user: the shared spec names the call but not its fields; these are
 * what the product pages read.
 */
export const pmUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  full_name: z.string(),
  language: languageSchema,
  avatar_url: z.string().nullable(),
  is_activated: z.boolean(),
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
  /** The person's plan of this product (billing): the free plan without a subscription. */
  plan: productPlanSchema.optional(),
});

export const pmUser = endpoint({
  method: 'GET',
  path: '/{product}_platform/pm/users/me',
  tag: 'support-chat',
  // A product's own access token (the products' view of the user) is accepted here too.
  auth: { scope: 'me:read', productToken: true },
  summary: 'The password-manager user',
  params: productParams,
  paramPatterns: productPatterns,
  response: pmUserSchema,
  errors: ['not_found'],
});

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
