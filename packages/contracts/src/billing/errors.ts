import { cardMessages } from './schemas';

/**
 * Billing's errors: the business plans' numeric codes of the spec's error catalogue, the card
 * form's messages in the product spec's words (invalid or incomplete number, security code and
 * expiry) and the generic decline, 'Promo code not valid' and the AppSumo license text, and
 * billing's own refusals.
 */
export const billingErrors = {
  '7013': { status: 400, message: 'The trial plan was applied for {email}' },
  '7014': {
    status: 400,
    message: 'A Locker account for this email exists. Cancel the current plan or use another email to register the business plan',
  },
  '7015': { status: 400, message: '{email} is in an Enterprise, leave it or use another email' },
  'billing.card_invalid_number': { status: 400, message: cardMessages.invalidNumber },
  'billing.card_incomplete_number': { status: 400, message: cardMessages.incompleteNumber },
  'billing.card_incomplete_cvc': { status: 400, message: cardMessages.incompleteCvc },
  'billing.card_incomplete_expiry': { status: 400, message: cardMessages.incompleteExpiry },
  'billing.card_invalid_expiry_year': { status: 400, message: cardMessages.invalidExpiryYear },
  'billing.card_expiry_year_past': { status: 400, message: cardMessages.expiryYearPast },
  'billing.card_declined': { status: 402, message: cardMessages.declined },
  'billing.insufficient_funds': { status: 402, message: 'Your card has insufficient funds.' },
  'billing.card_brand_not_accepted': { status: 400, message: 'This card brand is not accepted' },
  'billing.card_token_invalid': { status: 400, message: 'The card could not be saved, enter it again' },
  'billing.card_not_found': { status: 404, message: 'Card not found' },
  'billing.no_card': { status: 400, message: 'Add a payment card first' },
  'billing.promo_invalid': { status: 400, message: 'Promo code not valid' },
  'billing.license_invalid': { status: 400, message: 'The license is either not valid or has expired' },
  'billing.plan_unavailable': { status: 400, message: 'This plan is not available for this period' },
  'billing.already_subscribed': { status: 409, message: 'You already have a subscription to this product' },
  'billing.subscription_not_found': { status: 404, message: 'Subscription not found' },
  'billing.subscription_not_changeable': { status: 409, message: 'This subscription cannot be changed now' },
  'billing.order_not_found': { status: 404, message: 'Order not found' },
  'billing.idempotency_conflict': { status: 409, message: 'This request is already being processed or its key was used for another request' },
  'billing.processor_unavailable': { status: 503, message: 'The payment processor is not available, try again later' },
  'billing.webhook_invalid': { status: 400, message: 'Invalid webhook' },
  'billing.trial_email_mismatch': { status: 403, message: 'Start the business trial with the email of the account you are signed in with' },
} as const;
