import { findPlan, type SubscriptionStatus } from '@portal/contracts';
import { iso, type BillingContext } from './shared';

/** `{product}_platform` names as products call them, to billing's products. */
const productAliases: Record<string, string> = {
  locker: 'pwdmanager',
  pwdmanager: 'pwdmanager',
  secret: 'secret',
  secrets: 'secret',
  bugbounty: 'bugbounty',
  whitehub: 'bugbounty',
  vulnscan: 'vulnscan',
  endpoint: 'endpoint',
  safechain: 'safechain',
};

/** What products ask of billing: the person's plan of a product. */
export function createProductPlans(ctx: BillingContext) {
  const { q } = ctx;

  return {
    /** The person's plan of a product as products read it (`GET /{product}_platform/pm/users/me`). */
    async productPlan(userId: string, productName: string) {
      const product = productAliases[productName];
      if (!product) return undefined;
      const live = await q.liveSubscription(userId, product);
      if (!live) {
        const free = findPlan(`${product}.free`);
        return free ? { plan: free.id, tier: free.tier, status: null, period_end: null, trial_ends_at: null } : undefined;
      }
      return { plan: live.plan, tier: findPlan(live.plan)?.tier ?? live.plan, status: live.status as SubscriptionStatus, period_end: iso(live.currentPeriodEnd), trial_ends_at: iso(live.trialEndsAt) };
    },
  };
}
