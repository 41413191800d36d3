import Stripe from 'stripe';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { acceptedBrand, type ChargeResult, type DeclineCode, type PaymentProcessor, type SaveCardResult } from './processor';

export interface StripeSettings {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string | null;
  /** Another API address (a local server in tests); Stripe's own by default. */
  apiUrl?: string;
}

/** The events the portal reads (register these on the webhook endpoint). */
export const STRIPE_WEBHOOK_EVENTS = ['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_method.detached', 'charge.refunded'] as const;
/** Seconds a signed event stays acceptable (Stripe's own default). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

export type StripeEvent = { id: string; type: string; created: number; data: { object: Record<string, unknown> } };

function declineOf(error: unknown): DeclineCode | null {
  if (error instanceof Stripe.errors.StripeCardError) return error.decline_code === 'insufficient_funds' || error.code === 'insufficient_funds' ? 'insufficient_funds' : 'card_declined';
  return null;
}

/** Stripe's own failures (network, 5xx, auth, rate limit) become "processor unavailable"; declines are answers. */
function unavailable(error: unknown): never {
  if (error instanceof Stripe.errors.StripeError) throw new AppError('billing.processor_unavailable', {}, { processor: 'stripe', type: error.type });
  throw error;
}

/**
 * The Stripe adapter: customers, payment methods attached to them (the page's Payment Element
 * makes the pm_ token), payment intents confirmed off-session with idempotency keys, and
 * webhooks checked by signature. Stripe counts USD in cents and VND in dong (a zero-decimal
 * currency), as our minor units do.
 */
export function createStripeProcessor(settings: StripeSettings, clock: Clock): PaymentProcessor & { verifyWebhook(raw: Buffer, signature: string | undefined): StripeEvent | null } {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });

  const customerFor = async (userId: string, email: string) => (await stripe.customers.create({ email, metadata: { user_id: userId } }, { idempotencyKey: `customer-${userId}` })).id;

  return {
    kind: 'stripe',
    publishableKey: settings.publishableKey,

    async setupCard({ userId, email, customerRef }) {
      try {
        const customer = customerRef ?? (await customerFor(userId, email));
        const intent = await stripe.setupIntents.create({ customer, usage: 'off_session', allowed_payment_method_types: ['card'], metadata: { user_id: userId } });
        if (!intent.client_secret) throw new AppError('billing.processor_unavailable', {}, { processor: 'stripe', type: 'no_client_secret' });
        return { clientSecret: intent.client_secret, customerRef: customer };
      } catch (error) {
        if (error instanceof AppError) throw error;
        return unavailable(error);
      }
    },

    async saveCard({ userId, email, token, customerRef }): Promise<SaveCardResult> {
      try {
        const customer = customerRef ?? (await customerFor(userId, email));
        // A card confirmed through a SetupIntent is already the customer's; any other is attached now.
        const existing = token.startsWith('pm_') ? await stripe.paymentMethods.retrieve(token) : null;
        const owner = typeof existing?.customer === 'string' ? existing.customer : (existing?.customer?.id ?? null);
        if (owner && owner !== customer) return { ok: false, code: 'token_invalid' };
        const method = owner === customer && existing ? existing : await stripe.paymentMethods.attach(token, { customer });
        const brand = acceptedBrand(method.card?.brand);
        if (!method.card || !brand) {
          await stripe.paymentMethods.detach(method.id).catch(() => undefined);
          return { ok: false, code: 'card_declined' };
        }
        return { ok: true, ref: method.id, customerRef: customer, card: { brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year } };
      } catch (error) {
        const decline = declineOf(error);
        if (decline) return { ok: false, code: decline };
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return { ok: false, code: 'token_invalid' };
        return unavailable(error);
      }
    },

    async removeCard(cardRef) {
      try {
        await stripe.paymentMethods.detach(cardRef);
      } catch (error) {
        // Already detached (or never attached): nothing to remove.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        unavailable(error);
      }
    },

    async charge(request): Promise<ChargeResult> {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency.toLowerCase(),
            ...(request.customerRef ? { customer: request.customerRef } : {}),
            payment_method: request.cardRef,
            off_session: true,
            confirm: true,
            description: request.description,
            metadata: request.metadata ?? {},
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (intent.status === 'succeeded') return { status: 'succeeded', ref: intent.id };
        if (intent.status === 'processing') return { status: 'pending', ref: intent.id };
        return { status: 'declined', ref: intent.id, code: 'card_declined' };
      } catch (error) {
        const decline = declineOf(error);
        if (decline) {
          const intent = (error as { payment_intent?: { id?: string } }).payment_intent;
          return { status: 'declined', ref: intent?.id ?? null, code: decline };
        }
        return unavailable(error);
      }
    },

    async refund({ chargeRef, idempotencyKey }) {
      try {
        const refund = await stripe.refunds.create({ payment_intent: chargeRef }, { idempotencyKey });
        return { ref: refund.id };
      } catch (error) {
        return unavailable(error);
      }
    },

    /** The event when the signature is Stripe's (with our secret) and recent; null otherwise. */
    verifyWebhook(raw, signature) {
      if (!settings.webhookSecret || !signature) return null;
      try {
        // In milliseconds: the age is checked against our clock.
        const receivedAt = clock.now().getTime();
        return stripe.webhooks.constructEvent(raw, signature, settings.webhookSecret, STRIPE_WEBHOOK_TOLERANCE_SECONDS, undefined, receivedAt) as unknown as StripeEvent;
      } catch {
        return null;
      }
    },
  };
}

export type StripeProcessor = ReturnType<typeof createStripeProcessor>;
