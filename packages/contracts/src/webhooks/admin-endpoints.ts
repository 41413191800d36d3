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
import { endpoint } from '../endpoint';

/**
 * Events to products: each outside app's endpoint, its signing secret and its delivery log.
 * Where an app's events go (every account's changes) is an owner's decision; support reads the
 * log to answer a product team.
 */
const tag = 'admin';
const readers = { operator: ['owner', 'support'], adminScope: 'admin:webhooks' } as const;
const owners = { operator: ['owner'], adminScope: 'admin:webhooks' } as const;

export const list = endpoint({
  method: 'GET',
  path: '/admin/webhooks',
  tag,
  auth: readers,
  summary: 'Every outside app with its endpoint (when set) and its pending and failed deliveries',
  response: webhookAppListSchema,
});

export const get = endpoint({
  method: 'GET',
  path: '/admin/webhooks/{clientId}',
  tag,
  auth: readers,
  summary: "One outside app's endpoint (never its secret)",
  params: webhookAppParamsSchema,
  response: webhookAppSchema,
  errors: ['admin.not_found'],
});

export const put = endpoint({
  method: 'PUT',
  path: '/admin/webhooks/{clientId}',
  tag,
  auth: owners,
  summary: "Set an outside app's endpoint URL and events; a new endpoint's signing secret is in this answer only",
  params: webhookAppParamsSchema,
  body: putWebhookRequestSchema,
  response: savedWebhookSchema,
  errors: ['admin.not_found'],
});

export const remove = endpoint({
  method: 'DELETE',
  path: '/admin/webhooks/{clientId}',
  tag,
  auth: owners,
  summary: "Remove an outside app's endpoint: nothing more is queued or sent to it",
  params: webhookAppParamsSchema,
  body: webhookReasonRequestSchema,
  response: null,
  errors: ['admin.not_found'],
});

export const rotateSecret = endpoint({
  method: 'POST',
  path: '/admin/webhooks/{clientId}/secret',
  tag,
  auth: owners,
  summary: 'A new signing secret, shown in this answer only; the old one stops signing at once',
  params: webhookAppParamsSchema,
  body: webhookReasonRequestSchema,
  response: rotatedWebhookSecretSchema,
  errors: ['admin.not_found'],
});

export const deliveries = endpoint({
  method: 'GET',
  path: '/admin/webhooks/{clientId}/deliveries',
  tag,
  auth: readers,
  summary: "A page of the app's delivery log, newest first (status, attempts, last answer, next attempt)",
  params: webhookAppParamsSchema,
  query: webhookDeliveryListQuerySchema,
  response: webhookDeliveryListSchema,
  errors: ['admin.not_found'],
});

export const redeliver = endpoint({
  method: 'POST',
  path: '/admin/webhooks/{clientId}/deliveries/{deliveryId}/redeliver',
  tag,
  auth: owners,
  summary: 'Send a delivery again now, with the same webhook-id (a receiver that had it drops it)',
  params: webhookDeliveryParamsSchema,
  body: webhookReasonRequestSchema,
  response: webhookDeliverySchema,
  errors: ['admin.not_found'],
});
