import { securityEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller, clearSessionCookies } from '../sessions';
import type { SecurityService } from './service';

/** The security pages. Sessions only: an API key never reaches them. */
export function securityRoutes(config: Config, service: SecurityService): FastifyPluginAsync {
  return async (app) => {
    route(app, securityEndpoints.overview, async (request) => service.overview(caller(request)));

    route(app, securityEndpoints.changePassword, async (request) => {
      await service.changePassword(caller(request), request.body, requestOrigin(request, config));
    });

    route(app, securityEndpoints.reauthenticate, async (request) => {
      await service.reauthenticate(caller(request), request.body, requestOrigin(request, config));
    });

    route(app, securityEndpoints.reauthPasskeyOptions, async (request) => service.reauthPasskeyOptions(caller(request), requestOrigin(request, config)));

    route(app, securityEndpoints.listSessions, async (request) => service.listSessions(caller(request)));

    route(app, securityEndpoints.revokeSession, async (request, reply) => {
      const auth = caller(request);
      await service.revokeSession(auth.user.id, request.params.id);
      if (request.params.id === auth.session.id) clearSessionCookies(reply, request, config);
    });

    route(app, securityEndpoints.revokeOtherSessions, async (request) => service.revokeOthers(caller(request)));
  };
}
