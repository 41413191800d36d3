import type { PutWebhookRequest, WebhookApp, WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEventType } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { DataProtection } from '../../platform/data-protection';
import { checkEgressTarget, egressFieldError, type EgressPolicy } from '../../platform/egress';
import { AppError } from '../../platform/errors';
import { webhookQueries, type WebhookDeliveryRow, type WebhookEndpointRow } from './queries';
import { newSigningSecret } from './signing';

export interface WebhookServiceOptions {
  db: Database;
  clock: Clock;
  secrets: DataProtection;
  egress: EgressPolicy;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return { url: row.url, events: row.events as WebhookEventType[], enabled: row.enabled, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

function toDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: String(row.id),
    event_id: row.eventId,
    type: row.type as WebhookEventType,
    subject: row.subject,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    delivered_at: iso(row.deliveredAt),
    created_at: row.createdAt.toISOString(),
  };
}

const notFound = () => new AppError('admin.not_found');

export type WebhookService = ReturnType<typeof createWebhookService>;

/** Outside apps' endpoints, their signing secrets and their delivery logs (the admin API's side). */
export function createWebhookService(options: WebhookServiceOptions) {
  const queries = webhookQueries(options.db);

  async function app(clientId: string): Promise<WebhookApp> {
    const [row] = await queries.apps(clientId);
    if (!row) throw notFound();
    return toApp(row);
  }

  function toApp(row: Awaited<ReturnType<typeof queries.apps>>[number]): WebhookApp {
    const name = typeof row.metadata.client_name === 'string' ? row.metadata.client_name : row.clientId;
    return { client_id: row.clientId, client_name: name, endpoint: row.endpoint ? toEndpoint(row.endpoint) : null, pending: Number(row.pending), failed: Number(row.failed) };
  }

  return {
    async list(): Promise<{ items: WebhookApp[] }> {
      return { items: (await queries.apps()).map(toApp) };
    },

    app,

    /**
     * Sets an app's endpoint. The URL must pass the egress guard now (a private or metadata
     * address is refused as a field error); each attempt is checked again when it connects.
     */
    async put(clientId: string, input: Omit<PutWebhookRequest, 'reason'>): Promise<{ endpoint: WebhookEndpoint; secret: string | null }> {
      if (!(await queries.appExists(clientId))) throw notFound();
      const problem = await checkEgressTarget(input.url, options.egress);
      if (problem) throw egressFieldError('url', problem);
      const secret = newSigningSecret();
      const saved = await queries.upsertEndpoint(clientId, { url: input.url, events: [...input.events], enabled: input.enabled ?? true }, options.secrets.seal(secret), options.clock.now());
      return { endpoint: toEndpoint(saved.endpoint), secret: saved.created ? secret : null };
    },

    async remove(clientId: string): Promise<void> {
      if (!(await queries.removeEndpoint(clientId))) throw notFound();
    },

    async rotateSecret(clientId: string): Promise<{ secret: string }> {
      const secret = newSigningSecret();
      if (!(await queries.setSecret(clientId, options.secrets.seal(secret), options.clock.now()))) throw notFound();
      return { secret };
    },

    async deliveries(clientId: string, query: { status?: WebhookDelivery['status']; before?: string; limit: number }): Promise<WebhookDeliveryList> {
      if (!(await queries.appExists(clientId))) throw notFound();
      const rows = await queries.deliveries(clientId, { status: query.status, before: query.before === undefined ? undefined : Number(query.before), limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      return { items: page.map(toDelivery), next_cursor: rows.length > query.limit ? String(page.at(-1)!.id) : null };
    },

    async redeliver(clientId: string, deliveryId: string): Promise<WebhookDelivery> {
      const { row, refused } = await queries.redeliver(clientId, Number(deliveryId), options.clock.now());
      if (refused) throw new AppError('admin.webhook_not_allowed');
      if (!row) throw notFound();
      return toDelivery(row);
    },
  };
}
