import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret in the form receivers' libraries take: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The three Standard Webhooks headers of one attempt: the event's id, the send time, its signature. */
export function signedHeaders(secret: string, eventId: string, body: string, sentAt: Date): Record<string, string> {
  // The library keeps whole seconds in the header and signs the same value.
  const timestamp = new Date(Math.floor(sentAt.getTime() / 1000) * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(eventId, timestamp, body),
  };
}
