import {
  putWebhookRequestSchema,
  rotatedWebhookSecretSchema,
  savedWebhookSchema,
  webhookAppListSchema,
  webhookAppParamsSchema,
  webhookAppSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookReasonRequestSchema,
} from './admin-schemas';
import { endpointIn, operatorGroup } from '../endpoint';

/**
 * Events to products: each outside app's endpoint, its signing secret and its delivery log.
 * Where an app's events go (every account's changes) is an owner's decision; support reads the
 * log to answer a product team.
 */
const readers = operatorGroup('admin:webhooks', ['owner', 'support']);
const owners = operatorGroup('admin:webhooks', ['owner']);
/** One outside app's webhook, by its client id. */
const app = { params: webhookAppParamsSchema, errors: ['admin.not_found'] } as const;
const appReaders = { ...readers, ...app } as const;
const appOwners = { ...owners, ...app } as const;

export const list = endpointIn(readers, 'GET /admin/webhooks', 'Every outside app with its endpoint (when set) and its pending and failed deliveries', {
  response: webhookAppListSchema,
});

export const get = endpointIn(appReaders, 'GET /admin/webhooks/{clientId}', "One outside app's endpoint (never its secret)", { response: webhookAppSchema });

export const put = endpointIn(appOwners, 'PUT /admin/webhooks/{clientId}', "Set an outside app's endpoint URL and events; a new endpoint's signing secret is in this answer only", {
  body: putWebhookRequestSchema, response: savedWebhookSchema,
});

export const remove = endpointIn(appOwners, 'DELETE /admin/webhooks/{clientId}', "Remove an outside app's endpoint: nothing more is queued or sent to it", {
  body: webhookReasonRequestSchema, response: null,
});

export const rotateSecret = endpointIn(appOwners, 'POST /admin/webhooks/{clientId}/secret', 'A new signing secret, shown in this answer only; the old one stops signing at once', {
  body: webhookReasonRequestSchema, response: rotatedWebhookSecretSchema,
});

export const deliveries = endpointIn(appReaders, 'GET /admin/webhooks/{clientId}/deliveries', "A page of the app's delivery log, newest first (status, attempts, last answer, next attempt)", {
  query: webhookDeliveryListQuerySchema, response: webhookDeliveryListSchema,
});

export const redeliver = endpointIn(owners, 'POST /admin/webhooks/{clientId}/deliveries/{deliveryId}/redeliver', 'Send a delivery again now, with the same webhook-id (a receiver that had it drops it)', {
  params: webhookDeliveryParamsSchema, body: webhookReasonRequestSchema, response: webhookDeliverySchema, errors: ['admin.not_found', 'admin.webhook_not_allowed'],
});
