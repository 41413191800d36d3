import { errorBodySchema, updateMeRequestSchema, userSchema } from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Database } from '../../db/client';
import { AppError } from '../../platform/errors';
import { setLanguageCookie } from '../sessions/cookies';
import { caller } from '../sessions/guard';
import type { SessionService } from '../sessions/service';
import { accountQueries } from './queries';
import { toUserDto } from './user-dto';

const tags = ['account'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];

export function accountRoutes(config: Config, db: Database, clock: Clock, sessions: SessionService): FastifyPluginAsyncZod {
  const queries = accountQueries(db);
  return async (app) => {
    app.get(
      '/sso/me',
      { preHandler: app.requireAuth, schema: { tags, security, summary: 'The signed-in user', response: { 200: userSchema, 401: errorBodySchema } } },
      async (request) => toUserDto(caller(request).user),
    );

    app.put(
      '/sso/me',
      {
        preHandler: app.requireAuth,
        schema: { tags, security, summary: 'Update the user; language also sets the lang cookie', body: updateMeRequestSchema, response: { 200: userSchema, 400: errorBodySchema, 401: errorBodySchema } },
      },
      async (request, reply) => {
        const { user } = caller(request);
        const body = request.body;
        const username = body.username === undefined ? user.username : body.username || null;
        if (username && (await queries.usernameTaken(username, user.id))) {
          throw new AppError('validation_error', {}, { fields: { username: 'This username is already taken' } });
        }
        const updated = await queries.updateProfile(
          user.id,
          {
            fullName: body.full_name,
            username,
            language: body.language,
            customerLanguage: body.customer_language ?? body.language,
            // Profile fields: absent keeps the stored value, null or '' clears it.
            ...(body.phone !== undefined ? { phone: body.phone || null } : {}),
            ...(body.company !== undefined ? { company: body.company || null } : {}),
            ...(body.organization !== undefined ? { organization: body.organization || null } : {}),
            ...(body.address !== undefined ? { address: body.address || null } : {}),
            ...(body.country !== undefined ? { country: body.country || null } : {}),
          },
          clock.now(),
        );
        setLanguageCookie(reply, request, config, body.language);
        return toUserDto(updated ?? user);
      },
    );

    app.post(
      '/sso/me/last_active',
      { preHandler: app.requireAuth, schema: { tags, security, summary: 'Record that the user is active now', response: { 204: z.null(), 401: errorBodySchema } } },
      async (request, reply) => {
        await sessions.touch(caller(request).session.id);
        return reply.status(204).send(null);
      },
    );
  };
}
