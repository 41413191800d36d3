import { egressPolicyFor } from '../../platform/egress';
import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { webhookAdminRoutes } from './admin-routes';
import { installWebhookDeliveryJob } from './job';
import { createWebhookService, type WebhookService } from './service';

/** Events to products: queued by the database's triggers with the change, sent by every node's job. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  create: ({ platform: { config, db, clock, secrets } }: { platform: Platform }): { webhooks: WebhookService } => ({
    webhooks: createWebhookService({ db, clock, secrets, egress: egressPolicyFor(config) }),
  }),
  jobs: (app, _made, { platform: { config, db, clock, secrets } }) =>
    installWebhookDeliveryJob(app, { db, clock, secrets, egress: egressPolicyFor(config), intervalMs: config.WEBHOOK_DELIVERY_INTERVAL_MS }),
  routes: async (api, { webhooks }) => {
    await api.register(webhookAdminRoutes(webhooks));
  },
});
