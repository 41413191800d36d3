import type { Database } from '../../db/client';
import type { Clock } from '../clock';
import type { PaymentProcessor } from './processor';
import { createSandboxProcessor, type SandboxProcessor } from './sandbox';
import { createStripeProcessor, type StripeProcessor } from './stripe';

export type { CardDetails, ChargeRequest, ChargeResult, DeclineCode, PaymentProcessor, SaveCardResult } from './processor';
export { acceptedBrand } from './processor';
export { checkCardDetails, createSandboxProcessor, SANDBOX_TEST_CARDS, sandboxRoutes, type SandboxProcessor } from './sandbox';
export { createStripeProcessor, STRIPE_WEBHOOK_EVENTS, STRIPE_WEBHOOK_TOLERANCE_SECONDS, type StripeEvent, type StripeProcessor } from './stripe';

export interface ProcessorSettings {
  PAYMENTS_PROCESSOR: 'sandbox' | 'stripe';
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_URL?: string;
}

/** The configured processor: Stripe when PAYMENTS_PROCESSOR=stripe, the built-in sandbox otherwise. */
export function createPaymentProcessor(settings: ProcessorSettings, db: Database, clock: Clock): { processor: PaymentProcessor; sandbox: SandboxProcessor | null; stripe: StripeProcessor | null } {
  if (settings.PAYMENTS_PROCESSOR === 'stripe' && settings.STRIPE_SECRET_KEY) {
    const stripe = createStripeProcessor(
      {
        secretKey: settings.STRIPE_SECRET_KEY,
        publishableKey: settings.STRIPE_PUBLISHABLE_KEY ?? null,
        webhookSecret: settings.STRIPE_WEBHOOK_SECRET ?? null,
        apiUrl: settings.STRIPE_API_URL,
      },
      clock,
    );
    return { processor: stripe, sandbox: null, stripe };
  }
  const sandbox = createSandboxProcessor(db, clock);
  return { processor: sandbox, sandbox, stripe: null };
}
