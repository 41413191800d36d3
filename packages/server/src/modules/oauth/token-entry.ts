import { DEVICE_ID_HEADER } from '@portal/contracts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { rawRequestOrigin } from '../../platform/client-address';
import { issuedDeviceId } from '../../platform/device-id';
import { nulError } from '../../platform/errors';
import { logCompleted } from '../../platform/logger';
import { securityHeaders } from '../../platform/security-headers';
import { OIDC_ROUTES } from './oidc-routes';

/** The provider's Koa handler for a raw request (the current provider's: signing keys change it). */
export type ProviderCallback = () => (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** The largest form body the provider's endpoints accept (Fastify's parser of routes.ts, and oidc-provider's own limit). */
export const FORM_BODY_LIMIT = 56 * 1024;

/** The token-family endpoints: machine-to-machine calls, the provider's hottest, that need nothing of the portal's own. */
const LEAN_PATHS: ReadonlySet<string> = new Set([OIDC_ROUTES.token, OIDC_ROUTES.introspection, OIDC_ROUTES.revocation]);
/** The Fastify route those paths match: the metrics' route label and the pattern the log's URL masking reads. */
const ROUTE = '/oidc/*';
const FORM = 'application/x-www-form-urlencoded';

/**
 * Whether the request is one Fastify's layer passes to the provider unchanged, with nothing to
 * refuse or read before it: a POST of a form with a declared length within the limit to one of
 * the exact paths, no query (Fastify refuses a NUL in it), no origin (CORS headers), no cookie
 * (the portal session, a cookie's device id) and no device id of its own (it is issued one,
 * as Fastify would). Anything else goes through Fastify, which answers it as before.
 */
export function isPlainTokenCall(request: IncomingMessage): boolean {
  const { headers } = request;
  if (request.method !== 'POST' || !LEAN_PATHS.has(request.url ?? '') || headers['content-type'] !== FORM) return false;
  if (headers.origin !== undefined || headers.cookie !== undefined || headers[DEVICE_ID_HEADER] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  return length !== undefined && /^[1-9]\d{0,5}$/.test(length) && Number(length) <= FORM_BODY_LIMIT;
}

/**
 * The lean entry of the token-family endpoints: a plain token call (isPlainTokenCall) goes
 * from Node's server to the provider's Koa handler without Fastify's routing, request objects,
 * hooks and child logger, and keeps what those gave it: the security headers (with HSTS over
 * HTTPS as the trusted proxy says), an issued device id, the refusal of a NUL in the body,
 * its one log line with its request id and the client's address, its request-duration
 * observation, and the 503 of a closing server (that and every other request: Fastify's).
 */
export function installTokenEntry(app: FastifyInstance, config: Pick<Config, 'TRUST_PROXY'>, providerCallback: ProviderCallback): void {
  const origin = rawRequestOrigin(config.TRUST_PROXY);
  // Fastify's own request ids (its public getter; not in its types): one sequence with the requests it answers.
  const genReqId = (app as unknown as { genReqId: (request: IncomingMessage) => string }).genReqId;
  let closing = false;
  // Fastify's preClose runs right after it starts answering 503 (fastify.js): from then on, every request is Fastify's.
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  function answer(request: IncomingMessage, response: ServerResponse): void {
    const started = performance.now();
    const reqId = genReqId(request);
    const url = request.url!;
    const logged = { method: 'POST', url, ip: origin.ip(request), params: { '*': url.slice('/oidc/'.length) }, routeOptions: { url: ROUTE } };
    const finished = () => {
      response.removeListener('finish', finished);
      response.removeListener('error', finished);
      const elapsed = performance.now() - started;
      app.requestDurations.observe('POST', ROUTE, response.statusCode, elapsed / 1000);
      logCompleted(app.log, logged, response, elapsed, null, reqId);
    };
    response.on('finish', finished);
    response.on('error', finished);
    for (const [name, value] of Object.entries(securityHeaders(origin.protocol(request)))) response.setHeader(name, value);
    for (const [name, value] of Object.entries(issuedDeviceId())) response.setHeader(name, value);

    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', () => response.destroy());
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (body.includes('\u0000')) {
        // As errors.ts refuses it (PostgreSQL text cannot hold U+0000), in Fastify's JSON form.
        const error = nulError('body');
        const json = JSON.stringify(error.toBody());
        response.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(json)) }).end(json);
        return;
      }
      // The provider reads a body already read from `req.body`, as routes.ts hands it over.
      (request as { body?: unknown }).body = body;
      providerCallback()(request, response).catch(() => response.destroy());
    });
  }

  const server = app.server;
  const [fastifyHandler] = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  if (!fastifyHandler) throw new Error('the Fastify server has no request handler to stand in front of');
  server.removeListener('request', fastifyHandler);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (closing || !isPlainTokenCall(request)) return fastifyHandler(request, response);
    answer(request, response);
  });
}
