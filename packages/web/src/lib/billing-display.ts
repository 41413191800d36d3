import { cardBrandNames, planPeriods, serviceCatalogue, type BillingCurrency, type BillingPeriod, type BillingProduct, type Card, type Plan } from '@portal/contracts';

/**
 * How billing's catalogue and a person's cards read on screen, shared by the billing page and
 * the wallet's summary of them (features do not import each other).
 */

const productNames: Record<BillingProduct, string> = {
  pwdmanager: serviceCatalogue.pwdmanager.name,
  secret: serviceCatalogue.secret.name,
  bugbounty: serviceCatalogue.bugbounty.name,
  vulnscan: serviceCatalogue.vulnscan.name,
  endpoint: serviceCatalogue.endpoint.name,
  safechain: serviceCatalogue.safechain.name,
};

/**
 * A plan's full name with the product's name once: "Locker Password Manager Premium", but
 * "WhiteHub Bug Bounty" (not "… Bug Bounty Bug Bounty") where the plan is named after its product.
 */
export function planTitle(product: BillingProduct, planName: string): string {
  const productName = productNames[product];
  return productName.toLowerCase().endsWith(planName.toLowerCase()) ? productName : `${productName} ${planName}`;
}

/** A price as the catalogue states it: an amount in minor units for a number of months; `from` when longer periods cost less a month. */
export interface StatedPrice {
  minor: number;
  months: BillingPeriod;
  from: boolean;
}

/**
 * The price a plan is offered at: "from" the longest period's price a month where that is a whole
 * amount (Premium's $15.48 a year is "from $1.29/mo", as the spec words it); else the longest
 * period's price as stated ($4,790 a year, never a divided $399.17/mo). Null for plans not sold.
 */
export function offeredPrice(plan: Plan, currency: BillingCurrency): StatedPrice | null {
  const periods = planPeriods(plan);
  const longest = periods[periods.length - 1];
  if (!longest) return null;
  const minor = plan.prices[longest]![currency];
  return minor % longest === 0 ? { minor: minor / longest, months: 1, from: longest > 1 } : { minor, months: longest, from: false };
}

/** "Visa •••• 4242". */
export const cardLabel = (card: Pick<Card, 'brand' | 'last4'>) => `${cardBrandNames[card.brand]} •••• ${card.last4}`;

/** "12/2030". */
export const cardExpiry = (card: Pick<Card, 'exp_month' | 'exp_year'>) => `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
