import { adminBillingEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { BillingAdminError, type billingAdmin, type PromoListing } from './admin';
import type { BillingConsole } from './admin-console';
import type { BillingService } from './service';

type BillingAdmin = ReturnType<typeof billingAdmin>;

const promo = (listing: PromoListing) => ({
  code: listing.code,
  discount: listing.discount,
  plans: listing.plans,
  expires_at: listing.expiresAt?.toISOString() ?? null,
  redemptions: listing.redemptions,
  max_redemptions: listing.maxRedemptions,
  state: listing.state,
});

/** The command line's refusals (a BillingAdminError, or its zod parse naming the field) as a 400 saying the same. */
async function asAdminInput<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BillingAdminError) {
      if (/already exists/.test(error.message)) throw new AppError('admin.promo_exists');
      if (/^no promo code/.test(error.message)) throw new AppError('admin.not_found');
      throw new AppError('admin.promo_invalid', { detail: error.message });
    }
    const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
    if (issues?.length) throw new AppError('admin.promo_invalid', { detail: issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ') });
    throw error;
  }
}

/**
 * Billing in the operators' console (roles, two-step, recent proof and the audit log are the
 * platform's). Promo codes and licence codes go through the command line's own checks; a refund
 * through billing's refund, once per order whoever asks at the same moment.
 */
export function billingAdminRoutes(deps: { admin: BillingAdmin; console: BillingConsole; billing: BillingService }): FastifyPluginAsync {
  const { admin, billing } = deps;
  const data = deps.console;
  return async (app) => {
    route(app, adminBillingEndpoints.listPromoCodes, async () => ({ promo_codes: (await admin.listPromos()).map(promo) }));
    route(app, adminBillingEndpoints.createPromoCode, async (request) => {
      const body = request.body;
      const added = await asAdminInput(() =>
        admin.addPromo({
          code: body.code,
          percent: body.percent,
          amount: body.amount,
          currency: body.currency,
          plan: body.plans,
          expires: body.expires,
          limit: body.limit === undefined ? undefined : String(body.limit),
        }),
      );
      return promo(added);
    });
    route(app, adminBillingEndpoints.disablePromoCode, async (request) => {
      const code = request.params.code.toUpperCase();
      await asAdminInput(() => admin.disablePromo(code));
      const found = (await admin.listPromos()).find((listing) => listing.code === code);
      if (!found) throw new AppError('admin.not_found');
      return promo(found);
    });
    route(app, adminBillingEndpoints.listLicenses, async () => data.licenses());
    route(app, adminBillingEndpoints.issueLicenses, async (request) => {
      const issued = await asAdminInput(() => admin.issueLicenses({ plan: request.body.plan, count: String(request.body.count), expires: request.body.expires }));
      return { plan: issued.plan, expires_at: issued.expiresAt.toISOString(), codes: issued.codes };
    });
    route(app, adminBillingEndpoints.revokeLicense, async (request) => data.revokeLicense(request.body.code));
    route(app, adminBillingEndpoints.searchOrders, async (request) => data.searchOrders(request.query.q));
    route(app, adminBillingEndpoints.refundOrder, async (request) => {
      const id = request.params.id.toLowerCase();
      const before = await data.order(id);
      if (!before) throw new AppError('admin.not_found');
      if (before.status !== 'paid') throw new AppError('admin.order_not_refundable');
      if (before.refunded_at) throw new AppError('admin.order_already_refunded');
      const done = await billing.refundOrderOnce(id).catch((error: unknown) => {
        // Paid but never charged at a processor (a free order): nothing to give back.
        if (error instanceof AppError && error.code === 'billing.order_not_found') throw new AppError('admin.order_not_refundable');
        throw error;
      });
      // Two operators at once: one call records the refund, the other is told it was done.
      if (!done.refundedNow) throw new AppError('admin.order_already_refunded');
      const after = await data.order(id);
      if (!after) throw new AppError('admin.not_found');
      return after;
    });
  };
}
