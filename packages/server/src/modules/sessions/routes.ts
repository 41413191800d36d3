import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { clearSessionCookies } from './cookies';
import type { SessionService } from './service';

export function sessionRoutes(config: Config, sessions: SessionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sso/logout',
      { preHandler: app.optionalAuth, schema: { tags: ['sessions'], summary: 'Sign out: revoke this session and clear its cookies', response: { 204: z.null() } } },
      async (request, reply) => {
        if (request.auth) await sessions.revoke(request.auth.user.id, request.auth.session.id);
        clearSessionCookies(reply, request, config);
        return reply.status(204).send(null);
      },
    );
  };
}
