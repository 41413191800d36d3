import {
  activateRequestSchema,
  activationResponseSchema,
  errorBodySchema,
  forgotVerifyCodeRequestSchema,
  forgotVerifyEmailRequestSchema,
  mfaChallengeResponseSchema,
  resendActivationRequestSchema,
  resetPasswordRequestSchema,
  resetTokenCheckRequestSchema,
  resetTokenResponseSchema,
  sentToResponseSchema,
  signInRequestSchema,
  signUpRequestSchema,
  tokenResponseSchema,
} from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { requestOrigin } from '../../platform/request-origin';
import { setSessionCookies } from '../sessions/cookies';
import type { RecoveryService } from './recovery';
import type { AuthService } from './service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };
const tags = ['auth'];

export function authRoutes(config: Config, auth: AuthService, recovery: RecoveryService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sso/auth',
      {
        // A new session and, rarely, a rehashed password: nothing a cache here can hold stale.
        config: { waitsForIdentityChanges: false },
        schema: {
          tags,
          summary: 'Sign in with email or username and password; answers the second-factor step when two-step is on',
          body: signInRequestSchema,
          response: { 200: z.union([tokenResponseSchema, mfaChallengeResponseSchema]), ...errors },
        },
      },
      async (request, reply) => {
        const result = await auth.signIn(request.body, requestOrigin(request, config));
        if ('mfa_required' in result) return result;
        setSessionCookies(reply, request, config, result.token, result.user.fullName);
        return { token: result.token };
      },
    );

    app.post(
      '/sso/users',
      { schema: { tags, summary: 'Sign up; an activation mail follows', body: signUpRequestSchema, response: { 201: sentToResponseSchema, ...errors } } },
      async (request, reply) => reply.status(201).send(await auth.signUp(request.body, requestOrigin(request, config))),
    );

    app.post(
      '/sso/users/activation/resend',
      { schema: { tags, summary: 'Send the activation mail again', body: resendActivationRequestSchema, response: { 200: sentToResponseSchema, ...errors } } },
      async (request) => auth.resendActivation(request.body.email, requestOrigin(request, config), request.body.captcha),
    );

    app.post(
      '/sso/users/activate',
      { schema: { tags, summary: 'Activate an account with the mailed link token', body: activateRequestSchema, response: { 200: activationResponseSchema, ...errors } } },
      async (request) => auth.activate(request.body.token),
    );

    app.post(
      '/sso/password/forgot/verify-email',
      { schema: { tags, summary: 'Verify the recovery email; a code is mailed', body: forgotVerifyEmailRequestSchema, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await recovery.verifyEmail(request.body, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/password/forgot/verify-code',
      { schema: { tags, summary: 'Exchange the mailed code for a reset token', body: forgotVerifyCodeRequestSchema, response: { 200: resetTokenResponseSchema, ...errors } } },
      async (request) => recovery.verifyCode(request.body, requestOrigin(request, config)),
    );

    app.post(
      '/sso/password/reset/check',
      { schema: { tags, summary: 'Whether a reset link is still valid', body: resetTokenCheckRequestSchema, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await recovery.checkResetToken(request.body.token);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/password/reset',
      { schema: { tags, summary: 'Set a new password with a reset token', body: resetPasswordRequestSchema, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await recovery.resetPassword(request.body, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );
  };
}
