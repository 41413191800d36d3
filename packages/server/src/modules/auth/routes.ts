import { authEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import type { RecoveryService } from './recovery';
import { registrationBrowser, registrationBrowserOf } from './registration-browser';
import type { AuthService } from './service';

/** Sign-up, activation and recovery; the ways in have their own routes (sign-in-routes.ts). */
export function authRoutes(config: Config, auth: AuthService, recovery: RecoveryService): FastifyPluginAsync {
  return async (app) => {
    route(app, authEndpoints.signUp, async (request, reply) => auth.signUp(request.body, requestOrigin(request, config), registrationBrowser(request, reply, config)));

    route(app, authEndpoints.resendActivation, async (request, reply) =>
      auth.resendActivation(request.body.email, requestOrigin(request, config), registrationBrowser(request, reply, config), request.body.captcha),
    );

    route(app, authEndpoints.activate, async (request) => auth.activate(request.body.token, registrationBrowserOf(request)));

    route(app, authEndpoints.forgotVerifyEmail, async (request) => {
      await recovery.verifyEmail(request.body, requestOrigin(request, config));
    });

    route(app, authEndpoints.forgotVerifyCode, async (request) => recovery.verifyCode(request.body, requestOrigin(request, config)));

    route(app, authEndpoints.checkResetToken, async (request) => {
      await recovery.checkResetToken(request.body.token);
    });

    route(app, authEndpoints.resetPassword, async (request) => {
      await recovery.resetPassword(request.body, requestOrigin(request, config));
    });
  };
}
