import { DEVICE_EXPIRY_HEADER, DEVICE_ID_HEADER } from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a fetch-metadata-sending browser says when the page is ours or the user typed the address. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * The origins whose pages may call the API with the browser's cookies: the two brands' public
 * origins (the password-manager brand's pages may call their own API host, LOCKER_API_BASE_URL,
 * which is this server under another name) and the product origins of CORS_ORIGINS.
 */
export function productOrigins(config: Config): Set<string> {
  return new Set([config.PLATFORM_ORIGIN, config.LOCKER_ORIGIN, ...config.CORS_ORIGINS].map((origin) => new URL(origin).origin));
}

/** The origin the request was addressed to, as the browser saw it (through trusted proxies). */
function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * Whether a state-changing request may have been made by a page of someone else's site.
 * `Origin` decides when present (browsers send it on every cross-origin request and every
 * POST); without it, `Sec-Fetch-Site` does. Requests with neither come from programs, not
 * from a browser a page could drive, and carry no ambient cookie risk of their own.
 */
export function isCrossSite(request: FastifyRequest, allowed: Set<string>): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return !(allowed.has(origin) || origin === ownOrigin(request));
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && !OWN_FETCH_SITES.has(site);
}

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = `accept, accept-language, content-type, authorization, ${DEVICE_ID_HEADER}`;
const EXPOSED_HEADERS = `${DEVICE_ID_HEADER}, ${DEVICE_EXPIRY_HEADER}, retry-after`;

/**
 * Cross-site request defence beside SameSite=Lax (which lets a sibling subdomain through):
 * a state-changing request that relies on cookies (no Authorization header) from another
 * site's page is refused with 403 before any route runs. CORS answers only the product
 * origins, with credentials; every other origin gets no CORS headers, so browsers keep its
 * pages from reading our answers.
 */
export function installCrossSiteGuard(app: FastifyInstance, config: Config, options: { exemptPrefixes?: string[]; ownCorsPrefixes?: string[] } = {}): void {
  const allowed = productOrigins(config);
  const exempt = options.exemptPrefixes ?? [];
  const ownCors = options.ownCorsPrefixes ?? [];
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    // Routes that answer CORS themselves (the OIDC provider, per client: clientBasedCORS); a
    // product origin's blanket answer with credentials would stand in for that decision.
    if (ownCors.some((prefix) => request.url.startsWith(prefix))) {
      done();
      return;
    }
    if (origin !== undefined) {
      reply.header('vary', 'Origin');
      if (allowed.has(origin)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-allow-credentials', 'true');
        reply.header('access-control-expose-headers', EXPOSED_HEADERS);
      }
    }
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      if (origin !== undefined && allowed.has(origin)) {
        reply.header('access-control-allow-methods', ALLOWED_METHODS);
        reply.header('access-control-allow-headers', ALLOWED_HEADERS);
        reply.header('access-control-max-age', '600');
      }
      reply.code(204).send();
      return;
    }
    if (!SAFE_METHODS.has(request.method) && !request.headers.authorization && isCrossSite(request, allowed) && !exempt.some((prefix) => request.url.startsWith(prefix))) {
      done(new AppError('forbidden', {}, { reason: 'cross_site_request' }));
      return;
    }
    done();
  });
}
