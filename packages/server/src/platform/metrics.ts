import type { FastifyInstance } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics: process defaults plus request duration by route and status. */
export function installMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // One labelled child per method, route and status, found by a string key: prom-client would
  // otherwise hash the label object on every request.
  const series = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: raw URLs carry ids and tokens.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = series.get(key);
    if (!child) series.set(key, (child = duration.labels({ method: request.method, route, status: String(reply.statusCode) })));
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
