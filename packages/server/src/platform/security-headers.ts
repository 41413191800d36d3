import type { FastifyInstance } from 'fastify';

/**
 * What every response carries (OWASP's REST set): no MIME sniffing, no framing, a CSP that
 * allows nothing (HTML pages replace it with their nonce policy), and no reading by other
 * origins' no-cors requests. Precomputed: this runs on every request, so no per-request work.
 */
const EVERY_RESPONSE = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/** What only documents use: added by the HTML shell (helmet's defaults that still matter). */
export const PAGE_HEADERS = {
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-permitted-cross-domain-policies': 'none',
} as const;

const HSTS = 'max-age=31536000; includeSubDomains';
const OVER_HTTPS = { ...EVERY_RESPONSE, 'strict-transport-security': HSTS } as const;

/** The security headers of a response to a request that came over `protocol`: HSTS only over HTTPS (directly or via a trusted proxy). */
export function securityHeaders(protocol: string | undefined): Readonly<Record<string, string>> {
  return protocol === 'https' ? OVER_HTTPS : EVERY_RESPONSE;
}

/** Security headers on every response (the lean token entry of the oauth module sets the same ones itself). */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders(request.protocol));
    done();
  });
}
