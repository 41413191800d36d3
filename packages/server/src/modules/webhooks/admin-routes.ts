import { adminWebhookEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import type { WebhookService } from './service';

/**
 * Events to products in the operators' console (/v3/admin/webhooks). Who may call each one
 * (owners change, support reads), the reason and the operator audit log are the declarations'
 * and platform/http's: nothing here repeats them.
 */
export function webhookAdminRoutes(webhooks: WebhookService): FastifyPluginAsync {
  return async (app) => {
    const noStore = { 'cache-control': 'private, no-store' };
    route(app, adminWebhookEndpoints.list, async () => webhooks.list());
    route(app, adminWebhookEndpoints.get, async (request) => webhooks.app(request.params.clientId));
    route(app, adminWebhookEndpoints.put, async (request, reply) => {
      // The answer may carry the new signing secret: never cached anywhere.
      reply.headers(noStore);
      const { reason: _reason, ...settings } = request.body;
      return webhooks.put(request.params.clientId, settings);
    });
    route(app, adminWebhookEndpoints.remove, async (request) => webhooks.remove(request.params.clientId));
    route(app, adminWebhookEndpoints.rotateSecret, async (request, reply) => {
      reply.headers(noStore);
      return webhooks.rotateSecret(request.params.clientId);
    });
    route(app, adminWebhookEndpoints.deliveries, async (request) => webhooks.deliveries(request.params.clientId, request.query));
    route(app, adminWebhookEndpoints.redeliver, async (request) => webhooks.redeliver(request.params.clientId, request.params.deliveryId));
  };
}
