import { organizationEndpoints, productEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import { requestOrigin } from '../../platform/request-origin';
import { caller } from '../sessions';
import type { MembershipService } from './membership';
import type { OrganizationService } from './service';

/** On-premise discovery: public, counted per address whatever the answer. */
export function organizationRoutes(config: Config, organizations: OrganizationService, limiter: RateLimiter): FastifyPluginAsync {
  return async (app) => {
    route(app, productEndpoints.onPremisePrelogin, async (request) => {
      const origin = requestOrigin(request, config);
      rateLimited(await limiter.consume(rateKey(limits.onPremisePerIp, origin.limitAddress), limits.onPremisePerIp));
      return organizations.onPremiseFor(request.body.email);
    });
  };
}

/** The organization page and invitation links: roles are checked by the service, whatever the page showed. */
export function membershipRoutes(config: Config, membership: MembershipService): FastifyPluginAsync {
  return async (app) => {
    const actor = (request: Parameters<typeof caller>[0]) => caller(request).user;
    route(app, organizationEndpoints.mine, async (request) => membership.mine(actor(request)));
    route(app, organizationEndpoints.invitations, async (request) => membership.invitations(actor(request)));
    route(app, organizationEndpoints.invite, async (request) => membership.invite(actor(request), request.body, requestOrigin(request, config)));
    route(app, organizationEndpoints.resendInvitation, async (request) => membership.resend(actor(request), request.params.id, requestOrigin(request, config)));
    route(app, organizationEndpoints.revokeInvitation, async (request) => membership.revoke(actor(request), request.params.id));
    route(app, organizationEndpoints.changeRole, async (request) => membership.changeRole(actor(request), request.params.email, request.body.role));
    route(app, organizationEndpoints.removeMember, async (request) => membership.remove(actor(request), request.params.email));
    route(app, organizationEndpoints.leave, async (request) => membership.leave(actor(request)));
    route(app, organizationEndpoints.acceptInvitation, async (request) => membership.accept(actor(request), request.body.token));
    route(app, organizationEndpoints.previewInvitation, async (request) => membership.preview(request.body.token, requestOrigin(request, config)));
    route(app, organizationEndpoints.claimForSignUp, async (request) => membership.claimForSignUp(request.body.token, requestOrigin(request, config)));
  };
}
