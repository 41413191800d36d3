import { createHmac, createSecretKey, randomBytes } from 'node:crypto';

/** A new signing secret in the form receivers' libraries take: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Signs attempts with one secret: its key is decoded once, each signature is one HMAC (node:crypto). */
export type Signer = (eventId: string, body: string, sentAt: Date) => Record<string, string>;

/**
 * The three Standard Webhooks headers of one attempt: the event's id, the send time in whole
 * seconds, and `v1,` with the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's
 * bytes (the base64 after `whsec_`), as the standardwebhooks library signs and verifies them.
 * node:crypto rather than that library's JavaScript SHA-256: a delivery's CPU is taken from the
 * requests its node serves.
 */
export function signerFor(secret: string): Signer {
  // A KeyObject, so each HMAC does not import the key again.
  const key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
  return (eventId, body, sentAt) => {
    const timestamp = String(Math.floor(sentAt.getTime() / 1000));
    const signature = createHmac('sha256', key).update(`${eventId}.${timestamp}.${body}`).digest('base64');
    return { 'webhook-id': eventId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
  };
}

/** The headers of one attempt signed with `secret` (signerFor, for a single use). */
export function signedHeaders(secret: string, eventId: string, body: string, sentAt: Date): Record<string, string> {
  return signerFor(secret)(eventId, body, sentAt);
}
