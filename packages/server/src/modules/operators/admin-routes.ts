import { Readable } from 'node:stream';
import { adminOperatorEndpoints as endpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../platform/clock';
import { route } from '../../platform/http/route';
import { operatorOf } from './guard';
import type { AuditFilter } from './queries';
import type { OperatorService } from './service';

const filterOf = (query: { actor?: string; action?: string; target?: string; from?: string; to?: string }): AuditFilter => ({
  actor: query.actor || undefined,
  action: query.action || undefined,
  target: query.target || undefined,
  from: query.from ? new Date(query.from) : undefined,
  to: query.to ? new Date(query.to) : undefined,
});

/** The operators' own admin endpoints: who they are, roles, their API keys and the operator audit log. */
export function operatorAdminRoutes(operators: OperatorService, clock: Clock): FastifyPluginAsync {
  return async (app) => {
    route(app, endpoints.me, async (request) => {
      const { user, roles } = operatorOf(request);
      return { user_id: user.id, email: user.email, full_name: user.fullName, roles };
    });

    route(app, endpoints.listOperators, async () => operators.list());
    route(app, endpoints.grantRole, async (request) => operators.grant(request.body.email, request.body.role));
    route(app, endpoints.revokeRole, async (request) => operators.revoke(request.params.userId, request.params.role));

    route(app, endpoints.createApiKey, async (request) => operators.createKey(operatorOf(request).user.id, request.body));
    route(app, endpoints.listApiKeys, async (request) => operators.listKeys(operatorOf(request).user.id));
    route(app, endpoints.revokeApiKey, async (request) => operators.revokeKey(operatorOf(request).user.id, request.params.id));

    route(app, endpoints.audit, async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return operators.audit({ ...filterOf(request.query), cursor: request.query.cursor, limit: request.query.limit });
    });
    route(app, endpoints.auditCsv, async (request, reply) => {
      const filename = `operator-audit-${clock.now().toISOString().slice(0, 10)}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(operators.auditCsv(filterOf(request.query))));
    });
  };
}
