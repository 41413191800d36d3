import { errorBodySchema, markNotificationRequestSchema, notificationListSchema, notificationSchema } from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { principal } from '../sessions';
import type { NotificationService } from './service';

const tags = ['notifications'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/** The signed-in user's notifications (spec sections 3, 4 and 7). API keys need notifications:read / :write. */
export function notificationRoutes(notifications: NotificationService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/notifications',
      {
        preHandler: app.requireAuth,
        config: { scope: 'notifications:read' },
        schema: { tags, security, summary: 'A page of notifications, newest first, with the unread count', querystring: pageQuery, response: { 200: notificationListSchema, ...errors } },
      },
      async (request) => notifications.list(principal(request).user.id, request.query.page, request.query.page_size),
    );

    // Declared before /notifications/:id; a static segment wins over a parameter anyway.
    app.put(
      '/notifications/read-all',
      {
        preHandler: app.requireAuth,
        config: { scope: 'notifications:write' },
        schema: { tags, security, summary: 'Mark every notification read', response: { 200: z.object({ updated: z.number().int() }), ...errors } },
      },
      async (request) => ({ updated: await notifications.markAllRead(principal(request).user.id) }),
    );

    app.put(
      '/notifications/:id',
      {
        preHandler: app.requireAuth,
        config: { scope: 'notifications:write' },
        schema: {
          tags,
          security,
          summary: 'Mark a notification read (on click)',
          params: z.object({ id: z.string().max(64) }),
          body: markNotificationRequestSchema,
          response: { 200: notificationSchema, 404: errorBodySchema, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const updated = UUID.test(id) ? await notifications.markRead(principal(request).user.id, id) : null;
        if (!updated) throw new AppError('notifications.not_found');
        return updated;
      },
    );
  };
}
