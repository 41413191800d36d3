import type { PromoCodes } from './promo-codes';

/** Demo promo codes for development (SEED_DEMO). */
export async function seedDemoPromoCodes(promos: Pick<PromoCodes, 'createPromoCode'>): Promise<void> {
  await promos.createPromoCode({ code: 'WELCOME10', percent: 10 });
  await promos.createPromoCode({ code: 'LOCKER5', amount: { minor: 500, currency: 'USD' }, plans: ['pwdmanager.premium', 'pwdmanager.family'] });
}
