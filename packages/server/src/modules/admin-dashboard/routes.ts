import { adminDashboardEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../platform/clock';
import { route } from '../../platform/http/route';
import type { Database } from '../../db/client';
import { dashboardFigures } from './queries';

/** GET /v3/admin/dashboard: the platform's HTTP layer admits operators only (the declaration's auth). */
/**
 * `idleTimeoutSeconds`: the sessions' idle timeout (SESSION_IDLE_TIMEOUT_SECONDS), past which a
 * session is not active. `countsWritten`: this node's counts, written (they wait up to a second).
 */
export function adminDashboardRoutes(deps: { db: Database; clock: Clock; idleTimeoutSeconds: number; countsWritten(): Promise<void> }): FastifyPluginAsync {
  return async (app) => {
    route(app, adminDashboardEndpoints.dashboard, async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      // What this node counted is in the figures it answers; another node's may be a second late.
      await deps.countsWritten();
      return dashboardFigures(deps.db, request.query.range, deps.clock.now(), deps.idleTimeoutSeconds);
    });
  };
}
