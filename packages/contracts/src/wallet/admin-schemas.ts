import { z } from 'zod';
import { adminReasonSchema } from '../operators/roles';
import { walletCurrencySchema } from './schemas';

/** The wallet as operators see it: the payout queue and a ledger account's entries. */

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

/** A researcher's approved rewards of one currency, not paid yet: what the 10th's run (or an operator's approval) pays. */
export const adminPayoutQueueItemSchema = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  currency: walletCurrencySchema,
  amount_minor: z.string(),
  rewards: z.number().int(),
  /** Rewards an operator held: the monthly run skips them until approved. */
  held: z.number().int(),
  /** The researcher's chosen payout currency; null: their rewards wait. */
  payout_method: walletCurrencySchema.nullable(),
  oldest_at: z.string(),
});
export const adminPayoutQueueSchema = z.object({ queue: z.array(adminPayoutQueueItemSchema) });

export const adminPayoutParamsSchema = z.object({ user_id: uuid, currency: walletCurrencySchema });
export const adminPayoutActionSchema = z.object({ reason: adminReasonSchema });

export const adminPayoutMadeSchema = z.object({ payout_id: z.string(), transaction_id: z.string(), amount_minor: z.string(), rewards: z.number().int() });

export const adminLedgerAccountsQuerySchema = z.object({
  /** A person's email or id, or `system` for the system's accounts. */
  owner: z.string().trim().min(1).max(254),
});
export const adminLedgerAccountSchema = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  system_name: z.string().nullable(),
  currency: walletCurrencySchema,
  balance_minor: z.string(),
});
export const adminLedgerAccountListSchema = z.object({ accounts: z.array(adminLedgerAccountSchema) });

export const adminLedgerAccountParamsSchema = z.object({ id: uuid });
export const adminLedgerEntriesQuerySchema = z.object({
  /** The `next_cursor` of the previous page (newest first). */
  cursor: z.string().regex(/^\d{1,18}$/).optional(),
});
export const adminLedgerEntrySchema = z.object({
  posting_id: z.string(),
  transaction_id: z.string(),
  kind: z.string(),
  status: z.string(),
  note: z.string().nullable(),
  amount_minor: z.string(),
  balance_after_minor: z.string(),
  created_at: z.string(),
});
export const adminLedgerEntriesSchema = z.object({ account: adminLedgerAccountSchema, entries: z.array(adminLedgerEntrySchema), next_cursor: z.string().nullable() });
