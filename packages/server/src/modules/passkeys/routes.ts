import {
  errorBodySchema,
  mfaChallengeResponseSchema,
  passkeyAuthOptionsRequestSchema,
  passkeyAuthRequestSchema,
  passkeyEnableOptionsRequestSchema,
  passkeyEnableRequestSchema,
  passkeyListSchema,
  passkeyRegisterOptionsRequestSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  passkeySchema,
  sentToResponseSchema,
  tokenResponseSchema,
} from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { requestOrigin } from '../../platform/request-origin';
import { caller, setSessionCookies } from '../sessions';
import type { PasskeyService } from './service';

/** WebAuthn options as @simplewebauthn produces them, passed through to the browser. */
const webauthnOptionsSchema = z.record(z.string(), z.unknown());
const publicErrors = { 400: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };
const sessionErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
const idParams = z.object({ id: z.string().max(100) });

export function passkeyRoutes(config: Config, passkeys: PasskeyService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['passkeys'];
    const guarded = { preHandler: app.requireSession };

    app.post(
      '/sso/users/webauthn/register/options',
      { schema: { tags, summary: 'Creation options for signing up with a passkey', body: passkeyRegisterOptionsRequestSchema, response: { 200: webauthnOptionsSchema, ...publicErrors } } },
      async (request) => passkeys.registerOptions(request.body, requestOrigin(request, config)),
    );

    app.post(
      '/sso/users/webauthn/register',
      { schema: { tags, summary: 'Sign up with a passkey; the account is activated by mail', body: passkeyRegisterRequestSchema, response: { 201: sentToResponseSchema, ...publicErrors } } },
      async (request, reply) => reply.status(201).send(await passkeys.register(request.body.response, requestOrigin(request, config))),
    );

    app.post(
      '/sso/users/webauthn/auth/options',
      { schema: { tags, summary: 'Request options for signing in with a passkey (discoverable credentials)', body: passkeyAuthOptionsRequestSchema, response: { 200: webauthnOptionsSchema, ...publicErrors } } },
      async (request) => passkeys.authOptions(requestOrigin(request, config)),
    );

    app.post(
      '/sso/users/webauthn/auth',
      {
        schema: {
          tags,
          summary: 'Sign in with a passkey; answers the second-factor step when two-step is on',
          body: passkeyAuthRequestSchema,
          response: { 200: z.union([tokenResponseSchema, mfaChallengeResponseSchema]), ...publicErrors },
        },
      },
      async (request, reply) => {
        const result = await passkeys.authenticate(request.body, requestOrigin(request, config));
        if ('mfa_required' in result) return result;
        setSessionCookies(reply, request, config, result.token, result.user.fullName);
        return { token: result.token };
      },
    );

    app.post(
      '/sso/users/me/webauthn/enable/options',
      { ...guarded, schema: { tags, security, summary: 'Creation options for adding a passkey to the account', body: passkeyEnableOptionsRequestSchema, response: { 200: webauthnOptionsSchema, ...sessionErrors } } },
      async (request) => passkeys.enableOptions(caller(request).user, request.body.algorithms, requestOrigin(request, config)),
    );

    app.post(
      '/sso/users/me/webauthn/enable',
      { ...guarded, schema: { tags, security, summary: 'Add a passkey to the account', body: passkeyEnableRequestSchema, response: { 200: passkeySchema, ...sessionErrors } } },
      async (request) => passkeys.enable(caller(request).user, request.body.response, request.body.name, requestOrigin(request, config)),
    );

    app.get(
      '/sso/users/me/webauthn',
      { ...guarded, schema: { tags, security, summary: 'The passkeys of the account', response: { 200: passkeyListSchema, 401: errorBodySchema } } },
      async (request) => passkeys.list(caller(request).user.id),
    );

    app.put(
      '/sso/users/me/webauthn/:id',
      { ...guarded, schema: { tags, security, summary: 'Rename a passkey', params: idParams, body: passkeyRenameRequestSchema, response: { 200: passkeySchema, ...sessionErrors } } },
      async (request) => passkeys.rename(caller(request).user.id, request.params.id, request.body.name),
    );

    app.delete(
      '/sso/users/me/webauthn/:id',
      { ...guarded, schema: { tags, security, summary: 'Remove a passkey', params: idParams, response: { 204: z.null(), ...sessionErrors } } },
      async (request, reply) => {
        await passkeys.remove(caller(request).user, request.params.id, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );
  };
}
