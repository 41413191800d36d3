import { MODERATORS_SCOPE, moderatorEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller, productClient } from '../sessions';
import type { ModeratorService, ProductCaller } from './service';

/** What the routes need from the oauth module: the first-party client and scopes behind a client-credentials access token. */
export interface ProductTokenCheck {
  authenticate(token: string): Promise<{ clientId: string; serviceScope: string; scopes: string[] } | null>;
}

/**
 * The moderators API: a product's back end with its client-credentials token (no
 * token, a person's token or an unknown one: 401; without the `moderators` scope: 403), and the
 * invited person's link (preview and sign-up public, accepting signed in).
 */
export function moderatorRoutes(config: Config, moderators: ModeratorService, clients: ProductTokenCheck): FastifyPluginAsync {
  return async (app) => {
    const product = async (request: FastifyRequest): Promise<ProductCaller> => {
      const client = await productClient(request, clients);
      if (!client.scopes.includes(MODERATORS_SCOPE)) throw new AppError('forbidden');
      return { clientId: client.clientId, serviceScope: client.serviceScope };
    };
    route(app, moderatorEndpoints.invite, async (request, reply) => {
      const { moderator, created } = await moderators.invite(await product(request), request.params.website_id, request.body);
      return reply.status(created ? 201 : 200).send(moderator);
    });
    route(app, moderatorEndpoints.list, async (request) => moderators.list(await product(request), request.params.website_id));
    route(app, moderatorEndpoints.revoke, async (request) => moderators.revoke(await product(request), request.params.website_id, request.params.moderator_id));
    route(app, moderatorEndpoints.notify, async (request) => moderators.notify(await product(request), request.params.website_id, request.body));

    route(app, moderatorEndpoints.preview, async (request) => moderators.preview(request.body.token, requestOrigin(request, config)));
    route(app, moderatorEndpoints.accept, async (request) => moderators.accept(caller(request).user, request.body.token));
    route(app, moderatorEndpoints.claimForSignUp, async (request) => moderators.claimForSignUp(request.body.token, requestOrigin(request, config)));
  };
}
