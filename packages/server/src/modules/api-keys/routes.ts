import { apiKeyEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller } from '../sessions';
import type { ApiKeyService } from './service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function apiKeyRoutes(config: Config, apiKeys: ApiKeyService): FastifyPluginAsync {
  return async (app) => {
    route(app, apiKeyEndpoints.create, async (request) => {
      const { user, session } = caller(request);
      return apiKeys.create(user.id, request.body, requestOrigin(request, config), session.id);
    });

    route(app, apiKeyEndpoints.list, async (request) => apiKeys.list(caller(request).user.id));

    route(app, apiKeyEndpoints.revoke, async (request) => {
      const { id } = request.params;
      if (!UUID.test(id) || !(await apiKeys.revoke(caller(request).user.id, id))) throw new AppError('api_keys.not_found');
    });
  };
}
