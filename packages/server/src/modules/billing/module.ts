import { createPaymentProcessor, sandboxRoutes } from '../../platform/payments';
import type { Late, Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { ProductPlanClaim } from '../oauth';
import type { OrganizationsMade } from '../organizations';
import { withSessions, type SessionsMade } from '../sessions';
import { billingAdmin, licenseSecretOf } from './admin';
import { billingConsole } from './admin-console';
import { billingAdminRoutes } from './admin-routes';
import { installReceiptJob, installRenewalJob } from './job';
import { billingRoutes } from './routes';
import { createBillingService } from './service';

/**
 * Billing: the configured processor (Stripe, or the built-in sandbox) behind one interface. It
 * binds the OpenID provider's `plan` claim (oauth is listed before it). `afterRenewalCharge` is
 * the renewal job's test hook.
 */
export function billingModule(options: { afterRenewalCharge?: (subscriptionId: string) => Promise<void> | void } = {}) {
  return defineModule({
    name: 'billing',
    create: async (needs: { platform: Platform; sessions: SessionsMade; organizations: OrganizationsMade; oauth: { productPlan: Late<ProductPlanClaim> } }) => {
      const { config, db, clock, secrets } = needs.platform;
      const payments = createPaymentProcessor(config, db, clock);
      const licenseSecret = licenseSecretOf(config, secrets);
      const billing = createBillingService({
        ...withSessions(needs),
        processor: payments.processor,
        organizations: needs.organizations.organizations,
        licenseSecret,
        afterRenewalCharge: options.afterRenewalCharge,
      });
      if (config.SEED_DEMO) await billing.seedDemoPromoCodes();
      needs.oauth.productPlan.bind(async (userId, product) => {
        const plan = await billing.productPlan(userId, product);
        return plan && { product: plan.plan.split('.')[0] ?? product, ...plan };
      });
      return { billing, payments, licenseSecret };
    },
    jobs: (app, { billing }, { platform: { config } }) => {
      installRenewalJob(app, billing, config.BILLING_JOB_INTERVAL_SECONDS);
      installReceiptJob(app, billing, config.BILLING_RECEIPT_INTERVAL_SECONDS);
    },
    routes: async (api, { billing, payments, licenseSecret }, { platform: { config, db, clock, limiter } }) => {
      await api.register(sandboxRoutes(payments.sandbox, limiter));
      await api.register(billingRoutes(config, billing, payments.stripe));
      // Billing in the operators' console.
      await api.register(billingAdminRoutes({ admin: billingAdmin({ db, clock, licenseSecret }), console: billingConsole({ db, clock, licenseSecret }), billing }));
    },
  });
}
