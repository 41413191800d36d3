import { sessionEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { clearSessionCookies } from './cookies';
import type { SessionService } from './service';

export function sessionRoutes(config: Config, sessions: SessionService): FastifyPluginAsync {
  return async (app) => {
    route(app, sessionEndpoints.logout, async (request, reply) => {
      if (request.auth) await sessions.revoke(request.auth.user.id, request.auth.session.id);
      clearSessionCookies(reply, request, config);
    });
  };
}
