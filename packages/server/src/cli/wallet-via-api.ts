/**
 * `npm run wallet` through a running server's admin API (PORTAL_URL + OPERATOR_API_KEY, see
 * admin-api.ts): `balance` and `payouts` read the ledger and the payout queue, `payouts hold`
 * holds a researcher's rewards out of the monthly run (with `--reason`, in the operator audit
 * log). The API has no endpoint that adjusts a balance or signs a withdrawal again, and pays a
 * payout only after a recent proof of identity, which a key cannot give: those refuse.
 */
import { parseArgs } from 'node:util';
import { adminWalletEndpoints, walletCurrencySchema, type WalletCurrency } from '@portal/contracts';
import { callAdmin, notInAdminApi, type AdminApi } from './admin-api';
import { UsageError, type ToolIo } from './run-tool';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface LedgerAccount {
  id: string;
  system_name: string | null;
  currency: string;
  balance_minor: string;
}

interface QueueItem {
  user_id: string;
  email: string | null;
  currency: string;
  amount_minor: string;
  rewards: number;
  held: number;
  payout_method: string | null;
}

/** One line an account: currency, balance in minor units, the system account's name, its id (for the console's entries). */
export function printAccounts(io: ToolIo, owner: string, accounts: LedgerAccount[]): void {
  if (!accounts.length) io.out(`${owner} has no ledger account yet`);
  for (const account of accounts) io.out([account.currency, account.balance_minor, ...(account.system_name ? [account.system_name] : []), account.id].join('\t'));
}

/** One line a researcher and currency of the payout queue. */
export function printQueueItem(io: ToolIo, item: QueueItem): void {
  io.out([item.user_id, item.email ?? '', item.currency, item.amount_minor, `${item.rewards} reward(s)`, item.held ? `${item.held} held` : 'not held', item.payout_method ? `paid in ${item.payout_method}` : 'no payout method'].join('\t'));
}

/** `payouts hold <user id> <currency>`'s arguments, checked as the API checks them (the same in both modes). */
export function holdTarget(positionals: string[]): { userId: string; currency: WalletCurrency } {
  const [userId, currency] = positionals;
  const parsed = walletCurrencySchema.safeParse(currency?.toUpperCase());
  if (positionals.length !== 2 || !UUID.test(userId ?? '') || !parsed.success) throw new UsageError('payouts hold takes <user id> <USD|VND|WHC>');
  return { userId: userId!.toLowerCase(), currency: parsed.data };
}

export async function walletViaApi(io: ToolIo, api: AdminApi, command: string, rest: string[]): Promise<number> {
  if (command !== 'balance' && command !== 'payouts') notInAdminApi(`npm run wallet -- ${command}`);
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { reason: { type: 'string' } } });
  if (command === 'balance') {
    if (positionals.length !== 1) throw new UsageError('balance takes <email|user id|system>');
    const { accounts } = await callAdmin(api, adminWalletEndpoints.ledgerAccounts, { query: { owner: positionals[0] } });
    printAccounts(io, positionals[0]!, accounts);
    return 0;
  }
  if (command === 'payouts' && positionals[0] === 'hold') {
    const { userId, currency } = holdTarget(positionals.slice(1));
    const held = await callAdmin(api, adminWalletEndpoints.holdPayout, {
      params: { user_id: userId, currency },
      body: { reason: values.reason ?? 'command line: npm run wallet -- payouts hold' },
    });
    printQueueItem(io, held);
    return 0;
  }
  if (command === 'payouts' && positionals[0] === 'approve') {
    throw new Error("paying a payout needs an operator's recent proof of identity, which a key cannot give: approve it on the console's Wallet page");
  }
  if (command === 'payouts') {
    if (positionals.length) throw new UsageError('payouts takes no arguments (or: hold <user id> <currency>)');
    const { queue } = await callAdmin(api, adminWalletEndpoints.payoutQueue);
    if (!queue.length) io.out('no payout waits');
    for (const item of queue) printQueueItem(io, item);
    return 0;
  }
  throw new UsageError(`unknown command: ${command}`);
}
