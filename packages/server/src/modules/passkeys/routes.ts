import { passkeyEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { registrationBrowser } from '../auth';
import { caller, setSessionCookies } from '../sessions';
import type { PasskeyService } from './service';

export function passkeyRoutes(config: Config, passkeys: PasskeyService): FastifyPluginAsync {
  return async (app) => {
    route(app, passkeyEndpoints.registerOptions, async (request) => passkeys.registerOptions(request.body, requestOrigin(request, config)));

    route(app, passkeyEndpoints.register, async (request, reply) => passkeys.register(request.body.response, requestOrigin(request, config), registrationBrowser(request, reply, config)));

    route(app, passkeyEndpoints.authOptions, async (request) => passkeys.authOptions(requestOrigin(request, config)));

    route(app, passkeyEndpoints.authenticate, async (request, reply) => {
      const result = await passkeys.authenticate(request.body, requestOrigin(request, config));
      if ('mfa_required' in result) return result;
      setSessionCookies(reply, request, config, result.token, result.user.fullName);
      return { token: result.token };
    });

    route(app, passkeyEndpoints.enableOptions, async (request) => passkeys.enableOptions(caller(request).user, request.body.algorithms, requestOrigin(request, config)));

    route(app, passkeyEndpoints.enable, async (request) => passkeys.enable(caller(request).user, request.body.response, request.body.name, requestOrigin(request, config)));

    route(app, passkeyEndpoints.list, async (request) => passkeys.list(caller(request).user.id));

    route(app, passkeyEndpoints.rename, async (request) => passkeys.rename(caller(request).user.id, request.params.id, request.body.name));

    route(app, passkeyEndpoints.remove, async (request) => {
      await passkeys.remove(caller(request).user, request.params.id, requestOrigin(request, config));
    });
  };
}
