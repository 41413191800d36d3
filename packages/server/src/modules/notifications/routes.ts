import { notificationEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { principal } from '../sessions';
import type { NotificationService } from './service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The signed-in user's notifications (the spec's entities, state rules and call list). */
export function notificationRoutes(notifications: NotificationService): FastifyPluginAsync {
  return async (app) => {
    route(app, notificationEndpoints.list, async (request) => notifications.list(principal(request).user.id, request.query.page, request.query.page_size));

    // A static segment (read-all) wins over the parameter of the next one.
    route(app, notificationEndpoints.markAllRead, async (request) => ({ updated: await notifications.markAllRead(principal(request).user.id) }));

    route(app, notificationEndpoints.markRead, async (request) => {
      const { id } = request.params;
      const updated = UUID.test(id) ? await notifications.markRead(principal(request).user.id, id) : null;
      if (!updated) throw new AppError('notifications.not_found');
      return updated;
    });
  };
}
