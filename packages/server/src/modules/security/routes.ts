import { changePasswordRequestSchema, errorBodySchema, revokedCountSchema, securityOverviewSchema, sessionListSchema } from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { requestOrigin } from '../../platform/request-origin';
import { caller, clearSessionCookies } from '../sessions';
import type { SecurityService } from './service';

const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

/** The security pages. Sessions only: an API key never reaches them. */
export function securityRoutes(config: Config, service: SecurityService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['security'];
    const guarded = { preHandler: app.requireSession };

    app.get(
      '/sso/me/security',
      { ...guarded, schema: { tags, security, summary: 'Security overview: password, two-step, passkeys, recent sessions', response: { 200: securityOverviewSchema, 401: errorBodySchema } } },
      async (request) => service.overview(caller(request)),
    );

    app.put(
      '/sso/me/password',
      {
        ...guarded,
        schema: { tags, security, summary: 'Change the password (or set the first one); other sessions are signed out', body: changePasswordRequestSchema, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await service.changePassword(caller(request), request.body, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/sso/me/sessions',
      { ...guarded, schema: { tags, security, summary: 'Signed-in sessions, the current one marked', response: { 200: sessionListSchema, 401: errorBodySchema } } },
      async (request) => service.listSessions(caller(request)),
    );

    app.delete(
      '/sso/me/sessions/:id',
      { ...guarded, schema: { tags, security, summary: 'Sign out one session', params: z.object({ id: z.string().max(100) }), response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        const auth = caller(request);
        await service.revokeSession(auth.user.id, request.params.id);
        if (request.params.id === auth.session.id) clearSessionCookies(reply, request, config);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/me/sessions/revoke-others',
      { ...guarded, schema: { tags, security, summary: 'Sign out every other session', response: { 200: revokedCountSchema, 401: errorBodySchema } } },
      async (request) => service.revokeOthers(caller(request)),
    );
  };
}
