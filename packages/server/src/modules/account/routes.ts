import { accountEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller, clearSessionCookies, principal, type SessionService, setLanguageCookie, setSessionCookies } from '../sessions';
import { avatarRoutes } from './avatar-routes';
import type { DeletionService } from './deletion';
import type { AccountService } from './service';
import { createUserService, toUserDto } from '../users';

export interface AccountRouteServices {
  account: AccountService;
  deletion: DeletionService;
}

export function accountRoutes(config: Config, db: Database, clock: Clock, sessions: SessionService, services: AccountRouteServices): FastifyPluginAsync {
  const queries = createUserService(db);
  const serializedUsers = new WeakMap<object, string>();
  const { account, deletion } = services;
  return async (app) => {
    await app.register(avatarRoutes(db, clock));

    // Profile (API keys: me:read / me:write).
    route(app, accountEndpoints.me, async (request, reply) => {
      const { user } = principal(request);
      // The hottest read of the API: the same row (cached with its session) gives the same
      // bytes. Rows are replaced, never changed in place, so the row itself is the key.
      let json = serializedUsers.get(user);
      if (json === undefined) serializedUsers.set(user, (json = reply.serialize(toUserDto(user)) as string));
      // Fastify sends a string with its type set as it is.
      return reply.type('application/json; charset=utf-8').send(json);
    });

    route(app, accountEndpoints.updateMe, async (request, reply) => {
      const { user } = principal(request);
      const body = request.body;
      const username = body.username === undefined ? user.username : body.username || null;
      await account.assertUsernameAvailable(user, username, requestOrigin(request, config));
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
    });

    route(
      app,
      accountEndpoints.lastActive,
      async (request) => {
        await sessions.touch(caller(request).session.id);
      },
      { config: { waitsForIdentityChanges: false } },
    );

    // Primary email: a code to the new address, a notice to the old (sessions only).
    route(app, accountEndpoints.requestEmailChange, async (request) => {
      await account.requestEmailChange(caller(request).user, request.body, requestOrigin(request, config));
    });

    route(app, accountEndpoints.confirmEmailChange, async (request) => account.confirmEmailChange(caller(request).user, request.body.code, requestOrigin(request, config)));

    // Recovery email.
    route(app, accountEndpoints.setRecoveryEmail, async (request) => {
      await account.setRecoveryEmail(caller(request).user, request.body, requestOrigin(request, config));
    });

    route(app, accountEndpoints.verifyRecoveryEmail, async (request) => account.verifyRecoveryEmail(caller(request).user, request.body.code, requestOrigin(request, config)));

    route(app, accountEndpoints.removeRecoveryEmail, async (request) => account.removeRecoveryEmail(caller(request).user, requestOrigin(request, config)));

    // Education email.
    route(app, accountEndpoints.requestEducationEmail, async (request) => {
      await account.requestEducationEmail(caller(request).user, request.body.email, requestOrigin(request, config));
    });

    route(app, accountEndpoints.confirmEducationEmail, async (request) => account.confirmEducationEmail(request.body.token));

    // Privacy and export.
    route(app, accountEndpoints.privacy, async (request) => account.privacy(principal(request).user));

    route(app, accountEndpoints.setPrivacy, async (request) => account.setPrivacy(principal(request).user, request.body));

    route(app, accountEndpoints.exportData, async (request, reply) => {
      const { user } = caller(request);
      const data = await account.exportData(user);
      const day = clock.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="account-data-${day}.json"`)
        .header('cache-control', 'no-store')
        .send(JSON.stringify(data, null, 2));
    });

    // Deletion and its cancellation.
    route(app, accountEndpoints.requestDeletion, async (request, reply) => {
      const answer = await deletion.request(caller(request).user, request.body, requestOrigin(request, config));
      clearSessionCookies(reply, request, config);
      return answer;
    });

    route(app, accountEndpoints.restore, async (request, reply) => {
      const { token, user } = await deletion.restore(request.body.restore_token, requestOrigin(request, config));
      setSessionCookies(reply, request, config, token, user.fullName);
      return { token };
    });
  };
}
