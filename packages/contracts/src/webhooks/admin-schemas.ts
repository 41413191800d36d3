import { z } from 'zod';
import { timestampFields } from '../fields';
import { adminReasonSchema } from '../operators/roles';

/**
 * Events to products: what an outside app may be told, signed as Standard Webhooks
 * (docs/webhooks.md). `user.deleted` means the product must erase the person.
 */
export const webhookEventTypes = [
  'user.created',
  'user.updated',
  'user.email_changed',
  'user.deleted',
  'organization.member_added',
  'organization.member_removed',
] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** An app's endpoint: where its events go and which ones. The signing secret is never part of it. */
export const webhookEndpointSchema = z.object({
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  ...timestampFields,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** An outside app, with its endpoint when it has one, and how many deliveries wait or failed. */
export const webhookAppSchema = z.object({
  client_id: z.string(),
  client_name: z.string(),
  endpoint: webhookEndpointSchema.nullable(),
  pending: z.number().int(),
  failed: z.number().int(),
});
export const webhookAppListSchema = z.object({ items: z.array(webhookAppSchema) });
export type WebhookApp = z.infer<typeof webhookAppSchema>;

export const webhookAppParamsSchema = z.object({ clientId: z.string().min(1).max(200) });

/** Sets an app's endpoint (https in production; the egress guard checks the address). */
export const putWebhookRequestSchema = z.object({
  url: z.url().max(2000),
  events: z
    .array(webhookEventTypeSchema)
    .min(1)
    .refine((events) => new Set(events).size === events.length, 'each event once'),
  enabled: z.boolean().default(true),
  reason: adminReasonSchema,
});
export type PutWebhookRequest = z.input<typeof putWebhookRequestSchema>;

/** The saved endpoint; `secret` only when this call made it (a new endpoint): shown once. */
export const savedWebhookSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string().nullable() });
export type SavedWebhook = z.infer<typeof savedWebhookSchema>;

export const webhookReasonRequestSchema = z.object({ reason: adminReasonSchema });

/** A new signing secret (`whsec_...`), shown in this answer only; the old one stops signing at once. */
export const rotatedWebhookSecretSchema = z.object({ secret: z.string() });

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export const webhookDeliveryStatusSchema = z.enum(webhookDeliveryStatuses);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

/** One event to one endpoint: its attempts so far and what the receiver last answered. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  type: webhookEventTypeSchema,
  subject: z.string(),
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** Newest first; `before` is the `next_cursor` of the page before. */
export const webhookDeliveryListQuerySchema = z.object({
  status: webhookDeliveryStatusSchema.optional(),
  before: z.string().regex(/^\d{1,18}$/).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema), next_cursor: z.string().nullable() });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const webhookDeliveryParamsSchema = webhookAppParamsSchema.extend({ deliveryId: z.string().regex(/^\d{1,18}$/) });
