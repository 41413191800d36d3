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
import { endpointIn, operatorGroup } from '../endpoint';

/** The wallet in the operators' console: finance and owners move money; support may read the ledger. */
const read = operatorGroup('admin:wallet', ['owner', 'finance', 'support']);
const money = operatorGroup('admin:wallet', ['owner', 'finance']);
const moneySensitive = { ...money, recentAuth: true } as const;

export const payoutQueue = endpointIn(money, 'GET /admin/wallet/payouts', 'The payout queue: per researcher and currency, the approved rewards not paid yet (and how many are held)', {
  response: adminPayoutQueueSchema,
});

export const approvePayout = endpointIn(moneySensitive, 'POST /admin/wallet/payouts/{user_id}/{currency}/approve', "Pays the researcher's approved rewards of this currency now (held ones included), as the 10th's run would: one ledger entry, claimed atomically, so two approvals at once pay once", {
  params: adminPayoutParamsSchema, body: adminPayoutActionSchema, response: adminPayoutMadeSchema,
  errors: ['admin.payout_nothing_due', 'admin.payout_method_missing'],
});

export const holdPayout = endpointIn(money, 'POST /admin/wallet/payouts/{user_id}/{currency}/hold', "Holds the researcher's approved rewards of this currency: the monthly run skips them until an operator approves the payout", {
  params: adminPayoutParamsSchema, body: adminPayoutActionSchema, response: adminPayoutQueueItemSchema,
  errors: ['admin.payout_nothing_due'],
});

export const ledgerAccounts = endpointIn(read, 'GET /admin/wallet/accounts', "A person's ledger accounts (by email or id), or the system's (`system`)", {
  query: adminLedgerAccountsQuerySchema, response: adminLedgerAccountListSchema, errors: ['admin.account_not_found'],
});

export const ledgerEntries = endpointIn(read, 'GET /admin/wallet/accounts/{id}/entries', "A ledger account's postings, newest first, 50 a page, each with its transaction and the balance after it", {
  params: adminLedgerAccountParamsSchema, query: adminLedgerEntriesQuerySchema, response: adminLedgerEntriesSchema,
  errors: ['admin.not_found'],
});
