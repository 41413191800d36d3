import { randomUUID } from 'node:crypto';
import { DEVICE_COOKIE, DEVICE_COOKIE_DEFAULT_DAYS, DEVICE_EXPIRY_HEADER, DEVICE_ID_HEADER } from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's device id: its own when it sent a valid one, else the one issued now. */
    deviceId: string;
  }
}

function presented(request: FastifyRequest): string | undefined {
  const header = request.headers[DEVICE_ID_HEADER];
  const value = (Array.isArray(header) ? header[0] : header) ?? request.cookies?.[DEVICE_COOKIE];
  return value && DEVICE_ID_PATTERN.test(value) ? value : undefined;
}

/**
 * Device ids (the spec's entities, call list and constants): a request without a valid one gets a new id in the
 * response headers with its expiry (unix seconds); the client keeps it in a cookie and sends
 * it on every request. Ids are not secrets, only a stable label for sessions and limits.
 */
export function installDeviceId(app: FastifyInstance): void {
  app.decorateRequest('deviceId', '');
  app.addHook('onRequest', (request, reply, done) => {
    const known = presented(request);
    if (known) {
      request.deviceId = known;
      return done();
    }
    const issued = issuedDeviceId();
    request.deviceId = issued[DEVICE_ID_HEADER];
    reply.headers(issued);
    done();
  });
}

/** A new device id and its expiry (unix seconds), as the response headers that hand them to the caller. */
export function issuedDeviceId(): { [DEVICE_ID_HEADER]: string; [DEVICE_EXPIRY_HEADER]: string } {
  const expiry = Math.floor(Date.now() / 1000) + DEVICE_COOKIE_DEFAULT_DAYS * 24 * 60 * 60;
  return { [DEVICE_ID_HEADER]: randomUUID(), [DEVICE_EXPIRY_HEADER]: String(expiry) };
}
