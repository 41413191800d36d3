import { randomUUID } from 'node:crypto';
import { findPlan } from '@portal/contracts';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { subscriptionDto } from './dto';
import { issueLicense, verifyLicense } from './licenses';
import type { BillingContext } from './shared';

/** AppSumo licenses: issued under the license key, redeemed once each for their lifetime plan. */
export function createLicenseRedemption(ctx: BillingContext) {
  const { deps, clock, q, userOrThrow } = ctx;

  return {
    issueLicense: (plan: string, expiresAt: Date) => issueLicense({ plan, expiresAt: Math.floor(expiresAt.getTime() / 1000) }, deps.licenseSecret),

    /** Redeems an AppSumo code: its lifetime plan, once; it replaces a live subscription of the product. */
    async redeemLicense(userId: string, token: string) {
      const user = await userOrThrow(userId);
      const license = verifyLicense(token, deps.licenseSecret, clock.now());
      const plan = license ? findPlan(license.plan) : undefined;
      if (!plan || !plan.lifetime) throw new AppError('billing.license_invalid');
      const codeHash = sha256(`appsumo:${token.trim().toLowerCase()}`);
      if (!(await q.claimLicense(codeHash, plan.id, user.id))) throw new AppError('billing.license_invalid');
      const now = clock.now();
      const live = await q.liveSubscription(user.id, plan.product);
      if (live?.lifetime) {
        await q.setLicenseSubscription(codeHash, live.id);
        return { plan: plan.id, plan_name: plan.name, subscription: subscriptionDto(live) };
      }
      if (live) await q.updateSubscription(live.id, { status: 'canceled', canceledAt: now, nextAttemptAt: null, updatedAt: now });
      const subscription = await q.insertSubscription({
        id: randomUUID(),
        userId: user.id,
        product: plan.product,
        plan: plan.id,
        months: 0,
        seats: 1,
        currency: 'USD',
        price: 0,
        status: 'active',
        lifetime: true,
        currentPeriodStart: now,
        createdAt: now,
        updatedAt: now,
      });
      if (!subscription) throw new AppError('billing.license_invalid');
      await q.setLicenseSubscription(codeHash, subscription.id);
      return { plan: plan.id, plan_name: plan.name, subscription: subscriptionDto(subscription) };
    },
  };
}
