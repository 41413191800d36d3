import { chatwootIdentitySchema } from '../account/schemas';
import { endpoint } from '../endpoint';
import { productParams, productPatterns } from '../products';

/** The support-chat identity (the spec's call list); 404 when the chat is not configured. API keys need me:read. */
const tag = 'support-chat';

export const identity = endpoint({
  method: 'GET',
  path: '/sso/me/chatwoot',
  tag,
  auth: { scope: 'me:read' },
  summary: 'Support-chat identity (404 when the chat is not configured)',
  response: chatwootIdentitySchema,
  errors: ['not_found'],
});

export const productIdentity = endpoint({
  method: 'GET',
  path: '/{product}_platform/pm/users/me/chatwoot',
  tag,
  // A product's own access token is accepted too (the products' view of the user).
  auth: { scope: 'me:read', productToken: true },
  summary: 'Support-chat identity for a product (the locker product uses this one)',
  params: productParams,
  paramPatterns: productPatterns,
  response: chatwootIdentitySchema,
  errors: ['not_found'],
});
