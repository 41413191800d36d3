import { mfaEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller, setSessionCookies } from '../sessions';
import type { SecondFactorService } from './second-factor';
import type { MfaService } from './service';

/** Email-code sign-in, the second-factor step of sign-in, and two-step verification settings. */
export function mfaRoutes(config: Config, mfa: MfaService, secondFactor: SecondFactorService): FastifyPluginAsync {
  return async (app) => {
    route(app, mfaEndpoints.verifySecondFactor, async (request, reply) => {
      const { token, user } = await secondFactor.verify(request.body, requestOrigin(request, config));
      setSessionCookies(reply, request, config, token, user.fullName);
      return { token };
    });

    route(app, mfaEndpoints.resendSecondFactor, async (request) => {
      await secondFactor.resend(request.body.mfa_token, requestOrigin(request, config));
    });

    route(app, mfaEndpoints.sendLoginCode, async (request) => mfa.sendLoginCode(request.body.email, requestOrigin(request, config)));

    route(app, mfaEndpoints.signInWithCode, async (request, reply) => {
      const result = await mfa.signInWithCode(request.body, requestOrigin(request, config));
      if ('mfa_required' in result) return result;
      setSessionCookies(reply, request, config, result.token, result.user.fullName);
      return { token: result.token };
    });

    route(app, mfaEndpoints.status, async (request) => mfa.status(caller(request).user));

    route(app, mfaEndpoints.totpSetup, async (request) => mfa.totpSetup(caller(request).user, requestOrigin(request, config)));

    route(app, mfaEndpoints.totpEnable, async (request) => mfa.totpEnable(caller(request).user, request.body.code, requestOrigin(request, config)));

    route(app, mfaEndpoints.emailSend, async (request) => {
      await mfa.emailSend(caller(request).user, requestOrigin(request, config));
    });

    route(app, mfaEndpoints.emailEnable, async (request) => mfa.emailEnable(caller(request).user, request.body.code, requestOrigin(request, config)));

    route(app, mfaEndpoints.disable, async (request) => {
      await mfa.disable(caller(request).user, request.body, requestOrigin(request, config));
    });

    route(app, mfaEndpoints.regenerateRecoveryCodes, async (request) => mfa.regenerateRecoveryCodes(caller(request).user, request.body));
  };
}
