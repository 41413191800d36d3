import { and, desc, eq, inArray, isNull, ne, or, sql, lt } from 'drizzle-orm';
import { claimDueRows } from '../../db/claim-due';
import type { Database } from '../../db/client';
import { billingCustomers, licenseRedemptions, orders, paymentMethods, promoCodes, promoRedemptions, stripeEvents, subscriptionStarts, subscriptions, trialUsages } from './tables';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type PromoCodeRow = typeof promoCodes.$inferSelect;

/** A transaction of the app's database. */
export type BillingTx = Parameters<Parameters<Database['transaction']>[0]>[0];

const live = ne(subscriptions.status, 'canceled');

/** The first row a query answers (lookups by key answer one or none). */
const first = async <Row>(query: PromiseLike<Row[]>): Promise<Row | undefined> => (await query)[0];

export function billingQueries(db: Database) {
  /** Runs `work` in the caller's transaction when there is one (a Stripe event's), else in its own. */
  const inTransaction = <T>(outer: BillingTx | undefined, work: (tx: BillingTx) => Promise<T>): Promise<T> => (outer ? work(outer) : db.transaction(work));
  return {
    // Customers -------------------------------------------------------------------------------
    async customerRef(userId: string, processor: string): Promise<string | null> {
      const [row] = await db.select().from(billingCustomers).where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.processor, processor)));
      return row?.customerRef ?? null;
    },
    async saveCustomerRef(userId: string, processor: string, customerRef: string): Promise<void> {
      await db.insert(billingCustomers).values({ userId, processor, customerRef }).onConflictDoNothing();
    },

    // Cards -----------------------------------------------------------------------------------
    async cards(userId: string): Promise<PaymentMethodRow[]> {
      return db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)))
        .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt), desc(paymentMethods.id));
    },
    async card(userId: string, id: string): Promise<PaymentMethodRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)));
      return row;
    },
    cardById: (id: string): Promise<PaymentMethodRow | undefined> => first(db.select().from(paymentMethods).where(eq(paymentMethods.id, id))),
    /** Adds a card; it becomes the default when asked or when the user has no default (one statement decides). */
    async addCard(row: typeof paymentMethods.$inferInsert, makeDefault: boolean): Promise<PaymentMethodRow> {
      return db.transaction(async (tx) => {
        // The user's cards row-locked, so two cards added at once cannot both become the default.
        await tx.execute(sql`select id from ${paymentMethods} where ${paymentMethods.userId} = ${row.userId} for update`);
        const [current] = await tx
          .select({ id: paymentMethods.id })
          .from(paymentMethods)
          .where(and(eq(paymentMethods.userId, row.userId), eq(paymentMethods.isDefault, true), isNull(paymentMethods.removedAt)));
        const isDefault = makeDefault || !current;
        if (isDefault && current) await tx.update(paymentMethods).set({ isDefault: false }).where(eq(paymentMethods.id, current.id));
        const [inserted] = await tx
          .insert(paymentMethods)
          .values({ ...row, isDefault })
          .returning();
        return inserted!;
      });
    },
    async setDefault(userId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const target = await tx
          .select({ id: paymentMethods.id })
          .from(paymentMethods)
          .where(and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)))
          .for('update');
        if (target.length === 0) return false;
        await tx.update(paymentMethods).set({ isDefault: false }).where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.isDefault, true)));
        await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, id));
        return true;
      });
    },
    /**
     * Removes a card of the person in one transaction: every live subscription of theirs is
     * cancelled (the spec's state rules: removing a card cancels all subscriptions), and when it was the
     * default the most recently added remaining card becomes the default. Answers the cancelled
     * subscriptions (oldest first) and the new default; null when the person has no such card.
     */
    async removeCard(userId: string, id: string, now: Date, outer?: BillingTx): Promise<{ removed: PaymentMethodRow; canceled: SubscriptionRow[]; newDefault: string | null } | null> {
      return inTransaction(outer, async (tx) => {
        const [card] = await tx
          .select()
          .from(paymentMethods)
          .where(and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)))
          .for('update');
        if (!card) return null;
        await tx.update(paymentMethods).set({ removedAt: now, isDefault: false }).where(eq(paymentMethods.id, id));
        let newDefault: string | null = null;
        if (card.isDefault) {
          const [next] = await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(and(eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)))
            .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
            .limit(1);
          if (next) {
            await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, next.id));
            newDefault = next.id;
          }
        } else {
          const [current] = await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.isDefault, true), isNull(paymentMethods.removedAt)));
          newDefault = current?.id ?? null;
        }
        // All of the person's subscriptions, whichever card pays them; only theirs (their user id,
        // never an organization's member's). An AppSumo lifetime grant is paid by no card: it stays.
        const canceled = await tx
          .update(subscriptions)
          .set({ status: 'canceled', canceledAt: now, nextAttemptAt: null, cancelAtPeriodEnd: false, updatedAt: now })
          .where(and(eq(subscriptions.userId, userId), live, eq(subscriptions.lifetime, false)))
          .returning();
        canceled.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
        return { removed: card, canceled, newDefault };
      });
    },
    async liveSubscriptionCounts(userId: string): Promise<Map<string | null, number>> {
      const rows = await db
        .select({ card: subscriptions.paymentMethodId, count: sql<number>`count(*)::int` })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), live, eq(subscriptions.lifetime, false)))
        .groupBy(subscriptions.paymentMethodId);
      return new Map(rows.map((row) => [row.card, Number(row.count)]));
    },

    // Subscriptions ---------------------------------------------------------------------------
    async subscriptions(userId: string): Promise<SubscriptionRow[]> {
      return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt));
    },
    subscription: (userId: string, id: string): Promise<SubscriptionRow | undefined> => first(db.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)))),
    subscriptionById: (id: string): Promise<SubscriptionRow | undefined> => first(db.select().from(subscriptions).where(eq(subscriptions.id, id))),
    liveSubscription: (userId: string, product: string): Promise<SubscriptionRow | undefined> => first(db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), eq(subscriptions.product, product), live))),
    async insertSubscription(row: typeof subscriptions.$inferInsert): Promise<SubscriptionRow | null> {
      const rows = await db.insert(subscriptions).values(row).onConflictDoNothing().returning();
      return rows[0] ?? null;
    },
    /** Updates a subscription when it is still in one of `states` (and, for the job, still its claim). */
    async updateSubscription(id: string, changes: Partial<typeof subscriptions.$inferInsert>, where: { states?: string[]; claimId?: string } = {}): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .update(subscriptions)
        .set(changes)
        .where(and(eq(subscriptions.id, id), where.states ? inArray(subscriptions.status, where.states) : undefined, where.claimId ? eq(subscriptions.claimId, where.claimId) : undefined))
        .returning();
      return row;
    },
    /** Records a trial for a person and product; false when they already had one. */
    async useTrial(person: string, product: string): Promise<boolean> {
      const rows = await db.insert(trialUsages).values({ person, product }).onConflictDoNothing().returning({ person: trialUsages.person });
      return rows.length > 0;
    },
    async hadTrial(person: string, product: string): Promise<boolean> {
      const rows = await db.select({ person: trialUsages.person }).from(trialUsages).where(and(eq(trialUsages.person, person), eq(trialUsages.product, product)));
      return rows.length > 0;
    },

    /**
     * Claims the person's start of a product until `until`, in one statement: the row is made,
     * or taken over when its lease lapsed (its holder died). Answers the start's generation, or
     * null while another start of the same person and product runs.
     */
    async claimStart(userId: string, product: string, now: Date, until: Date): Promise<number | null> {
      const rows = await db
        .insert(subscriptionStarts)
        .values({ userId, product, claimedUntil: until })
        .onConflictDoUpdate({
          target: [subscriptionStarts.userId, subscriptionStarts.product],
          set: { claimedUntil: until },
          setWhere: or(isNull(subscriptionStarts.claimedUntil), lt(subscriptionStarts.claimedUntil, now)),
        })
        .returning({ generation: subscriptionStarts.generation });
      return rows[0]?.generation ?? null;
    },
    /**
     * Ends a claimed start. `finished`: it answered (a subscription, a decline, a refusal), so the
     * next start charges under a new generation; otherwise (an unexpected failure, the charge's
     * fate unknown) the next start reuses this generation's charge key.
     */
    async releaseStart(userId: string, product: string, generation: number, finished: boolean): Promise<void> {
      await db
        .update(subscriptionStarts)
        .set({ claimedUntil: null, generation: finished ? generation + 1 : generation })
        .where(and(eq(subscriptionStarts.userId, userId), eq(subscriptionStarts.product, product), eq(subscriptionStarts.generation, generation)));
    },

    /** The renewal job's claim: up to `limit` due subscriptions nobody holds (see claimDueRows). A lifetime plan never renews. */
    claimDue(now: Date, until: Date, claimId: string, limit: number): Promise<SubscriptionRow[]> {
      return claimDueRows(db, subscriptions, subscriptions.id, { now, until, claimId, limit, where: and(live, eq(subscriptions.lifetime, false)) });
    },

    // Orders ----------------------------------------------------------------------------------
    /** Inserts the order unless its idempotency key exists; answers the order of that key either way. */
    async orderForKey(row: typeof orders.$inferInsert): Promise<OrderRow> {
      // The new row in one statement; only a retried key (the conflict) reads the first one.
      const [inserted] = await db.insert(orders).values(row).onConflictDoNothing({ target: orders.idempotencyKey }).returning();
      if (inserted) return inserted;
      const [found] = await db.select().from(orders).where(eq(orders.idempotencyKey, row.idempotencyKey));
      return found!;
    },
    async updateOrder(id: string, changes: Partial<typeof orders.$inferInsert>, fromStates?: string[]): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(orders)
        .set(changes)
        .where(and(eq(orders.id, id), fromStates ? inArray(orders.status, fromStates) : undefined))
        .returning();
      return row;
    },
    async orders(userId: string): Promise<OrderRow[]> {
      return db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id));
    },
    order: (userId: string, id: string): Promise<OrderRow | undefined> => first(db.select().from(orders).where(and(eq(orders.id, id), eq(orders.userId, userId)))),
    orderById: (id: string): Promise<OrderRow | undefined> => first(db.select().from(orders).where(eq(orders.id, id))),
    /**
     * Moves a pending order on (paid, completed, failed) in one transaction with what must go
     * with it (`within`: the ledger entry, the receipt to send), so neither is lost to a crash
     * between them. Undefined when the order was no longer pending (someone else settled it).
     */
    async settleOrder(id: string, changes: Partial<typeof orders.$inferInsert>, within: (tx: BillingTx, row: OrderRow) => Promise<void>, outer?: BillingTx): Promise<OrderRow | undefined> {
      return inTransaction(outer, async (tx) => {
        const [row] = await tx
          .update(orders)
          .set(changes)
          .where(and(eq(orders.id, id), eq(orders.status, 'pending')))
          .returning();
        if (row) await within(tx, row);
        return row;
      });
    },
    /** Marks a paid order refunded once (with `within`: the ledger's reverse entry); undefined when it already was. */
    async markRefunded(id: string, refundRef: string | null, now: Date, within: (tx: BillingTx, row: OrderRow) => Promise<void>, outer?: BillingTx): Promise<OrderRow | undefined> {
      return inTransaction(outer, async (tx) => {
        const [row] = await tx
          .update(orders)
          .set({ refundedAt: now, refundRef })
          .where(and(eq(orders.id, id), eq(orders.status, 'paid'), isNull(orders.refundedAt)))
          .returning();
        if (row) await within(tx, row);
        return row;
      });
    },
    async orderByProcessorRef(ref: string, outer?: BillingTx): Promise<OrderRow | undefined> {
      const [row] = await (outer ?? db).select().from(orders).where(eq(orders.processorRef, ref));
      return row;
    },
    /** What was paid for the subscription's current period (for proration). */
    async paidForPeriod(subscriptionId: string, periodStart: Date): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.subscriptionId, subscriptionId), eq(orders.periodStart, periodStart), inArray(orders.status, ['paid', 'completed'])))
        .orderBy(desc(orders.createdAt))
        .limit(1);
      return row;
    },

    // Promo codes -----------------------------------------------------------------------------
    promo: (code: string): Promise<PromoCodeRow | undefined> => first(db.select().from(promoCodes).where(eq(promoCodes.code, code))),
    async upsertPromo(row: typeof promoCodes.$inferInsert): Promise<void> {
      await db.insert(promoCodes).values(row).onConflictDoNothing();
    },
    /** Counts a redemption in one statement: refused past the limit or a second time by the same person. */
    async redeemPromo(code: string, userId: string, orderId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const counted = await tx
          .update(promoCodes)
          .set({ redemptions: sql`${promoCodes.redemptions} + 1` })
          .where(and(eq(promoCodes.code, code), or(isNull(promoCodes.maxRedemptions), lt(promoCodes.redemptions, promoCodes.maxRedemptions))))
          .returning({ code: promoCodes.code });
        if (counted.length === 0) return false;
        const inserted = await tx.insert(promoRedemptions).values({ code, userId, orderId }).onConflictDoNothing().returning({ code: promoRedemptions.code });
        if (inserted.length === 0) throw new PromoAlreadyRedeemed();
        return true;
      }).catch((error: unknown) => {
        if (error instanceof PromoAlreadyRedeemed) return false;
        throw error;
      });
    },
    /** Gives a redemption back (the charge it was for did not go through). */
    async releasePromo(code: string, userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(promoRedemptions)
          .where(and(eq(promoRedemptions.code, code), eq(promoRedemptions.userId, userId)))
          .returning({ code: promoRedemptions.code });
        if (removed.length) await tx.update(promoCodes).set({ redemptions: sql`greatest(${promoCodes.redemptions} - 1, 0)` }).where(eq(promoCodes.code, code));
      });
    },
    async promoRedeemedBy(code: string, userId: string): Promise<boolean> {
      const rows = await db.select({ code: promoRedemptions.code }).from(promoRedemptions).where(and(eq(promoRedemptions.code, code), eq(promoRedemptions.userId, userId)));
      return rows.length > 0;
    },

    /**
     * Records a Stripe event and applies its effect in one transaction: false when it was seen
     * before (a replay; a second delivery at once waits for the first's commit). An effect that
     * fails rolls the record back with it, so Stripe's retry applies it later.
     */
    async applyEventOnce(id: string, type: string, effect: (tx: BillingTx) => Promise<void>): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing().returning({ id: stripeEvents.id });
        if (rows.length === 0) return false;
        await effect(tx);
        return true;
      });
    },
    async cardByProcessorRef(ref: string, outer?: BillingTx): Promise<PaymentMethodRow | undefined> {
      const [row] = await (outer ?? db).select().from(paymentMethods).where(and(eq(paymentMethods.processorRef, ref), isNull(paymentMethods.removedAt)));
      return row;
    },

    // Licenses --------------------------------------------------------------------------------
    async claimLicense(codeHash: string, plan: string, userId: string): Promise<boolean> {
      const rows = await db.insert(licenseRedemptions).values({ codeHash, plan, userId }).onConflictDoNothing().returning({ codeHash: licenseRedemptions.codeHash });
      return rows.length > 0;
    },
    async setLicenseSubscription(codeHash: string, subscriptionId: string): Promise<void> {
      await db.update(licenseRedemptions).set({ subscriptionId }).where(eq(licenseRedemptions.codeHash, codeHash));
    },
  };
}

class PromoAlreadyRedeemed extends Error {}

export type BillingQueries = ReturnType<typeof billingQueries>;
