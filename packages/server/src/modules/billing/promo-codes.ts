import type { BillingCurrency, Discount } from '@portal/contracts';
import { fieldError } from '../../platform/errors';
import type { BillingContext } from './shared';

/** Promo codes: made by operators (or the demo seed), checked and discounted at checkout. */
export function createPromoCodes(ctx: BillingContext) {
  const { clock, q } = ctx;

  /** The promo code's discount for this plan and person, or 'Promo code not valid'. */
  async function discountFor(code: string | undefined, planId: string, currency: BillingCurrency, userId: string): Promise<{ code: string; discount: Discount } | null> {
    if (!code) return null;
    const promo = await q.promo(code);
    const now = clock.now();
    const valid =
      promo &&
      (!promo.expiresAt || promo.expiresAt > now) &&
      (promo.maxRedemptions === null || promo.redemptions < promo.maxRedemptions) &&
      (promo.plans.length === 0 || promo.plans.includes(planId)) &&
      (promo.kind === 'percent' ? promo.basisPoints !== null : promo.amount !== null && promo.currency === currency) &&
      !(await q.promoRedeemedBy(promo.code, userId));
    if (!valid) throw fieldError('promo_code', 'billing.promo_invalid');
    return {
      code: promo.code,
      discount: promo.kind === 'percent' ? { kind: 'percent', basisPoints: promo.basisPoints! } : { kind: 'fixed', amount: { minor: promo.amount!, currency } },
    };
  }

  return {
    discountFor,

    async createPromoCode(input: { code: string; percent?: number; amount?: { minor: number; currency: BillingCurrency }; plans?: string[]; expiresAt?: Date; maxRedemptions?: number }) {
      await q.upsertPromo({
        code: input.code.toUpperCase(),
        kind: input.amount ? 'fixed' : 'percent',
        basisPoints: input.amount ? null : Math.round((input.percent ?? 0) * 100),
        amount: input.amount?.minor ?? null,
        currency: input.amount?.currency ?? null,
        plans: input.plans ?? [],
        expiresAt: input.expiresAt ?? null,
        maxRedemptions: input.maxRedemptions ?? null,
      });
    },
  };
}

export type PromoCodes = ReturnType<typeof createPromoCodes>;
