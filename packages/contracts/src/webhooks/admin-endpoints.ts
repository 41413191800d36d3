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

export const list = endpointIn(readers, 'GET /admin/webhooks', {
  summary: 'Every outside app with its endpoint (when set) and its pending and failed deliveries',
  response: webhookAppListSchema,
});

export const get = endpointIn(readers, 'GET /admin/webhooks/{clientId}', {
  summary: "One outside app's endpoint (never its secret)",
  params: webhookAppParamsSchema,
  response: webhookAppSchema,
  errors: ['admin.not_found'],
});

export const put = endpointIn(owners, 'PUT /admin/webhooks/{clientId}', {
  summary: "Set an outside app's endpoint URL and events; a new endpoint's signing secret is in this answer only",
  params: webhookAppParamsSchema,
  body: putWebhookRequestSchema,
  response: savedWebhookSchema,
  errors: ['admin.not_found'],
});

export const remove = endpointIn(owners, 'DELETE /admin/webhooks/{clientId}', {
  summary: "Remove an outside app's endpoint: nothing more is queued or sent to it",
  params: webhookAppParamsSchema,
  body: webhookReasonRequestSchema,
  response: null,
  errors: ['admin.not_found'],
});

export const rotateSecret = endpointIn(owners, 'POST /admin/webhooks/{clientId}/secret', {
  summary: 'A new signing secret, shown in this answer only; the old one stops signing at once',
  params: webhookAppParamsSchema,
  body: webhookReasonRequestSchema,
  response: rotatedWebhookSecretSchema,
  errors: ['admin.not_found'],
});

export const deliveries = endpointIn(readers, 'GET /admin/webhooks/{clientId}/deliveries', {
  summary: "A page of the app's delivery log, newest first (status, attempts, last answer, next attempt)",
  params: webhookAppParamsSchema,
  query: webhookDeliveryListQuerySchema,
  response: webhookDeliveryListSchema,
  errors: ['admin.not_found'],
});

export const redeliver = endpointIn(owners, 'POST /admin/webhooks/{clientId}/deliveries/{deliveryId}/redeliver', {
  summary: 'Send a delivery again now, with the same webhook-id (a receiver that had it drops it)',
  params: webhookDeliveryParamsSchema,
  body: webhookReasonRequestSchema,
  response: webhookDeliverySchema,
  errors: ['admin.not_found'],
});
