import { productEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import { requestOrigin } from '../../platform/request-origin';
import type { OrganizationService } from './service';

/** On-premise discovery (issue 14): public, counted per address whatever the answer. */
export function organizationRoutes(config: Config, organizations: OrganizationService, limiter: RateLimiter): FastifyPluginAsync {
  return async (app) => {
    route(app, productEndpoints.onPremisePrelogin, async (request) => {
      const origin = requestOrigin(request, config);
      rateLimited(await limiter.consume(rateKey(limits.onPremisePerIp, origin.limitAddress), limits.onPremisePerIp));
      return organizations.onPremiseFor(request.body.email);
    });
  };
}
