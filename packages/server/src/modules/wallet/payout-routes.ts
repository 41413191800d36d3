import { payoutEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { AppError } from '../../platform/errors';
import { rateKey, rateLimited, type NamedRule, type RateLimiter } from '../../platform/rate-limit';
import { requestOrigin } from '../../platform/request-origin';
import { caller, productClient } from '../sessions';
import type { RewardPoster, PayoutService } from './payouts';

/** The product allowed to post rewards: its first-party client's service scope. */
export const REWARDS_SERVICE_SCOPE = 'bugbounty';

/** Public profile lookups per address: enough for people browsing, not for walking the username space. */
export const profileLookupsPerIp: NamedRule = { name: 'researcher:ip', limit: 60, windowSeconds: 60 };

/** What the routes need from the oauth module: the first-party client behind a client-credentials access token. */
export interface ClientTokenCheck {
  authenticate(token: string): Promise<{ clientId: string; serviceScope: string } | null>;
}

/**
 * The payout routes: the bug-bounty platform's reward calls (its client-credentials token: no
 * token, a person's token or an unknown one is 401, another product's client 403), the
 * researcher's payout settings (choosing the wallet needs a recent proof of identity) and the
 * public researcher profile (counted per address, whatever the answer).
 */
export function payoutRoutes(config: Config, payouts: PayoutService, clients: ClientTokenCheck, limiter: RateLimiter): FastifyPluginAsync {
  return async (app) => {
    const product = async (request: FastifyRequest): Promise<RewardPoster> => {
      const client = await productClient(request, clients);
      if (client.serviceScope !== REWARDS_SERVICE_SCOPE) throw new AppError('forbidden');
      return { clientId: client.clientId };
    };
    route(app, payoutEndpoints.postReward, async (request, reply) => {
      const { reward, created } = await payouts.postReward(await product(request), request.body);
      return reply.status(created ? 201 : 200).send(reward);
    });
    route(app, payoutEndpoints.getReward, async (request) => payouts.getReward(await product(request), request.params.reward_id));
    route(app, payoutEndpoints.cancelReward, async (request) => payouts.cancelReward(await product(request), request.params.reward_id));

    const userId = (request: FastifyRequest) => caller(request).user.id;
    route(app, payoutEndpoints.payoutSettings, async (request) => payouts.settings(userId(request)));
    route(app, payoutEndpoints.setPayoutMethod, async (request) => payouts.setPayoutMethod(userId(request), request.body.payout_currency));
    route(app, payoutEndpoints.setResearcherProfile, async (request) => payouts.setProfilePublic(userId(request), request.body.profile_public));
    route(app, payoutEndpoints.researcherProfile, async (request) => {
      const origin = requestOrigin(request, config);
      rateLimited(await limiter.consume(rateKey(profileLookupsPerIp, origin.limitAddress), profileLookupsPerIp));
      return payouts.publicProfile(request.params.username);
    });
  };
}
