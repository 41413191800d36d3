import { adminOrganizationEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import type { OrganizationConsole } from './admin-console';

/** Organizations in the operators' console (roles, two-step, recent proof and the audit log are the platform's). */
export function organizationAdminRoutes(admin: OrganizationConsole): FastifyPluginAsync {
  return async (app) => {
    route(app, adminOrganizationEndpoints.searchOrganizations, async (request) => admin.search(request.query.q));
    route(app, adminOrganizationEndpoints.getOrganization, async (request) => admin.get(request.params.id.toLowerCase()));
    route(app, adminOrganizationEndpoints.verifyDomainByHand, async (request) => admin.verifyDomain(request.params.id.toLowerCase(), request.params.domain));
  };
}
