import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/**
 * A product's endpoint for the portal's events (Standard Webhooks): it checks each request's
 * signature with the app's signing secret (`whsec_...`, shown once when the endpoint is set in
 * the console), refuses one older than five minutes (a replay), and hands each event to
 * `onEvent` once: the portal retries until it gets a 2xx, so the same event (the same
 * `webhook-id`) may come again and is answered 200 without being handled twice.
 */
export interface PortalEvent {
  /** `user.created`, `user.updated`, `user.email_changed`, `user.deleted`, `organization.member_added`, ... */
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Which event ids were handled. In memory here; a product keeps them in its database with a
 * unique key on the id (INSERT ... ON CONFLICT DO NOTHING claims one atomically, on every node)
 * for at least the portal's retry window, a day.
 */
export interface SeenIds {
  /** True when this call claimed the id (nobody had); false for a duplicate. */
  claim(id: string): Promise<boolean>;
  /** The handler failed: the id may be claimed again by the portal's retry. */
  release(id: string): Promise<void>;
}

export function memorySeenIds(): SeenIds {
  const ids = new Set<string>();
  return {
    async claim(id) {
      if (ids.has(id)) return false;
      ids.add(id);
      return true;
    },
    async release(id) {
      ids.delete(id);
    },
  };
}

const MAX_BODY = 1024 * 1024;

export function createWebhookReceiver(options: { secret: string; onEvent: (event: PortalEvent, id: string) => Promise<void>; seen?: SeenIds }): Server {
  const webhook = new Webhook(options.secret);
  const seen = options.seen ?? memorySeenIds();
  return createServer(async (request, response) => {
    const answer = (status: number, text: string) => response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    if (request.method !== 'POST') return answer(405, 'POST only');
    const body = await readBody(request);
    if (body === null) return answer(413, 'too large');

    let event: PortalEvent;
    try {
      // The signature covers the id, the timestamp and the exact bytes received: verify before parsing.
      event = webhook.verify(body, request.headers as Record<string, string>) as PortalEvent;
    } catch (error) {
      if (error instanceof WebhookVerificationError) return answer(401, 'bad signature');
      throw error;
    }
    const id = String(request.headers['webhook-id']);
    if (!(await seen.claim(id))) return answer(200, 'duplicate');
    try {
      await options.onEvent(event, id);
    } catch {
      // Not handled: let the portal's retry try again (a non-2xx answer schedules one).
      await seen.release(id);
      return answer(500, 'not handled');
    }
    answer(200, 'ok');
  });
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
