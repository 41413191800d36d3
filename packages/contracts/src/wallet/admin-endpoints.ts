import {
  adminLedgerAccountListSchema,
  adminLedgerAccountParamsSchema,
  adminLedgerAccountsQuerySchema,
  adminLedgerEntriesQuerySchema,
  adminLedgerEntriesSchema,
  adminPayoutActionSchema,
  adminPayoutMadeSchema,
  adminPayoutParamsSchema,
  adminPayoutQueueItemSchema,
  adminPayoutQueueSchema,
} from './admin-schemas';
import { endpoint } from '../endpoint';

/** The wallet in the operators' console: finance and owners move money; support may read the ledger. */
const tag = 'admin';
const read = { operator: ['owner', 'finance', 'support'], adminScope: 'admin:wallet' } as const;
const money = { operator: ['owner', 'finance'], adminScope: 'admin:wallet' } as const;

export const payoutQueue = endpoint({
  method: 'GET',
  path: '/admin/wallet/payouts',
  tag,
  auth: money,
  summary: 'The payout queue: per researcher and currency, the approved rewards not paid yet (and how many are held)',
  response: adminPayoutQueueSchema,
});

export const approvePayout = endpoint({
  method: 'POST',
  path: '/admin/wallet/payouts/{user_id}/{currency}/approve',
  tag,
  auth: money,
  recentAuth: true,
  summary:
    "Pays the researcher's approved rewards of this currency now (held ones included), as the 10th's run would: one ledger entry, claimed atomically, so two approvals at once pay once",
  params: adminPayoutParamsSchema,
  body: adminPayoutActionSchema,
  response: adminPayoutMadeSchema,
  errors: ['admin.payout_nothing_due', 'admin.payout_method_missing'],
});

export const holdPayout = endpoint({
  method: 'POST',
  path: '/admin/wallet/payouts/{user_id}/{currency}/hold',
  tag,
  auth: money,
  summary: "Holds the researcher's approved rewards of this currency: the monthly run skips them until an operator approves the payout",
  params: adminPayoutParamsSchema,
  body: adminPayoutActionSchema,
  response: adminPayoutQueueItemSchema,
  errors: ['admin.payout_nothing_due'],
});

export const ledgerAccounts = endpoint({
  method: 'GET',
  path: '/admin/wallet/accounts',
  tag,
  auth: read,
  summary: "A person's ledger accounts (by email or id), or the system's (`system`)",
  query: adminLedgerAccountsQuerySchema,
  response: adminLedgerAccountListSchema,
  errors: ['admin.account_not_found'],
});

export const ledgerEntries = endpoint({
  method: 'GET',
  path: '/admin/wallet/accounts/{id}/entries',
  tag,
  auth: read,
  summary: "A ledger account's postings, newest first, 50 a page, each with its transaction and the balance after it",
  params: adminLedgerAccountParamsSchema,
  query: adminLedgerEntriesQuerySchema,
  response: adminLedgerEntriesSchema,
  errors: ['admin.not_found'],
});
