import type { BillingCurrency, CardBrand } from '@portal/contracts';

/** What a processor tells of a card: never its number. */
export interface CardDetails {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type DeclineCode = 'card_declined' | 'insufficient_funds';

export type SaveCardResult = { ok: true; ref: string; card: CardDetails; customerRef: string | null } | { ok: false; code: DeclineCode | 'token_invalid' };

export type ChargeResult =
  | { status: 'succeeded'; ref: string }
  | { status: 'pending'; ref: string }
  | { status: 'declined'; ref: string | null; code: DeclineCode };

export interface ChargeRequest {
  /** The processor's customer (Stripe's cus_...), null for the sandbox. */
  customerRef: string | null;
  /** The saved card (Stripe's pm_..., the sandbox's token). */
  cardRef: string;
  /** Integer minor units, as the processor counts them (USD cents, VND dong). */
  amount: number;
  currency: BillingCurrency;
  /** The same key always answers the first attempt's result: a retry never charges twice. */
  idempotencyKey: string;
  description: string;
  metadata?: Record<string, string>;
}

/**
 * A payment processor: Stripe in production, the built-in sandbox by default. Billing talks
 * only to this; card numbers reach the processor (its tokenization) and never billing.
 * An unreachable processor throws AppError('billing.processor_unavailable').
 */
export interface PaymentProcessor {
  readonly kind: 'sandbox' | 'stripe';
  /** Stripe's publishable key, for the page's Payment Element. */
  readonly publishableKey: string | null;
  /** Keeps a tokenized card for the customer (making the customer when `customerRef` is null), checking it can be charged. */
  saveCard(input: { userId: string; email: string; token: string; customerRef: string | null }): Promise<SaveCardResult>;
  removeCard(cardRef: string): Promise<void>;
  /**
   * Stripe only: a SetupIntent for the customer (made when `customerRef` is null) that the
   * page's Payment Element confirms; its payment method then comes back to `saveCard`.
   */
  setupCard?(input: { userId: string; email: string; customerRef: string | null }): Promise<{ clientSecret: string; customerRef: string }>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Gives a succeeded charge back in full, once per idempotency key (a retry answers the first
   * refund). Answers the refund's reference; throws AppError('billing.processor_unavailable') when unreachable.
   */
  refund(request: { chargeRef: string; idempotencyKey: string }): Promise<{ ref: string }>;
}

/** Card brands the portal accepts (the spec's constants), by card-validator's / Stripe's names. */
const brandNames: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  jcb: 'jcb',
  'american-express': 'american-express',
  amex: 'american-express',
  discover: 'discover',
  'diners-club': 'diners-club',
  diners: 'diners-club',
};

export function acceptedBrand(name: string | undefined | null): CardBrand | null {
  return (name && brandNames[name]) || null;
}
