import { z } from 'zod';
import { pageQueryFields, timestampFields } from '../fields';
import { currencies } from '../format';

/**
 * The wallet: balances in USD, VND and WHC on a double-entry ledger (the spec's product description, state rules and constants).
 * Amounts travel as integer minor units (USD cents, VND dong, WHC 10^-8) in strings, so WHC's
 * eight decimals never pass through a float.
 */
export const walletCurrencySchema = z.enum(currencies);
export type WalletCurrency = z.infer<typeof walletCurrencySchema>;

/** Integer minor units as a string (`"1250"` is $12.50). */
export const minorUnitsSchema = z.string().regex(/^-?\d{1,18}$/);

export const walletBalanceSchema = z.object({ currency: walletCurrencySchema, minor: minorUnitsSchema });
export const walletBalancesSchema = z.object({ balances: z.array(walletBalanceSchema) });

/** The spec's transaction statuses; `unpaid` is shown as canceled. */
export const walletTransactionStatuses = ['paid', 'completed', 'unpaid', 'failed', 'pending', 'rejected'] as const;
export const walletTransactionStatusSchema = z.enum(walletTransactionStatuses);
export type WalletTransactionStatus = z.infer<typeof walletTransactionStatusSchema>;

/** One movement of the user's balance, with the spec's fields (balance after, amount, destination, time, in/out, status, note). */
export const walletTransactionSchema = z.object({
  id: z.string(),
  currency: walletCurrencySchema,
  direction: z.enum(['in', 'out']),
  amount: minorUnitsSchema,
  balance: minorUnitsSchema,
  destination: z.string().nullable(),
  status: walletTransactionStatusSchema,
  note: z.string().nullable(),
  created_at: z.string(),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const walletTransactionListSchema = z.object({
  items: z.array(walletTransactionSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const walletTransactionQuerySchema = z.object({
  ...pageQueryFields,
  direction: z.enum(['in', 'out']).optional(),
  status: walletTransactionStatusSchema.optional(),
});

/** A transfer to another account of this portal, named by its email or username. */
export const walletTransferRequestSchema = z.object({
  to: z.string().trim().min(1).max(254),
  /** Major units as people write them (`"12.5"`), at most the currency's decimals. */
  amount: z.string().trim().regex(/^\d{1,12}(\.\d{1,8})?$/),
  note: z.string().trim().max(200).optional(),
  /** Chosen by the client once per transfer: a retried request is applied once. */
  idempotency_key: z.string().min(8).max(100),
  /** WHC only (the spec's permissions): a current second-step code, or one of the recovery codes. */
  code: z.string().trim().max(20).optional(),
  recovery_code: z.string().trim().max(20).optional(),
});

/**
 * A transfer to a partner exchange wallet (the spec's constants), named by the recipient's email, phone
 * or username there: pending until the partner confirms it (completed) or refuses it (rejected,
 * the amount returned). The same rules as a transfer to an account here: limits, the key, WHC's code.
 */
export const partnerTransferRequestSchema = walletTransferRequestSchema;

export const partnerTransferStatuses = ['pending', 'completed', 'rejected'] as const;
export const partnerTransferStatusSchema = z.enum(partnerTransferStatuses);
export type PartnerTransferStatus = z.infer<typeof partnerTransferStatusSchema>;

export const partnerTransferSchema = z.object({
  id: z.string(),
  /** The ledger entry (its transaction in the currency's list). */
  entry_id: z.string(),
  currency: walletCurrencySchema,
  recipient: z.string(),
  amount: minorUnitsSchema,
  status: partnerTransferStatusSchema,
  ...timestampFields,
});
export type PartnerTransfer = z.infer<typeof partnerTransferSchema>;

/** The recent partner transfers, newest first; `enabled` is false when this server has no partner configured. */
export const partnerTransferListSchema = z.object({ enabled: z.boolean(), items: z.array(partnerTransferSchema) });

/**
 * The partner's callback on a transfer (POST /v3/wallet/partner-notifications, signed:
 * `x-partner-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`).
 */
export const partnerNotificationSchema = z.object({
  /** Our id of the transfer (sent to the partner with it). */
  transfer_id: z.uuid(),
  status: z.enum(['completed', 'rejected']),
  /** The partner's own id of the transfer. */
  partner_reference: z.string().regex(/^[\x21-\x7e]{1,100}$/).optional(),
  /** Why the partner refused it (an unknown recipient...), shown to the sender. */
  reason: z.string().max(200).optional(),
});
export type PartnerNotification = z.infer<typeof partnerNotificationSchema>;

/** `applied` is false when the transfer had its outcome already (a replay, or a late contradicting callback). */
export const partnerNotificationResultSchema = z.object({ applied: z.boolean(), status: partnerTransferStatusSchema });

/** A WHC withdrawal to a BEP20 address: sent on chain, pending until confirmed (completed) or reverted (failed, refunded). */
export const chainWithdrawalStatuses = ['pending', 'completed', 'failed'] as const;
export const chainWithdrawalStatusSchema = z.enum(chainWithdrawalStatuses);
export type ChainWithdrawalStatus = z.infer<typeof chainWithdrawalStatusSchema>;

export const chainWithdrawalRequestSchema = z.object({
  /** The BEP20 address, with its EIP-55 checksum (mixed case) or all lower-case. */
  address: z.string().trim().max(100),
  /** WHC as people write them (`"12.5"`), at most 8 decimals. */
  amount: z.string().trim().regex(/^\d{1,12}(\.\d{1,8})?$/),
  /** Chosen by the client once per withdrawal: a retried request is applied once. */
  idempotency_key: z.string().min(8).max(100),
  /** A current second-step code, or one of the recovery codes: asked for every withdrawal. */
  code: z.string().trim().max(20).optional(),
  recovery_code: z.string().trim().max(20).optional(),
  /** The account's password: needed for the first withdrawal to an address. */
  password: z.string().max(1000).optional(),
});

export const chainWithdrawalSchema = z.object({
  id: z.string(),
  /** The ledger entry (its transaction in the WHC list). */
  entry_id: z.string(),
  currency: z.literal('WHC'),
  address: z.string(),
  amount: minorUnitsSchema,
  status: chainWithdrawalStatusSchema,
  tx_hash: z.string().nullable(),
  ...timestampFields,
});
export type ChainWithdrawal = z.infer<typeof chainWithdrawalSchema>;

export const chainWithdrawalListSchema = z.object({ enabled: z.boolean(), items: z.array(chainWithdrawalSchema) });

/** Deposit orders (VND by bank transfer): waiting for the money, credited, or past their time. */
export const depositOrderStatuses = ['pending', 'paid', 'expired'] as const;
export const depositOrderStatusSchema = z.enum(depositOrderStatuses);
export type DepositOrderStatus = z.infer<typeof depositOrderStatusSchema>;

/** A VND deposit: whole dong as people write them (`"500000"`). */
export const depositRequestSchema = z.object({
  amount: z.string().trim().regex(/^\d{1,12}$/),
});

/** The account a deposit is transferred to. */
export const depositBankSchema = z.object({ bin: z.string(), account_number: z.string(), account_name: z.string() });

/** A deposit order as listed: its reference (the transfer's content), amount, status and times. */
export const depositOrderSchema = z.object({
  id: z.string(),
  currency: z.literal('VND'),
  reference: z.string(),
  amount: minorUnitsSchema,
  status: depositOrderStatusSchema,
  created_at: z.string(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
});
export type DepositOrder = z.infer<typeof depositOrderSchema>;

/** A new order with what to transfer: the VietQR payload (EMVCo), its QR image (a PNG data: URL) and the bank account. */
export const depositOrderCreatedSchema = depositOrderSchema.extend({
  qr_payload: z.string(),
  qr_image: z.string(),
  bank: depositBankSchema,
});
export type DepositOrderCreated = z.infer<typeof depositOrderCreatedSchema>;

/** The person's recent orders, newest first; `enabled` is false when this server takes no bank deposits. */
export const depositOrderListSchema = z.object({ enabled: z.boolean(), items: z.array(depositOrderSchema) });

/**
 * The bank's notification of an incoming transfer (POST /v3/wallet/bank-notifications, signed:
 * `x-bank-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`).
 */
export const bankNotificationSchema = z.object({
  /** The bank's id of the transaction: a notification is applied once per id. */
  transaction_id: z.string().regex(/^[\x21-\x7e]{1,100}$/),
  /** Whole dong received. */
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The transfer's content as the sender typed it (holds the order's reference). */
  description: z.string().max(1000),
  /** The receiving account. */
  account_number: z.string().max(40),
  occurred_at: z.iso.datetime({ offset: true }),
});
export type BankNotification = z.infer<typeof bankNotificationSchema>;

export const bankNotificationResultSchema = z.object({ matched: z.boolean(), duplicate: z.boolean().optional() });
