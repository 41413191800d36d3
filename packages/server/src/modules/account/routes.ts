import {
  deletionRequestSchema,
  deletionResponseSchema,
  educationEmailConfirmSchema,
  educationEmailRequestSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  errorBodySchema,
  privacySettingsSchema,
  recoveryEmailRequestSchema,
  recoveryEmailVerifySchema,
  restoreRequestSchema,
  sentToResponseSchema,
  tokenResponseSchema,
  updateMeRequestSchema,
  userSchema,
} from '@portal/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { requestOrigin } from '../../platform/request-origin';
import { clearSessionCookies, setLanguageCookie, setSessionCookies } from '../sessions/cookies';
import { caller, principal } from '../sessions/guard';
import type { SessionService } from '../sessions/service';
import { avatarRoutes } from './avatar-routes';
import type { DeletionService } from './deletion';
import { accountQueries } from './queries';
import type { AccountService } from './service';
import { toUserDto } from './user-dto';

const tags = ['account'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };

export interface AccountRouteServices {
  account: AccountService;
  deletion: DeletionService;
}

export function accountRoutes(config: Config, db: Database, clock: Clock, sessions: SessionService, services: AccountRouteServices): FastifyPluginAsyncZod {
  const queries = accountQueries(db);
  const serializedUsers = new WeakMap<object, string>();
  const { account, deletion } = services;
  return async (app) => {
    await app.register(avatarRoutes(db, clock));

    // Profile (API keys: me:read / me:write).
    app.get(
      '/sso/me',
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:read' },
        schema: { tags, security, summary: 'The signed-in user', response: { 200: userSchema, 401: errorBodySchema, 403: errorBodySchema } },
      },
      async (request, reply) => {
        const { user } = principal(request);
        // The hottest read of the API: the same row (cached with its session) gives the same
        // bytes. Rows are replaced, never changed in place, so the row itself is the key.
        let json = serializedUsers.get(user);
        if (json === undefined) serializedUsers.set(user, (json = reply.serialize(toUserDto(user)) as string));
        // Fastify sends a string with its type set as it is (the plain reply: the typed one wants the object).
        return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
      },
    );

    app.put(
      '/sso/me',
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:write' },
        schema: { tags, security, summary: 'Update the user; language also sets the lang cookie', body: updateMeRequestSchema, response: { 200: userSchema, ...errors } },
      },
      async (request, reply) => {
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
      },
    );

    app.post(
      '/sso/me/last_active',
      {
        preHandler: app.requireSession,
        config: { waitsForIdentityChanges: false },
        schema: { tags, security, summary: 'Record that the user is active now', response: { 204: z.null(), 401: errorBodySchema, 403: errorBodySchema } },
      },
      async (request, reply) => {
        await sessions.touch(caller(request).session.id);
        return reply.status(204).send(null);
      },
    );

    // Primary email: a code to the new address, a notice to the old (sessions only).
    app.post(
      '/sso/me/email/change',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Ask to change the email: a code goes to the new address, a notice to the old', body: emailChangeRequestSchema, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await account.requestEmailChange(caller(request).user, request.body, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/me/email/change/confirm',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Confirm the new email with the code it received', body: emailChangeConfirmSchema, response: { 200: userSchema, ...errors } },
      },
      async (request) => account.confirmEmailChange(caller(request).user, request.body.code, requestOrigin(request, config)),
    );

    // Recovery email.
    app.put(
      '/sso/me/recovery-email',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Set the recovery email (a code is mailed to it)', body: recoveryEmailRequestSchema, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await account.setRecoveryEmail(caller(request).user, request.body, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/me/recovery-email/verify',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Verify the recovery email with its code', body: recoveryEmailVerifySchema, response: { 200: userSchema, ...errors } },
      },
      async (request) => account.verifyRecoveryEmail(caller(request).user, request.body.code, requestOrigin(request, config)),
    );

    app.delete(
      '/sso/me/recovery-email',
      { preHandler: app.requireSession, schema: { tags, security, summary: 'Remove the recovery email', response: { 200: userSchema, ...errors } } },
      async (request) => account.removeRecoveryEmail(caller(request).user, requestOrigin(request, config)),
    );

    // Education email.
    app.post(
      '/sso/me/education-email',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Mail a confirmation link to an education address', body: educationEmailRequestSchema, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await account.requestEducationEmail(caller(request).user, request.body.email, requestOrigin(request, config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/sso/users/education-email/confirm',
      { schema: { tags, summary: 'Confirm an education email with the mailed link token', body: educationEmailConfirmSchema, response: { 200: sentToResponseSchema, ...errors } } },
      async (request) => account.confirmEducationEmail(request.body.token),
    );

    // Privacy and export.
    app.get(
      '/sso/me/privacy',
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:read' },
        schema: { tags, security, summary: 'Privacy choices', response: { 200: privacySettingsSchema, ...errors } },
      },
      async (request) => account.privacy(principal(request).user),
    );

    app.put(
      '/sso/me/privacy',
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:write' },
        schema: { tags, security, summary: 'Change privacy choices', body: privacySettingsSchema, response: { 200: privacySettingsSchema, ...errors } },
      },
      async (request) => account.setPrivacy(principal(request).user, request.body),
    );

    app.get(
      '/sso/me/export',
      { preHandler: app.requireSession, schema: { tags, security, summary: 'Every piece of personal data we keep, as a JSON attachment (never hashes or secrets)' } },
      async (request, reply) => {
        const { user } = caller(request);
        const data = await account.exportData(user);
        const day = clock.now().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="account-data-${day}.json"`)
          .header('cache-control', 'no-store')
          .send(JSON.stringify(data, null, 2));
      },
    );

    // Deletion and its cancellation.
    app.post(
      '/sso/me/deletion',
      {
        preHandler: app.requireSession,
        schema: { tags, security, summary: 'Schedule the deletion of the account (14 days) and sign out everywhere', body: deletionRequestSchema, response: { 200: deletionResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const answer = await deletion.request(caller(request).user, request.body, requestOrigin(request, config));
        clearSessionCookies(reply, request, config);
        return answer;
      },
    );

    app.post(
      '/sso/auth/restore',
      {
        schema: {
          tags: ['auth'],
          summary: 'Cancel a scheduled deletion with the restore token a sign-in answered, and sign in',
          body: restoreRequestSchema,
          response: { 200: tokenResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { token, user } = await deletion.restore(request.body.restore_token, requestOrigin(request, config));
        setSessionCookies(reply, request, config, token, user.fullName);
        return { token };
      },
    );
  };
}
