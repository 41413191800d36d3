import { randomBytes } from 'node:crypto';
import { billingEndpoints, type CardBrand, type ErrorCode } from '@portal/contracts';
import cardValidator from 'card-validator';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client';
import { sandboxCards, sandboxCharges } from './tables';
import type { Clock } from '../clock';
import { AppError, fieldError } from '../errors';
import { limitAddress } from '../client-address';
import { route } from '../http/route';
import { limits, rateKey, rateLimited, type RateLimiter } from '../rate-limit';
import { acceptedBrand, type PaymentProcessor } from './processor';

/**
 * The built-in sandbox processor: a tokenization endpoint that keeps only brand, last four
 * digits and expiry (with the test behaviour of the number), and charges recorded one per
 * idempotency key as Stripe's payment intents are. Test numbers are Stripe's published ones:
 * 4000 0000 0000 0002 is declined when saved; 4000 0000 0000 9995 saves but its charges fail
 * for insufficient funds; 4000 0000 0000 0341 saves but its charges are declined; any other
 * valid number of an accepted brand (4242 4242 4242 4242, 5555 5555 5555 4444, ...) succeeds.
 */
export const SANDBOX_TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  chargeDeclined: '4000000000000341',
} as const;

type Behavior = 'success' | 'decline_on_save' | 'insufficient_funds' | 'decline_on_charge';

const behaviors: Record<string, Behavior> = {
  [SANDBOX_TEST_CARDS.declined]: 'decline_on_save',
  [SANDBOX_TEST_CARDS.insufficientFunds]: 'insufficient_funds',
  [SANDBOX_TEST_CARDS.chargeDeclined]: 'decline_on_charge',
};

/** Checks card details as the payment page does, with the spec's messages (as field errors). */
export function checkCardDetails(input: { number: string; exp_month: number; exp_year: number; cvc: string }, now: Date): { brand: CardBrand; number: string } {
  const number = input.number.replace(/[\s-]/g, '');
  const checked = cardValidator.number(number);
  const fail = (field: string, code: ErrorCode) => fieldError(field, code);
  if (!/^\d*$/.test(number) || !checked.isPotentiallyValid) throw fail('number', 'billing.card_invalid_number');
  // A number of a complete length that fails the Luhn check is invalid, a shorter one incomplete (Stripe's wording).
  if (!checked.isValid || !checked.card) throw fail('number', checked.card?.lengths.includes(number.length) ? 'billing.card_invalid_number' : 'billing.card_incomplete_number');
  const brand = acceptedBrand(checked.card.type);
  if (!brand) throw fail('number', 'billing.card_brand_not_accepted');
  if (!cardValidator.cvv(input.cvc, checked.card.code.size).isValid) throw fail('cvc', 'billing.card_incomplete_cvc');
  if (!Number.isInteger(input.exp_month) || input.exp_month < 1 || input.exp_month > 12) throw fail('expiry', 'billing.card_incomplete_expiry');
  const year = now.getUTCFullYear();
  if (!Number.isInteger(input.exp_year) || input.exp_year < 1000 || input.exp_year > year + 19) throw fail('expiry', 'billing.card_invalid_expiry_year');
  if (input.exp_year < year || (input.exp_year === year && input.exp_month < now.getUTCMonth() + 1)) throw fail('expiry', 'billing.card_expiry_year_past');
  return { brand, number };
}

export function createSandboxProcessor(db: Database, clock: Clock): PaymentProcessor & { tokenize: (input: { number: string; exp_month: number; exp_year: number; cvc: string }) => Promise<{ token: string; brand: CardBrand; last4: string; exp_month: number; exp_year: number }> } {
  return {
    kind: 'sandbox',
    publishableKey: null,

    async tokenize(input) {
      const { brand, number } = checkCardDetails(input, clock.now());
      const token = `tok_sandbox_${randomBytes(12).toString('hex')}`;
      const row = { token, brand, last4: number.slice(-4), expMonth: input.exp_month, expYear: input.exp_year, behavior: behaviors[number] ?? 'success' };
      await db.insert(sandboxCards).values(row);
      return { token, brand, last4: row.last4, exp_month: row.expMonth, exp_year: row.expYear };
    },

    async saveCard({ token }) {
      const [card] = await db.select().from(sandboxCards).where(eq(sandboxCards.token, token));
      if (!card) return { ok: false, code: 'token_invalid' };
      if (card.behavior === 'decline_on_save') return { ok: false, code: 'card_declined' };
      return { ok: true, ref: card.token, customerRef: null, card: { brand: card.brand as CardBrand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } };
    },

    async removeCard() {},

    async charge(request) {
      const [card] = await db.select().from(sandboxCards).where(eq(sandboxCards.token, request.cardRef));
      const outcome =
        !card || card.behavior === 'decline_on_charge' || card.behavior === 'decline_on_save'
          ? { status: 'declined', declineCode: 'card_declined' }
          : card.behavior === 'insufficient_funds'
            ? { status: 'declined', declineCode: 'insufficient_funds' }
            : { status: 'succeeded', declineCode: null };
      // One charge per idempotency key, whoever asks and however often.
      const [made] = await db
        .insert(sandboxCharges)
        .values({ id: `ch_sandbox_${randomBytes(12).toString('hex')}`, idempotencyKey: request.idempotencyKey, token: request.cardRef, amount: request.amount, currency: request.currency, ...outcome })
        .onConflictDoNothing()
        .returning();
      const [charge] = made ? [made] : await db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, request.idempotencyKey));
      if (!charge) throw new AppError('billing.processor_unavailable');
      if (charge.status === 'succeeded') return { status: 'succeeded', ref: charge.id };
      return { status: 'declined', ref: charge.id, code: charge.declineCode === 'insufficient_funds' ? 'insufficient_funds' : 'card_declined' };
    },

    /** A succeeded charge becomes refunded (once; asking again answers the same refund). */
    async refund({ chargeRef }) {
      const [charge] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.id, chargeRef));
      if (!charge || (charge.status !== 'succeeded' && charge.status !== 'refunded')) throw new AppError('billing.processor_unavailable');
      await db.update(sandboxCharges).set({ status: 'refunded' }).where(and(eq(sandboxCharges.id, chargeRef), eq(sandboxCharges.status, 'succeeded')));
      return { ref: `re_${charge.id}` };
    },
  };
}

export type SandboxProcessor = ReturnType<typeof createSandboxProcessor>;

/**
 * POST /v3/billing/sandbox/tokens: only while the sandbox is the processor (404 with Stripe).
 * Every try counts (valid or not) per address and, when signed in, per account: each is one
 * atomic increment, so parallel requests cannot run more than the limit.
 */
export function sandboxRoutes(sandbox: SandboxProcessor | null, limiter: RateLimiter): FastifyPluginAsync {
  return async (app) => {
    route(app, billingEndpoints.sandboxToken, async (request) => {
      if (!sandbox) throw new AppError('not_found');
      const { cardTokensPerIp: perIp, cardTokensPerAccount: perAccount } = limits;
      rateLimited(await limiter.consume(rateKey(perIp, limitAddress(request.ip)), perIp));
      if (request.auth) rateLimited(await limiter.consume(rateKey(perAccount, request.auth.user.id), perAccount));
      return sandbox.tokenize(request.body);
    });
  };
}
