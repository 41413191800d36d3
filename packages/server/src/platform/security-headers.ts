import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * nosniff, Referrer-Policy, frame protection and friends from helmet. The CSP is set per
 * response: HTML pages carry a nonce (html-shell), everything else gets a policy that
 * allows nothing. HSTS only when the request came over HTTPS (directly or via a trusted proxy).
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: false,
    hsts: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    }
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    return payload;
  });
}
