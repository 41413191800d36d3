import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { Config } from '../config';
import { safeEqual } from './crypto';
import { RequestDurations } from './request-durations';

declare module 'fastify' {
  interface FastifyInstance {
    /** The request-duration histogram: what answers before Fastify's hooks (the lean token entry) observes into it too. */
    requestDurations: RequestDurations;
  }
}

/**
 * Prometheus metrics: process defaults plus request duration by route and status. They tell
 * an outsider about traffic and versions, so they are served only to whoever holds
 * METRICS_TOKEN on the main port, or on METRICS_PORT (a port the operator keeps internal);
 * with neither, nowhere.
 */
export function installMetrics(app: FastifyInstance, config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_PORT' | 'HOST'>): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const durations = new RequestDurations();
  // prom-client prints any metric with its get(); its TypeScript types list only its own classes.
  registry.registerMetric(durations as unknown as Metric);
  app.decorate('requestDurations', durations);
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: raw URLs carry ids and tokens.
    durations.observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const token = config.METRICS_TOKEN;
  if (token) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const presented = request.headers.authorization?.startsWith('Bearer ') ? request.headers.authorization.slice(7) : '';
      // Not found rather than unauthorized: the endpoint does not advertise itself.
      if (!safeEqual(presented, token)) return reply.callNotFound();
      reply.type(registry.contentType);
      return registry.metrics();
    });
  }

  if (config.METRICS_PORT !== undefined) {
    const port = config.METRICS_PORT;
    let server: Server | undefined;
    // Bound when the app is ready, before the main port: a port that cannot be bound fails the
    // start (an onListen hook's error is only logged, and the node would run unmonitored).
    app.addHook('onReady', async () => {
      server = createServer((request, response) => {
        if (request.url !== '/metrics') return void response.writeHead(404).end();
        registry.metrics().then(
          (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
          () => response.writeHead(500).end(),
        );
      });
      await new Promise<void>((resolve, reject) =>
        server!.once('error', (error) => reject(new Error(`METRICS_PORT ${port} cannot be bound on ${config.HOST}: ${error.message}`))).listen(port, config.HOST, resolve),
      );
    });
    app.addHook('onClose', async () => {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    });
  }
}
