import { z } from 'zod';
import { apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema } from '../account/schemas';
import { endpoint } from '../endpoint';

/** Managing API keys: a signed-in session only, never a key. */
const tag = 'api-keys';

export const create = endpoint({
  method: 'POST',
  path: '/sso/me/api-keys',
  tag,
  auth: 'session',
  recentAuth: true,
  summary: 'Create an API key; the key is shown in this answer only',
  body: createApiKeyRequestSchema,
  status: 201,
  response: createdApiKeySchema,
});

export const list = endpoint({
  method: 'GET',
  path: '/sso/me/api-keys',
  tag,
  auth: 'session',
  summary: 'The API keys of the user (never the keys themselves)',
  response: apiKeyListSchema,
});

export const revoke = endpoint({
  method: 'DELETE',
  path: '/sso/me/api-keys/{id}',
  tag,
  auth: 'session',
  summary: 'Revoke an API key',
  params: z.object({ id: z.string().max(64) }),
  response: null,
  errors: ['api_keys.not_found'],
});
