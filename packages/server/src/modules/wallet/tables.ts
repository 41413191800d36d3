import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, money, updatedAt } from '../../db/columns';
import { users } from '../users/tables';

// The wallet: the double-entry ledger, deposits and withdrawals, and researchers' rewards and
// payouts (payouts.ts, paid on the 10th).

/** A person's balance in one currency, or one of the system's (where money enters and leaves). */
export const walletAccounts = pgTable('wallet_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
  systemName: text('system_name'),
  currency: text('currency').notNull(),
  balance: money('balance').notNull().default(0),
  createdAt: createdAt(),
});

/** One movement of money; its postings sum to zero per currency (a trigger checks at commit). */
export const walletEntries = pgTable('wallet_entries', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  initiatedBy: uuid('initiated_by'),
  idempotencyKey: text('idempotency_key'),
  requestDigest: text('request_digest'),
  destination: text('destination'),
  note: text('note'),
  createdAt: createdAt(),
});

/** The lines of an entry: append-only, each with the account's balance after it. */
export const walletPostings = pgTable('wallet_postings', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  entryId: uuid('entry_id').notNull(),
  accountId: uuid('account_id').notNull(),
  currency: text('currency').notNull(),
  amount: money('amount').notNull(),
  balanceAfter: money('balance_after').notNull(),
  createdAt: createdAt(),
});

/** What a person sent per currency and day, for the daily limit. */
export const walletDailyUsage = pgTable('wallet_daily_usage', {
  userId: uuid('user_id').notNull(),
  currency: text('currency').notNull(),
  day: text('day').notNull(),
  sent: money('sent').notNull().default(0),
});

/** A VND deposit by bank transfer: paid once, when the bank's notification matches its reference and amount. */
export const walletDepositOrders = pgTable('wallet_deposit_orders', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  currency: text('currency').notNull().default('VND'),
  amountMinor: money('amount_minor').notNull(),
  reference: text('reference').notNull(),
  status: text('status').notNull().default('pending'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  bankTransactionId: text('bank_transaction_id'),
  entryId: uuid('entry_id'),
});

/** A WHC withdrawal to a BEP20 address: pending until its token transfer is confirmed (completed) or reverted (failed, refunded). */
export const walletChainWithdrawals = pgTable('wallet_chain_withdrawals', {
  id: uuid('id').primaryKey().defaultRandom(),
  entryId: uuid('entry_id').notNull(),
  userId: uuid('user_id').notNull(),
  address: text('address').notNull(),
  amountMinor: money('amount_minor').notNull(),
  txHash: text('tx_hash'),
  rawTx: text('raw_tx'),
  signer: text('signer'),
  nonce: bigint('nonce', { mode: 'number' }),
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  refundEntryId: uuid('refund_entry_id'),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  /** Hashes of earlier signings of the same nonce (a resend with a higher gas price). */
  replacedTxHashes: text('replaced_tx_hashes').array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A transfer to a partner exchange wallet: pending until the partner's signed callback says completed, or rejected (refunded). */
export const walletPartnerTransfers = pgTable('wallet_partner_transfers', {
  id: uuid('id').primaryKey().defaultRandom(),
  entryId: uuid('entry_id').notNull(),
  userId: uuid('user_id').notNull(),
  currency: text('currency').notNull(),
  recipient: text('recipient').notNull(),
  amountMinor: money('amount_minor').notNull(),
  note: text('note'),
  status: text('status').notNull().default('pending'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  partnerReference: text('partner_reference'),
  reason: text('reason'),
  refundEntryId: uuid('refund_entry_id'),
  allowanceDay: text('allowance_day').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The BEP20 addresses a person has sent WHC to: a first transfer to another needs the password too. */
export const walletKnownAddresses = pgTable(
  'wallet_known_addresses',
  {
    userId: uuid('user_id').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.address] })],
);

/** A person's WHC deposit address: the child `address_index` of WHC_DEPOSIT_XPUB (one per person, indexes never reused). */
export const walletWhcDepositAddresses = pgTable(
  'wallet_whc_deposit_addresses',
  {
    userId: uuid('user_id').primaryKey(),
    addressIndex: integer('address_index').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('wallet_whc_deposit_addresses_index_key').on(table.addressIndex), uniqueIndex('wallet_whc_deposit_addresses_address_key').on(table.address)],
);

/** A chain follower's place: the next block to scan and the head seen at the last scan. */
export const walletChainCursors = pgTable('wallet_chain_cursors', {
  name: text('name').primaryKey(),
  nextBlock: bigint('next_block', { mode: 'number' }).notNull(),
  headBlock: bigint('head_block', { mode: 'number' }),
  updatedAt: updatedAt(),
});

/** An incoming WHC token transfer to a deposit address: pending, completed (credited once) or ignored. */
export const walletWhcDeposits = pgTable(
  'wallet_whc_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    userId: uuid('user_id').notNull(),
    address: text('address').notNull(),
    fromAddress: text('from_address').notNull(),
    amountToken: numeric('amount_token', { precision: 78, scale: 0 }).notNull(),
    amountMinor: money('amount_minor').notNull(),
    status: text('status').notNull().default('pending'),
    entryId: uuid('entry_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('wallet_whc_deposits_log_key').on(table.txHash, table.logIndex), index('wallet_whc_deposits_user').on(table.userId, table.createdAt)],
);

/** A reward a product posted for a researcher: approved until paid (in a payout) or canceled by the product. */
export const walletRewards = pgTable('wallet_rewards', {
  id: uuid('id').primaryKey().defaultRandom(),
  clientId: text('client_id').notNull(),
  externalId: text('external_id').notNull(),
  requestDigest: text('request_digest').notNull(),
  userId: uuid('user_id').notNull(),
  programAlias: text('program_alias').notNull(),
  currency: text('currency').notNull(),
  amountMinor: money('amount_minor').notNull(),
  status: text('status').notNull().default('approved'),
  payoutId: uuid('payout_id'),
  createdAt: createdAt(),
  canceledAt: timestamp('canceled_at', { withTimezone: true }),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  /** Held by an operator: the monthly run skips it until an operator approves the payout. */
  heldAt: timestamp('held_at', { withTimezone: true }),
});

/** One payout: a researcher's approved rewards of one currency, paid by one ledger entry (their monthly statement line). */
export const walletPayouts = pgTable('wallet_payouts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  period: text('period').notNull(),
  currency: text('currency').notNull(),
  amountMinor: money('amount_minor').notNull(),
  rewardCount: integer('reward_count').notNull(),
  entryId: uuid('entry_id').notNull(),
  createdAt: createdAt(),
});

/** A researcher's payout method (a wallet currency; null: rewards wait) and public profile switch. */
export const researcherSettings = pgTable('researcher_settings', {
  userId: uuid('user_id').primaryKey(),
  payoutCurrency: text('payout_currency'),
  profilePublic: boolean('profile_public').notNull().default(false),
  updatedAt: updatedAt(),
});
