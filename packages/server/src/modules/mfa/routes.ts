import { mfaEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller } from '../sessions';
import type { MfaService } from './service';

/** Two-step verification settings; the second step of sign-in and email-code sign-in are ways in (modules/auth). */
export function mfaRoutes(config: Config, mfa: MfaService): FastifyPluginAsync {
  return async (app) => {
    route(app, mfaEndpoints.status, async (request) => mfa.status(caller(request).user));

    route(app, mfaEndpoints.totpSetup, async (request) => mfa.totpSetup(caller(request).user, requestOrigin(request, config)));

    route(app, mfaEndpoints.totpEnable, async (request) => {
      const { user, session } = caller(request);
      return mfa.totpEnable(user, request.body.code, requestOrigin(request, config), session.id);
    });

    route(app, mfaEndpoints.emailSend, async (request) => {
      await mfa.emailSend(caller(request).user, requestOrigin(request, config));
    });

    route(app, mfaEndpoints.emailEnable, async (request) => {
      const { user, session } = caller(request);
      return mfa.emailEnable(user, request.body.code, requestOrigin(request, config), session.id);
    });

    route(app, mfaEndpoints.disable, async (request) => {
      await mfa.disable(caller(request).user, request.body, requestOrigin(request, config));
    });

    route(app, mfaEndpoints.regenerateRecoveryCodes, async (request) => mfa.regenerateRecoveryCodes(caller(request).user, request.body));
  };
}
