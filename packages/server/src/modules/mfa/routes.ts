import {
  confirmTwoFactorRequestSchema,
  enableTwoFactorRequestSchema,
  errorBodySchema,
  loginCodeRequestSchema,
  loginCodeSendRequestSchema,
  mfaChallengeResponseSchema,
  mfaResendRequestSchema,
  mfaVerifyRequestSchema,
  recoveryCodesResponseSchema,
  sentToResponseSchema,
  tokenResponseSchema,
  totpSetupResponseSchema,
  twoFactorStatusSchema,
} from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { requestOrigin } from '../../platform/request-origin';
import { caller, setSessionCookies } from '../sessions';
import type { SecondFactorService } from './second-factor';
import type { MfaService } from './service';

const publicErrors = { 400: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };
const sessionErrors = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema };
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];

/** Email-code sign-in, the second-factor step of sign-in, and two-step verification settings. */
export function mfaRoutes(config: Config, mfa: MfaService, secondFactor: SecondFactorService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['auth'];

    app.post(
      '/sso/auth/mfa',
      { schema: { tags, summary: 'Complete a sign-in with the second factor (a current code or a recovery code)', body: mfaVerifyRequestSchema, response: { 200: tokenResponseSchema, ...publicErrors } } },
      async (request, reply) => {
        const { token, user } = await secondFactor.verify(request.body, requestOrigin(request, config));
        setSessionCookies(reply, request, config, token, user.fullName);
        return { token };
      },
    );

    app.post(
      '/sso/auth/mfa/resend',
      { schema: { tags, summary: 'Mail another sign-in code (email method)', body: mfaResendRequestSchema, response: { 204: z.null(), ...publicErrors } } },
      async (request, reply) => {
        await secondFactor.resend(request.body.mfa_token, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/auth/code/send',
      { schema: { tags, summary: 'Mail a 6-digit sign-in code (same answer whether or not the account exists)', body: loginCodeSendRequestSchema, response: { 200: sentToResponseSchema, ...publicErrors } } },
      async (request) => mfa.sendLoginCode(request.body.email, requestOrigin(request, config)),
    );

    app.post(
      '/sso/auth/code',
      {
        schema: {
          tags,
          summary: 'Sign in with a mailed code; answers the second-factor step when two-step is on',
          body: loginCodeRequestSchema,
          response: { 200: z.union([tokenResponseSchema, mfaChallengeResponseSchema]), ...publicErrors },
        },
      },
      async (request, reply) => {
        const result = await mfa.signInWithCode(request.body, requestOrigin(request, config));
        if ('mfa_required' in result) return result;
        setSessionCookies(reply, request, config, result.token, result.user.fullName);
        return { token: result.token };
      },
    );

    const mfaTags = ['two-step verification'];
    const guarded = { preHandler: app.requireSession };

    app.get(
      '/sso/me/2fa',
      { ...guarded, schema: { tags: mfaTags, security, summary: 'Two-step verification status', response: { 200: twoFactorStatusSchema, 401: errorBodySchema } } },
      async (request) => mfa.status(caller(request).user),
    );

    app.post(
      '/sso/me/2fa/totp/setup',
      { ...guarded, schema: { tags: mfaTags, security, summary: 'Start TOTP: a pending secret, its otpauth URL and QR code', response: { 200: totpSetupResponseSchema, ...sessionErrors } } },
      async (request) => mfa.totpSetup(caller(request).user, requestOrigin(request, config)),
    );

    app.post(
      '/sso/me/2fa/totp/enable',
      {
        ...guarded,
        schema: { tags: mfaTags, security, summary: 'Turn TOTP on with a code from the app; answers the recovery codes', body: enableTwoFactorRequestSchema, response: { 200: recoveryCodesResponseSchema, ...sessionErrors } },
      },
      async (request) => mfa.totpEnable(caller(request).user, request.body.code, requestOrigin(request, config)),
    );

    app.post(
      '/sso/me/2fa/email/send',
      { ...guarded, schema: { tags: mfaTags, security, summary: 'Mail a code to turn the email method on (or to confirm changes while it is on)', response: { 204: z.null(), ...sessionErrors } } },
      async (request, reply) => {
        await mfa.emailSend(caller(request).user, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/me/2fa/email/enable',
      {
        ...guarded,
        schema: { tags: mfaTags, security, summary: 'Turn the email method on with the mailed code; answers the recovery codes', body: enableTwoFactorRequestSchema, response: { 200: recoveryCodesResponseSchema, ...sessionErrors } },
      },
      async (request) => mfa.emailEnable(caller(request).user, request.body.code, requestOrigin(request, config)),
    );

    app.post(
      '/sso/me/2fa/disable',
      {
        ...guarded,
        schema: { tags: mfaTags, security, summary: 'Turn two-step verification off (password and a current or recovery code)', body: confirmTwoFactorRequestSchema, response: { 204: z.null(), ...sessionErrors } },
      },
      async (request, reply) => {
        await mfa.disable(caller(request).user, request.body, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/me/2fa/recovery-codes',
      {
        ...guarded,
        schema: { tags: mfaTags, security, summary: 'Replace the recovery codes (password and a current or recovery code)', body: confirmTwoFactorRequestSchema, response: { 200: recoveryCodesResponseSchema, ...sessionErrors } },
      },
      async (request) => mfa.regenerateRecoveryCodes(caller(request).user, request.body),
    );
  };
}
