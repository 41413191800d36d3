import { no, deleteRow, clear, type PersonalColumns } from './handling';
import { invoice } from './retention';

// What is bought, in a subscription and in an order (billing's purchaseColumns): a product's plan, months, seats and price.
const purchase = { product: no, plan: no, months: no, seats: no, currency: no, price: no };

/** Billing: customers, cards, subscriptions, orders (invoices), promo codes, licenses, idempotency keys, the sandbox processor. */
export const billingColumns: PersonalColumns = {
  // The processor's customer of the account: it names the person at the processor.
  billing_customers: { user_id: deleteRow, processor: no, customer_ref: deleteRow, created_at: no },
  payment_methods: {
    id: no,
    user_id: deleteRow,
    processor: no,
    processor_ref: deleteRow,
    brand: deleteRow,
    last4: deleteRow,
    exp_month: deleteRow,
    exp_year: deleteRow,
    cardholder: deleteRow,
    city: deleteRow,
    state: deleteRow,
    zip: deleteRow,
    country: deleteRow,
    is_default: no,
    created_at: no,
    removed_at: no,
  },
  // Live subscriptions are canceled (nothing is charged for a deleted account); none holds personal data.
  subscriptions: {
    id: no,
    user_id: no,
    organization_id: no,
    ...purchase,
    status: no,
    payment_method_id: no,
    trial_ends_at: no,
    current_period_start: no,
    current_period_end: no,
    cancel_at_period_end: no,
    canceled_at: no,
    lifetime: no,
    retry_count: no,
    next_attempt_at: no,
    claimed_until: no,
    claim_id: no,
    created_at: no,
    updated_at: no,
  },
  // `email:<address>` for a business admin's trial; a user id otherwise.
  trial_usages: { person: deleteRow, product: no, created_at: no },
  // Who is starting a subscription of a product right now (a lease): ids only.
  subscription_starts: { user_id: no, product: no, generation: no, claimed_until: no },
  // The invoice: number, date and amounts stay (user_id points at the emptied account row).
  orders: {
    id: no,
    number: no,
    user_id: no,
    subscription_id: no,
    ...purchase,
    discount: no,
    subtotal: no,
    credit: no,
    total: no,
    status: no,
    kind: no,
    promo_code: no,
    payment_method_id: no,
    payment_method_label: clear,
    billing_address: invoice,
    idempotency_key: no,
    processor_ref: no,
    failure_code: no,
    language: no,
    period_start: no,
    period_end: no,
    paid_at: no,
    refunded_at: no,
    refund_ref: no,
    created_at: no,
  },
  billing_receipts: { order_id: no, status: no, attempts: no, next_attempt_at: no, claimed_until: no, claim_id: no, last_error: no, sent_at: no, created_at: no },
  promo_codes: { code: no, kind: no, basis_points: no, amount: no, currency: no, plans: no, expires_at: no, max_redemptions: no, redemptions: no, created_at: no },
  promo_redemptions: { code: no, user_id: no, order_id: no, created_at: no },
  license_redemptions: { code_hash: no, plan: no, user_id: no, subscription_id: no, created_at: no, revoked_at: no },
  // Scoped `<action>:<user id>`; a stored answer may carry the billing address.
  idempotency_keys: { scope: deleteRow, key: no, request_hash: no, state: no, response: deleteRow, locked_until: no, created_at: no },
  sandbox_cards: { token: no, brand: no, last4: no, exp_month: no, exp_year: no, behavior: no, created_at: no },
  sandbox_charges: { id: no, idempotency_key: no, token: no, amount: no, currency: no, status: no, decline_code: no, created_at: no },
  stripe_events: { id: no, type: no, created_at: no },
};
