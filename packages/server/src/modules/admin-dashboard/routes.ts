import { adminDashboardEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../platform/clock';
import { route } from '../../platform/http/route';
import type { Database } from '../../db/client';
import { dashboardFigures } from './queries';

/** GET /v3/admin/dashboard: the platform's HTTP layer admits operators only (the declaration's auth). */
export function adminDashboardRoutes(deps: { db: Database; clock: Clock }): FastifyPluginAsync {
  return async (app) => {
    route(app, adminDashboardEndpoints.dashboard, async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return dashboardFigures(deps.db, request.query.range, deps.clock.now());
    });
  };
}
