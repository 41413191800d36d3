import { apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema, errorBodySchema } from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { requestOrigin } from '../../platform/request-origin';
import { caller } from '../sessions/guard';
import type { ApiKeyService } from './service';

const tags = ['api-keys'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Managing API keys: a signed-in session only, never a key. */
export function apiKeyRoutes(config: Config, apiKeys: ApiKeyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sso/me/api-keys',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Create an API key; the key is shown in this answer only', body: createApiKeyRequestSchema, response: { 201: createdApiKeySchema, ...errors } },
      },
      async (request, reply) => reply.status(201).send(await apiKeys.create(caller(request).user.id, request.body, requestOrigin(request, config))),
    );

    app.get(
      '/sso/me/api-keys',
      { preHandler: app.requireSession, schema: { tags, security, summary: 'The API keys of the user (never the keys themselves)', response: { 200: apiKeyListSchema, ...errors } } },
      async (request) => apiKeys.list(caller(request).user.id),
    );

    app.delete(
      '/sso/me/api-keys/:id',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Revoke an API key', params: z.object({ id: z.string().max(64) }), response: { 204: z.null(), 404: errorBodySchema, ...errors } },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (!UUID.test(id) || !(await apiKeys.revoke(caller(request).user.id, id))) throw new AppError('api_keys.not_found');
        return reply.status(204).send(null);
      },
    );
  };
}
