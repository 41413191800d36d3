import { z } from 'zod';
import { billingCurrencies } from './money';
import { billingPeriods, billingProducts, planIds } from './plans';
import { ALPHANUMERIC_PATTERN, captchaField, emailSchema, fullNameSchema, messages, profileMessages } from '../auth/schemas';
import { languageSchema } from '../resources/schemas';

/**
 * Billing calls: cards, subscriptions, checkout, orders and invoices, promo codes,
 * the business trial and AppSumo licenses. Money is integer minor units with its currency.
 */

/** The card messages of the spec's validation rules and the generic decline of its error catalogue: Stripe's own words. */
export const cardMessages = {
  invalidNumber: 'Your card number is invalid.',
  incompleteNumber: 'Your card number is incomplete.',
  incompleteCvc: "Your card's security code is incomplete.",
  incompleteExpiry: "Your card's expiration date is incomplete.",
  invalidExpiryYear: "Your card's expiration year is invalid.",
  expiryYearPast: "Your card's expiration year is in the past.",
  declined: 'Your card was declined.',
} as const;

export const cardBrands = ['visa', 'mastercard', 'jcb', 'american-express', 'discover', 'diners-club'] as const;
export type CardBrand = (typeof cardBrands)[number];
export const cardBrandNames: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  jcb: 'JCB',
  'american-express': 'American Express',
  discover: 'Discover',
  'diners-club': 'Diners Club',
};

export const currencySchema = z.enum(billingCurrencies);
export const planIdSchema = z.enum(planIds);
export const monthsSchema = z.union(billingPeriods.map((months) => z.literal(months)) as [z.ZodLiteral<1>, z.ZodLiteral<12>, z.ZodLiteral<24>]);
export const productSchema = z.enum(billingProducts);
/** A client-made key (a UUID, say) that makes a retried request answer the first one's result instead of charging again. */
export const idempotencyKeySchema = z.string().trim().min(8).max(100).regex(/^[\w.:-]+$/);
export const promoCodeSchema = z.string().trim().max(40).transform((value) => value.toUpperCase());

const text = (max: number) => z.string({ error: messages.blank }).trim().min(1, messages.blank).max(max);

/** POST /billing/sandbox/tokens: the sandbox processor's tokenization (the card number goes here and nowhere else). */
export const sandboxTokenRequestSchema = z.object({
  number: z.string().max(40),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  cvc: z.string().max(8),
});
/** What a card shows of itself (never its number): the token that stands for it and the saved card both carry it. */
const cardFace = { brand: z.enum(cardBrands), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() };
export const cardTokenSchema = z.object({ token: z.string(), ...cardFace });

export const billingConfigSchema = z.object({
  processor: z.enum(['sandbox', 'stripe']),
  /** Stripe's publishable key for the Payment Element (stripe only). */
  publishable_key: z.string().nullable(),
});

/** POST /sso/me/cards: the processor's token and the billing address (the spec's entities: cardholder, city, state, zip). */
/** A Stripe SetupIntent's client secret: the Payment Element confirms the card with it (the card's number stays with Stripe). */
export const cardSetupSchema = z.object({ client_secret: z.string() });
export type CardSetup = z.infer<typeof cardSetupSchema>;

export const addCardRequestSchema = z.object({
  token: z.string().trim().min(1).max(200),
  cardholder: text(100),
  city: text(100),
  state: text(100),
  zip: z.string({ error: messages.blank }).trim().min(1, messages.blank).max(20).regex(/^[A-Za-z0-9 -]+$/),
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  make_default: z.boolean().optional(),
});

export const billingAddressSchema = z.object({ cardholder: z.string(), city: z.string(), state: z.string(), zip: z.string(), country: z.string().nullable() });

export const cardSchema = z.object({
  id: z.string(),
  ...cardFace,
  ...billingAddressSchema.shape,
  is_default: z.boolean(),
  created_at: z.string(),
  /** Live subscriptions this card pays: removing it cancels them. */
  subscriptions: z.number().int(),
});
export type Card = z.infer<typeof cardSchema>;
export const cardListSchema = z.array(cardSchema);

export const subscriptionStatuses = ['trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export const subscriptionSchema = z.object({
  id: z.string(),
  product: productSchema,
  plan: z.string(),
  plan_name: z.string(),
  months: z.number().int(),
  seats: z.number().int(),
  currency: currencySchema,
  /** Recurring price per period in minor units (before any promo). */
  price: z.number().int(),
  status: z.enum(subscriptionStatuses),
  trial_ends_at: z.string().nullable(),
  current_period_start: z.string(),
  current_period_end: z.string().nullable(),
  /** When the next charge is due; null when none will be made (canceled, ends at period end, lifetime). */
  next_charge_at: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  canceled_at: z.string().nullable(),
  card_id: z.string().nullable(),
  organization_id: z.string().nullable(),
  lifetime: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionListSchema = z.array(subscriptionSchema);
/**
 * What removing a card did (spec: it cancels all subscriptions): the person's subscriptions it
 * cancelled, as they stand now (status canceled), so the page can name them; and the card that
 * is the default after it (null: no card is left).
 */
export const removeCardResponseSchema = z.object({ canceled_subscriptions: z.array(subscriptionSchema), default_card_id: z.string().nullable() });

export const orderStatuses = ['paid', 'completed', 'unpaid', 'failed', 'pending', 'rejected'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** What a price comes to, in minor units: list price, promo discount, subtotal, the credit of a replaced subscription, and the total. */
const priceBreakdown = { price: z.number().int(), discount: z.number().int(), subtotal: z.number().int(), credit: z.number().int(), total: z.number().int() };

/** An order (the spec's entities): id, time, plan, months, price, discount, subtotal, total, currency, payment method, billing address. */
export const orderSchema = z.object({
  id: z.string(),
  number: z.string(),
  created_at: z.string(),
  plan: z.string(),
  plan_name: z.string(),
  months: z.number().int(),
  ...priceBreakdown,
  currency: currencySchema,
  status: z.enum(orderStatuses),
  kind: z.enum(['new', 'renewal', 'change', 'trial']),
  promo_code: z.string().nullable(),
  payment_method: z.string().nullable(),
  billing_address: billingAddressSchema.nullable(),
  /** The invoice PDF exists for paid orders. */
  has_invoice: z.boolean(),
});
export type Order = z.infer<typeof orderSchema>;
export const orderListSchema = z.array(orderSchema);

export const quoteRequestSchema = z.object({
  plan: planIdSchema,
  months: monthsSchema,
  currency: currencySchema,
  seats: z.number().int().min(1).max(10_000).optional(),
  promo_code: promoCodeSchema.optional(),
  /** Quoting a change of this subscription (with proration). */
  subscription_id: z.uuid().optional(),
});
export const quoteSchema = z.object({
  plan: z.string(),
  months: z.number().int(),
  currency: currencySchema,
  ...priceBreakdown,
  /** Charged today: 0 during a trial. */
  due_now: z.number().int(),
  trial_days: z.number().int(),
  promo_code: z.string().nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const subscribeRequestSchema = quoteRequestSchema.omit({ subscription_id: true }).extend({
  card_id: z.uuid().optional(),
  idempotency_key: idempotencyKeySchema,
});
export const changeSubscriptionRequestSchema = z.object({
  plan: planIdSchema,
  months: monthsSchema,
  promo_code: promoCodeSchema.optional(),
  idempotency_key: idempotencyKeySchema,
});
export const subscriptionResultSchema = z.object({ subscription: subscriptionSchema, order: orderSchema.nullable() });

/** The most seats a business trial starts with: a bigger company asks sales, not a public form. */
export const BUSINESS_TRIAL_MAX_MEMBERS = 50;

/**
 * Business trial (/register/locker-enterprise-trial): the company, started by the signed-in
 * admin for their own account (`email` must be the account's), behind the captcha.
 */
export const businessTrialRequestSchema = z.object({
  company: z
    .string({ error: messages.blank })
    .trim()
    .min(1, messages.blank)
    .max(100)
    // The spec's validation rules: a company is alphanumeric only.
    .regex(ALPHANUMERIC_PATTERN, profileMessages.company),
  full_name: fullNameSchema,
  email: emailSchema,
  phone: z.string().trim().max(20).regex(/^\d*$/, profileMessages.phone).optional(),
  members: z.number().int().min(1).max(BUSINESS_TRIAL_MAX_MEMBERS).optional(),
  language: languageSchema.optional(),
  captcha: captchaField,
});
export const businessTrialResponseSchema = z.object({ email: z.string(), organization_id: z.string(), trial_ends_at: z.string() });

/** POST /sso/me/licenses/redeem: an AppSumo license code (the token of /confirmation/app/:token). */
export const redeemLicenseRequestSchema = z.object({ token: z.string().trim().min(1).max(300) });
export const redeemLicenseResponseSchema = z.object({ plan: z.string(), plan_name: z.string(), subscription: subscriptionSchema });

/** What products read of a person's plan (GET /{product}_platform/pm/users/me). */
export const productPlanSchema = z.object({
  plan: z.string(),
  tier: z.string(),
  status: z.enum(subscriptionStatuses).nullable(),
  period_end: z.string().nullable(),
  trial_ends_at: z.string().nullable(),
});
export type ProductPlan = z.infer<typeof productPlanSchema>;
