import { z } from 'zod';
import { productPlanSchema } from '../api/billing';
import { languageSchema } from '../api/resources';
import { endpoint } from '../endpoint';

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
