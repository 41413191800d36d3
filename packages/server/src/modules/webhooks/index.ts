/**
 * Events to products: outside apps' endpoints, the durable delivery queue (filled by the
 * database's triggers, migration 0031_webhooks) and its delivery job, Standard Webhooks signing.
 */
export { webhookAdminRoutes } from './admin-routes';
export { createDeliveryWorker, type DeliveryWorker } from './delivery';
export { installWebhookDeliveryJob } from './job';
export { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './schedule';
export { createWebhookService, type WebhookService } from './service';
export { webhooksModule } from './module';
