import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/client';

const statusSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

/** Liveness (the process answers) and readiness (the database answers too). */
export function healthRoutes(database: DatabaseHandle): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true, response: { 200: statusSchema } } }, async () => ({ status: 'ok' as const }));
    app.get('/readyz', { schema: { hide: true, response: { 200: statusSchema, 503: statusSchema } } }, async (request, reply) => {
      try {
        await database.ping();
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        return reply.status(503).send({ status: 'unavailable' });
      }
    });
  };
}
