import { TRIAL_DAYS } from '../constants';
import { divideRounded, type BillingCurrency } from './money';

/**
 * The plan catalogue (the spec's product description and constants): every product's plans with their prices in
 * USD and VND per billing period (an order's `months`), in integer minor units. The
 * password manager and the secrets manager are written out; the other products' plans are
 * configuration of the same shape (`productPlans`), so a product is added here, not in code.
 */
export const billingProducts = ['pwdmanager', 'secret', 'bugbounty', 'vulnscan', 'endpoint', 'safechain'] as const;
export type BillingProduct = (typeof billingProducts)[number];

export const billingPeriods = [1, 12, 24] as const;
export type BillingPeriod = (typeof billingPeriods)[number];

/** Prices of one period: minor units per currency. */
export type PeriodPrice = Record<BillingCurrency, number>;

export interface Plan {
  /** Unique over the catalogue: `<product>.<tier>`. */
  id: string;
  product: BillingProduct;
  tier: string;
  name: string;
  /** Days of free trial for a first subscription to the product (once per person and product). */
  trialDays: number;
  /** Business plans are priced per member (seat). */
  perMember: boolean;
  /** Free plans cost nothing and are what a person has without a subscription. */
  free: boolean;
  /** Granted only (AppSumo licenses); never bought. */
  lifetime?: boolean;
  /** What the plan gives, as configuration the products read (e.g. secrets manager projects). */
  limits?: Record<string, number>;
  /** Prices per period in months; empty for free and lifetime plans. */
  prices: Partial<Record<BillingPeriod, PeriodPrice>>;
}

export const plans = [
  // Password manager: Free, Premium (from $1.29/mo), Family (from $5.99/mo), Business per member.
  { id: 'pwdmanager.free', product: 'pwdmanager', tier: 'free', name: 'Free', trialDays: 0, perMember: false, free: true, prices: {} },
  {
    id: 'pwdmanager.premium',
    product: 'pwdmanager',
    tier: 'premium',
    name: 'Premium',
    trialDays: TRIAL_DAYS,
    perMember: false,
    free: false,
    prices: { 1: { USD: 199, VND: 49_000 }, 12: { USD: 1_548, VND: 348_000 } },
  },
  {
    id: 'pwdmanager.family',
    product: 'pwdmanager',
    tier: 'family',
    name: 'Family',
    trialDays: TRIAL_DAYS,
    perMember: false,
    free: false,
    prices: { 1: { USD: 799, VND: 189_000 }, 12: { USD: 7_188, VND: 1_620_000 } },
  },
  {
    id: 'pwdmanager.business',
    product: 'pwdmanager',
    tier: 'business',
    name: 'Business',
    trialDays: TRIAL_DAYS,
    perMember: true,
    free: false,
    prices: { 1: { USD: 499, VND: 119_000 }, 12: { USD: 4_788, VND: 1_128_000 } },
  },
  { id: 'pwdmanager.lifetime', product: 'pwdmanager', tier: 'lifetime', name: 'Premium (lifetime)', trialDays: 0, perMember: false, free: false, lifetime: true, prices: {} },
  // Secrets manager: sign-up gives one free project; paid tiers above it.
  { id: 'secret.free', product: 'secret', tier: 'free', name: 'Free', trialDays: 0, perMember: false, free: true, limits: { projects: 1 }, prices: {} },
  {
    id: 'secret.pro',
    product: 'secret',
    tier: 'pro',
    name: 'Pro',
    trialDays: 0,
    perMember: false,
    free: false,
    limits: { projects: 10 },
    prices: { 1: { USD: 900, VND: 219_000 }, 12: { USD: 8_640, VND: 2_100_000 } },
  },
  {
    id: 'secret.business',
    product: 'secret',
    tier: 'business',
    name: 'Business',
    trialDays: 0,
    perMember: true,
    free: false,
    limits: { projects: 100 },
    prices: { 1: { USD: 1_900, VND: 459_000 }, 12: { USD: 18_240, VND: 4_400_000 } },
  },
  // The other products' plans: configuration of the same shape.
  ...(
    [
      ['bugbounty', 'Bug Bounty', { 1: { USD: 49_900, VND: 12_000_000 }, 12: { USD: 479_000, VND: 115_000_000 } }],
      ['vulnscan', 'Vulnerability Scanner', { 1: { USD: 9_900, VND: 2_400_000 }, 12: { USD: 95_000, VND: 23_000_000 } }],
      ['endpoint', 'Endpoint', { 1: { USD: 300, VND: 75_000 }, 12: { USD: 2_880, VND: 720_000 } }],
      ['safechain', 'SafeChain', { 1: { USD: 2_900, VND: 699_000 }, 12: { USD: 27_800, VND: 6_700_000 } }],
    ] as const
  ).map(([product, name, prices]) => ({
    id: `${product}.standard`,
    product,
    tier: 'standard',
    name,
    trialDays: 0,
    perMember: false,
    free: false,
    prices: prices as Partial<Record<BillingPeriod, PeriodPrice>>,
  })),
] as const satisfies readonly Plan[];

export type PlanId = (typeof plans)[number]['id'];
export const planIds = plans.map((plan) => plan.id) as [PlanId, ...PlanId[]];

const byId = new Map<string, Plan>(plans.map((plan) => [plan.id, plan]));

export function findPlan(id: string): Plan | undefined {
  return byId.get(id);
}

/** Plans that can be bought (not free, not lifetime). */
export function purchasablePlans(product?: BillingProduct): Plan[] {
  return (plans as readonly Plan[]).filter((plan) => !plan.free && !plan.lifetime && (!product || plan.product === product));
}

/** The periods (months) a plan is sold for, shortest first. */
export function planPeriods(plan: Plan): BillingPeriod[] {
  return billingPeriods.filter((months) => plan.prices[months]);
}

/** Price of `months` of the plan for `seats` members (1 for personal plans), or null when not sold so. */
export function planPrice(plan: Plan, months: number, currency: BillingCurrency, seats = 1): number | null {
  const price = plan.prices[months as BillingPeriod]?.[currency];
  if (price === undefined) return null;
  return price * (plan.perMember ? Math.max(1, seats) : 1);
}

/** The "from" price: the longest period's price per month (premium $15.48 a year is "from $1.29/mo"). */
export function fromMonthlyPrice(plan: Plan, currency: BillingCurrency): number | null {
  const periods = planPeriods(plan);
  const longest = periods[periods.length - 1];
  if (!longest) return null;
  return divideRounded(plan.prices[longest]![currency], longest);
}
