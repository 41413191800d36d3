import { randomUUID } from 'node:crypto';
import type { Card, Subscription } from '@portal/contracts';
import { AppError, fieldError } from '../../platform/errors';
import { cardDto, subscriptionDto } from './dto';
import { declineError, type BillingContext } from './shared';

/** Cards: saved through the processor's tokens, the default card, and removal (which cancels the person's subscriptions). */
export function createCards(ctx: BillingContext) {
  const { clock, log, processor, q, users, mailCanceled, userOrThrow } = ctx;

  async function listCards(userId: string): Promise<Card[]> {
    const [cards, counts] = await Promise.all([q.cards(userId), q.liveSubscriptionCounts(userId)]);
    // Subscriptions without a card of their own are paid by the default card.
    return cards.map((card) => cardDto(card, (counts.get(card.id) ?? 0) + (card.isDefault ? (counts.get(null) ?? 0) : 0)));
  }

  return {
    listCards,

    async addCard(userId: string, input: { token: string; cardholder: string; city: string; state: string; zip: string; country?: string; make_default?: boolean }): Promise<Card> {
      const user = await userOrThrow(userId);
      const customerRef = await q.customerRef(user.id, processor.kind);
      const saved = await processor.saveCard({ userId: user.id, email: user.email, token: input.token, customerRef });
      if (!saved.ok) {
        if (saved.code === 'token_invalid') throw fieldError('token', 'billing.card_token_invalid');
        throw declineError(saved.code);
      }
      if (saved.customerRef && !customerRef) await q.saveCustomerRef(user.id, processor.kind, saved.customerRef);
      const row = await q.addCard(
        {
          id: randomUUID(),
          userId: user.id,
          processor: processor.kind,
          processorRef: saved.ref,
          brand: saved.card.brand,
          last4: saved.card.last4,
          expMonth: saved.card.expMonth,
          expYear: saved.card.expYear,
          cardholder: input.cardholder,
          city: input.city,
          state: input.state,
          zip: input.zip,
          country: input.country ?? null,
          createdAt: clock.now(),
        },
        input.make_default ?? false,
      );
      return cardDto(row);
    },

    /** With Stripe: a SetupIntent's client secret for the page's Payment Element (the customer made once); not_found with the sandbox. */
    async cardSetup(userId: string): Promise<{ client_secret: string }> {
      if (!processor.setupCard) throw new AppError('not_found');
      const user = await userOrThrow(userId);
      const customerRef = await q.customerRef(user.id, processor.kind);
      const setup = await processor.setupCard({ userId: user.id, email: user.email, customerRef });
      if (!customerRef) await q.saveCustomerRef(user.id, processor.kind, setup.customerRef);
      return { client_secret: setup.clientSecret };
    },

    async setDefaultCard(userId: string, id: string): Promise<Card[]> {
      if (!(await q.setDefault(userId, id))) throw new AppError('billing.card_not_found');
      return listCards(userId);
    },

    /**
     * Removes one of the person's cards, and with it (one transaction) cancels all of their live
     * subscriptions (spec), each mailed; when it was the default the most recent card becomes the
     * default. Another person's card id is not found, and changes nothing.
     */
    async removeCard(userId: string, id: string): Promise<{ canceled_subscriptions: Subscription[]; default_card_id: string | null }> {
      const removed = await q.removeCard(userId, id, clock.now());
      if (!removed) throw new AppError('billing.card_not_found');
      await processor.removeCard(removed.removed.processorRef).catch((error: unknown) => log.error({ err: error }, 'card not removed at the processor'));
      const user = await users.findById(userId);
      for (const subscription of removed.canceled) mailCanceled(subscription, user);
      return { canceled_subscriptions: removed.canceled.map(subscriptionDto), default_card_id: removed.newDefault };
    },
  };
}
