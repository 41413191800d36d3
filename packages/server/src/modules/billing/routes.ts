import { billingEndpoints } from '@portal/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import type { StripeProcessor } from '../../platform/payments';
import { requestOrigin } from '../../platform/request-origin';
import { caller } from '../sessions';
import type { BillingService } from './service';

/** Billing's `/v3` routes; the Stripe webhook reads its raw body (the signature is over the bytes). */
export function billingRoutes(config: Config, billing: BillingService, stripe: StripeProcessor | null): FastifyPluginAsync {
  return async (app) => {
    const userId = (request: Parameters<typeof caller>[0]) => caller(request).user.id;

    route(app, billingEndpoints.config, async () => ({ processor: billing.processorKind, publishable_key: billing.publishableKey }));

    route(app, billingEndpoints.listCards, async (request) => billing.listCards(userId(request)));
    route(app, billingEndpoints.addCard, async (request) => billing.addCard(userId(request), request.body));
    route(app, billingEndpoints.cardSetup, async (request) => billing.cardSetup(userId(request)));
    route(app, billingEndpoints.setDefaultCard, async (request) => billing.setDefaultCard(userId(request), request.params.id));
    route(app, billingEndpoints.removeCard, async (request) => billing.removeCard(userId(request), request.params.id));

    route(app, billingEndpoints.listSubscriptions, async (request) => billing.listSubscriptions(userId(request)));
    route(app, billingEndpoints.quote, async (request) => billing.quote(userId(request), request.body));
    route(app, billingEndpoints.subscribe, async (request) => billing.subscribe(userId(request), request.body));
    route(app, billingEndpoints.changeSubscription, async (request) => billing.change(userId(request), request.params.id, request.body));
    route(app, billingEndpoints.cancelSubscription, async (request) => billing.cancel(userId(request), request.params.id));
    route(app, billingEndpoints.resumeSubscription, async (request) => billing.resume(userId(request), request.params.id));

    route(app, billingEndpoints.listOrders, async (request) => billing.listOrders(userId(request)));
    route(app, billingEndpoints.invoice, async (request, reply) => {
      const { filename, pdf } = await billing.invoice(userId(request), request.params.id, requestOrigin(request, config).brand);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'private, no-store').send(pdf);
    });

    route(app, billingEndpoints.businessTrial, async (request) => billing.businessTrial(userId(request), request.body, requestOrigin(request, config)));
    route(app, billingEndpoints.redeemLicense, async (request) => billing.redeemLicense(userId(request), request.body.token));

    await app.register(async (raw: FastifyInstance) => {
      // The signature covers the exact bytes Stripe sent: keep them.
      raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      route(
        raw,
        billingEndpoints.stripeWebhook,
        async (request) => {
          if (!stripe) throw new AppError('not_found');
          const body = request.body as unknown;
          const signature = request.headers['stripe-signature'];
          const event = Buffer.isBuffer(body) ? stripe.verifyWebhook(body, typeof signature === 'string' ? signature : undefined) : null;
          if (!event) throw new AppError('billing.webhook_invalid');
          return { received: await billing.handleStripeEvent(event) };
        },
        { bodyLimit: 512 * 1024 },
      );
    });
  };
}
