import { walletEntries } from './tables';
import { post, type Tx } from './ledger';

/** Money paid by card to billing comes in through this system account (the card networks' side)… */
export const BILLING_CARDS_ACCOUNT = 'billing_card_payments';
/** …and lands here: billing's revenue. A refund moves it back. */
export const BILLING_REVENUE_ACCOUNT = 'billing_revenue';
/** Entries billing posts are initiated by billing itself (not a person), so each key is unique once. */
const BILLING_INITIATOR = '00000000-0000-4000-8000-00000000b111';

export interface BillingEntry {
  /** charge: a paid order (card → revenue); refund: its reverse (revenue → card). */
  kind: 'charge' | 'refund';
  orderId: string;
  orderNumber: string;
  currency: 'USD' | 'VND';
  /** The order's total, in the currency's minor units (positive). */
  amount: number;
}

/**
 * Posts billing's side of a paid or refunded order on the ledger, inside the caller's
 * transaction (the one that moves the order), at most once per order and kind: the entry's
 * idempotency key is the order's, so a retried payment or a replayed webhook finds the first
 * entry and posts nothing. Answers whether this call posted it.
 */
export async function postBillingEntry(tx: Tx, entry: BillingEntry): Promise<boolean> {
  if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0) return false;
  const [created] = await tx
    .insert(walletEntries)
    .values({
      kind: entry.kind === 'charge' ? 'billing_charge' : 'billing_refund',
      currency: entry.currency,
      status: 'completed',
      initiatedBy: BILLING_INITIATOR,
      idempotencyKey: `billing:${entry.kind}:${entry.orderId}`,
      destination: null,
      note: `${entry.kind === 'charge' ? 'Order' : 'Refund of order'} ${entry.orderNumber}`,
    })
    .onConflictDoNothing()
    .returning({ id: walletEntries.id });
  if (!created) return false;
  const sign = entry.kind === 'charge' ? 1 : -1;
  await post(tx, created.id, entry.currency, [
    { account: { system: BILLING_CARDS_ACCOUNT }, amount: -sign * entry.amount },
    { account: { system: BILLING_REVENUE_ACCOUNT }, amount: sign * entry.amount },
  ]);
  return true;
}
