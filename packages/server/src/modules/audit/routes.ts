import { Readable } from 'node:stream';
import { auditEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import { caller } from '../sessions';
import type { AuditService } from './service';

/** The audit log's `/v3` routes: read-only, for the organization's owners and admins. */
export function auditRoutes(audit: AuditService, clock: { now(): Date }): FastifyPluginAsync {
  return async (app) => {
    const person = (request: Parameters<typeof caller>[0]) => {
      const { user } = caller(request);
      return { id: user.id, email: user.email };
    };
    route(app, auditEndpoints.administered, async (request) => audit.administered(person(request)));
    route(app, auditEndpoints.list, async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return audit.list(person(request), request.params.organizationId, request.query);
    });
    route(app, auditEndpoints.exportCsv, async (request, reply) => {
      const records = await audit.exportCsv(person(request), request.params.organizationId, request.query);
      const filename = `audit-log-${clock.now().toISOString().slice(0, 10)}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(records));
    });
  };
}
