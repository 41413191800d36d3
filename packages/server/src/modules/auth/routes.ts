import { authEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { setSessionCookies } from '../sessions';
import type { RecoveryService } from './recovery';
import { registrationBrowser, registrationBrowserOf } from './registration-browser';
import type { AuthService } from './service';

export function authRoutes(config: Config, auth: AuthService, recovery: RecoveryService): FastifyPluginAsync {
  return async (app) => {
    route(
      app,
      authEndpoints.signIn,
      async (request, reply) => {
        const result = await auth.signIn(request.body, requestOrigin(request, config));
        if ('mfa_required' in result) return result;
        setSessionCookies(reply, request, config, result.token, result.user.fullName);
        return { token: result.token };
      },
      // A new session and, rarely, a rehashed password: nothing a cache here can hold stale.
      { config: { waitsForIdentityChanges: false } },
    );

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
