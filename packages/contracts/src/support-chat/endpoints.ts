import { z } from 'zod';
import { chatwootIdentitySchema } from './schemas';
import { productPlanSchema } from '../billing/schemas';
import { endpoint, endpointIn } from '../endpoint';
import { personFields } from '../fields';
import { productParams, productPatterns } from '../product-platform';
import { languageSchema } from '../resources/schemas';

/** The support-chat identity (the spec's call list); 404 when the chat is not configured. API keys need me:read. */
const tag = 'support-chat';
/** A product's own access token (the products' view of the user) is accepted too. */
const productView = { tag, auth: { scope: 'me:read', productToken: true }, params: productParams, paramPatterns: productPatterns } as const;

export const identity = endpoint({
  method: 'GET',
  path: '/sso/me/chatwoot',
  tag,
  auth: { scope: 'me:read' },
  summary: 'Support-chat identity (404 when the chat is not configured)',
  response: chatwootIdentitySchema,
  errors: ['not_found'],
});

export const productIdentity = endpointIn(productView, 'GET /{product}_platform/pm/users/me/chatwoot', 'Support-chat identity for a product (the locker product uses this one)', {
  response: chatwootIdentitySchema, errors: ['not_found'],
});

/**
 * The password-manager user: the shared spec names the call but not its fields; these are
 * what the product pages read.
 */
export const pmUserSchema = z.object({
  ...personFields,
  language: languageSchema,
  avatar_url: z.string().nullable(),
  is_activated: z.boolean(),
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
  /** The person's plan of this product (billing): the free plan without a subscription. */
  plan: productPlanSchema.optional(),
});

export const pmUser = endpointIn(productView, 'GET /{product}_platform/pm/users/me', 'The password-manager user', {
  response: pmUserSchema, errors: ['not_found'],
});
