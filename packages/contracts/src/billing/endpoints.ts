import { z } from 'zod';
import {
  addCardRequestSchema,
  billingConfigSchema,
  businessTrialRequestSchema,
  businessTrialResponseSchema,
  cardListSchema,
  cardSchema,
  cardSetupSchema,
  cardTokenSchema,
  changeSubscriptionRequestSchema,
  orderListSchema,
  quoteRequestSchema,
  quoteSchema,
  redeemLicenseRequestSchema,
  redeemLicenseResponseSchema,
  removeCardResponseSchema,
  sandboxTokenRequestSchema,
  subscribeRequestSchema,
  subscriptionListSchema,
  subscriptionResultSchema,
  subscriptionSchema,
} from './schemas';
import { endpoint, endpointGroups, endpointIn } from '../endpoint';

/** Billing: cards, subscriptions, checkout, orders and invoices, the business trial, licenses. */
const tag = 'billing';
const { anyone, signedIn } = endpointGroups(tag);
/** Cards, subscriptions and orders are named by UUIDs: anything else is refused before it reaches the database. */
const idParams = z.object({ id: z.uuid() });

export const config = endpointIn(anyone, 'GET /billing/config', 'Which payment processor the pages hand card details to (sandbox or Stripe, with its publishable key)', {
  response: billingConfigSchema,
});

export const sandboxToken = endpoint({
  method: 'POST',
  path: '/billing/sandbox/tokens',
  tag: 'payments-sandbox',
  // Optional: a signed-in page's session counts the tokenizations per account too.
  auth: 'optional',
  summary: 'The built-in sandbox processor: turn card details into a token (keeps only brand, last four digits and expiry)',
  body: sandboxTokenRequestSchema,
  status: 201,
  response: cardTokenSchema,
  errors: [
    'billing.card_invalid_number',
    'billing.card_incomplete_number',
    'billing.card_incomplete_cvc',
    'billing.card_incomplete_expiry',
    'billing.card_invalid_expiry_year',
    'billing.card_expiry_year_past',
    'billing.card_brand_not_accepted',
    'not_found',
    'rate_limited',
  ],
});

export const stripeWebhook = endpointIn(anyone, 'POST /billing/stripe/webhook', "Stripe's events, checked by their signature (Stripe-Signature); a forged or replayed event is refused", {
  response: z.object({ received: z.boolean() }), errors: ['billing.webhook_invalid', 'not_found'],
});

export const listCards = endpointIn(signedIn, 'GET /sso/me/cards', 'The payment cards of the user, the default first', { response: cardListSchema });

export const addCard = endpointIn(signedIn, 'POST /sso/me/cards', "Save a card from the processor's token with its billing address; the first card becomes the default", {
  body: addCardRequestSchema, status: 201, response: cardSchema,
  errors: ['billing.card_declined', 'billing.insufficient_funds', 'billing.card_token_invalid', 'billing.processor_unavailable'],
});

export const cardSetup = endpointIn(signedIn, 'POST /sso/me/cards/setup', "With Stripe: a SetupIntent for the page's Payment Element to confirm the card with (its client secret); 404 with the sandbox", {
  status: 201, response: cardSetupSchema, errors: ['billing.processor_unavailable', 'not_found'],
});

export const setDefaultCard = endpointIn(signedIn, 'PUT /sso/me/cards/{id}/default', 'Make a card the default', {
  params: idParams, response: cardListSchema, errors: ['billing.card_not_found'],
});

export const removeCard = endpointIn(signedIn, 'DELETE /sso/me/cards/{id}', 'Remove a card: every live subscription of the person is cancelled with it (AppSumo lifetime grants, paid by no card, stay) and the answer lists them; removing the default makes the most recently added card the default', {
  params: idParams, response: removeCardResponseSchema, errors: ['billing.card_not_found'],
});

export const listSubscriptions = endpointIn(signedIn, 'GET /sso/me/subscriptions', 'The subscriptions of the user', { response: subscriptionListSchema });

export const quote = endpointIn(signedIn, 'POST /sso/me/checkout/quote', 'The totals of a purchase or change before paying (price, discount, subtotal, credit, total, due now)', {
  body: quoteRequestSchema, response: quoteSchema,
  errors: ['billing.promo_invalid', 'billing.plan_unavailable', 'billing.subscription_not_found'],
});

const chargeErrors = [
  'billing.card_declined',
  'billing.insufficient_funds',
  'billing.no_card',
  'billing.card_not_found',
  'billing.promo_invalid',
  'billing.plan_unavailable',
  'billing.idempotency_conflict',
  'billing.processor_unavailable',
] as const;

export const subscribe = endpointIn(signedIn, 'POST /sso/me/subscriptions', 'Start a subscription: a 14-day trial where the plan has one and the person never had one for the product, otherwise the first charge', {
  body: subscribeRequestSchema, status: 201, response: subscriptionResultSchema, errors: [...chargeErrors, 'billing.already_subscribed'],
});

/** A change to one of the person's subscriptions, by its id: refused when it is not theirs or cannot change now. */
const subscriptionChange = { ...signedIn, params: idParams, errors: ['billing.subscription_not_found', 'billing.subscription_not_changeable'] } as const;

export const changeSubscription = endpointIn(subscriptionChange, 'POST /sso/me/subscriptions/{id}/change', 'Change the plan or period: the unused part of the current period is credited (proration) and the new period starts now', {
  body: changeSubscriptionRequestSchema, response: subscriptionResultSchema, errors: chargeErrors,
});

export const cancelSubscription = endpointIn(subscriptionChange, 'POST /sso/me/subscriptions/{id}/cancel', 'Cancel at the end of the current period (a trial ends without a charge)', {
  response: subscriptionSchema,
});

export const resumeSubscription = endpointIn(subscriptionChange, 'POST /sso/me/subscriptions/{id}/resume', 'Undo a cancellation before the period ends', { response: subscriptionSchema });

export const listOrders = endpointIn(signedIn, 'GET /sso/me/orders', 'The orders of the user, newest first', { response: orderListSchema });

export const invoice = endpointIn(signedIn, 'GET /sso/me/orders/{id}/invoice', "The invoice of a paid order as a PDF, in the person's language", {
  params: idParams, response: 'binary', errors: ['billing.order_not_found'],
});

// Signed in: a trial makes its admin the owner of a company billed after 14 days, so nobody starts one for someone else's email.
export const businessTrial = endpointIn(signedIn, 'POST /billing/business-trial', "Start the signed-in person's company's 14-day trial of the password manager for business, for their own email, behind the captcha (7013 trial already applied, 7014 a plan exists, 7015 in an Enterprise)", {
  body: businessTrialRequestSchema, status: 201, response: businessTrialResponseSchema,
  errors: ['7013', '7014', '7015', 'billing.trial_email_mismatch', 'auth.not_activated', 'auth.captcha_required', 'auth.captcha_invalid', 'rate_limited'],
});

export const redeemLicense = endpointIn(signedIn, 'POST /sso/me/licenses/redeem', 'Redeem an AppSumo license code: grants its lifetime plan once', {
  body: redeemLicenseRequestSchema, response: redeemLicenseResponseSchema, errors: ['billing.license_invalid'],
});
