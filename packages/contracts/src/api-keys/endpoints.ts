import { z } from 'zod';
import { apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema } from './schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** Managing API keys: a signed-in session only, never a key. */
const { signedIn, sensitive } = endpointGroups('api-keys');

export const create = endpointIn(sensitive, 'POST /sso/me/api-keys', 'Create an API key; the key is shown in this answer only', {
  body: createApiKeyRequestSchema, status: 201, response: createdApiKeySchema,
});

export const list = endpointIn(signedIn, 'GET /sso/me/api-keys', 'The API keys of the user (never the keys themselves)', { response: apiKeyListSchema });

export const revoke = endpointIn(signedIn, 'DELETE /sso/me/api-keys/{id}', 'Revoke an API key', {
  params: z.object({ id: z.string().max(64) }), response: null, errors: ['api_keys.not_found'],
});
