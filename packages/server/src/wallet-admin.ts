/**
 * Operator commands of the wallet, against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "Bank transfer 2026-11-20"
 *       money in (or out, with a leading -) from the system's adjustments account, as one ledger entry
 *   npm run wallet -- resend <withdrawal id> [--gas-price-gwei 5]
 *       a WHC withdrawal stuck unmined (too low a gas price): signed again with the same nonce and a
 *       higher gas price (at least 12.5 % more), stored, then broadcast; whichever signing the chain
 *       mines is the one the follower settles (one nonce: never two transfers)
 *   npm run wallet -- balance <email|user id|system>
 *       the person's (or the system's) ledger accounts: currency, balance in minor units, account id
 *   npm run wallet -- payouts
 *       the payout queue: per researcher and currency, the approved rewards not paid yet
 *   npm run wallet -- payouts hold <user id> <USD|VND|WHC> [--reason "..."]
 *       holds them out of the monthly run until an operator approves the payout (on the console)
 *
 * With PORTAL_URL and OPERATOR_API_KEY (cli/admin-api.ts) balance, payouts and payouts hold go
 * through the running server's admin API (key scope admin:wallet); adjust and resend have no
 * endpoint there and refuse.
 */
import { parseArgs } from 'node:util';
import { adminApiFrom } from './cli/admin-api';
import { runTool, UsageError } from './cli/run-tool';
import { holdTarget, printAccounts, printQueueItem, walletViaApi } from './cli/wallet-via-api';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { createChainWithdrawalService, walletAdmin, walletConsole } from './modules/wallet';
import { systemClock } from './platform/clock';
import { AppError } from './platform/errors';

const USAGE =
  'usage: npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "..." | resend <withdrawal id> [--gas-price-gwei N] | balance <email|user id|system> | payouts [hold <user id> <currency> [--reason "..."]] (see packages/server/src/wallet-admin.ts)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'balance' || command === 'payouts') return readOrHold(command, rest);
  if (command !== 'adjust' && command !== 'resend') {
    throw new UsageError();
  }
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, allowNegative: false, options: { note: { type: 'string' }, 'gas-price-gwei': { type: 'string' } } });
  const gwei = values['gas-price-gwei'];
  if (command === 'resend' && (!UUID.test(positionals[0] ?? '') || (gwei !== undefined && !/^\d{1,6}(\.\d{1,9})?$/.test(gwei)))) {
    throw new UsageError();
  }
  // No admin endpoint adjusts a balance or signs a withdrawal again: refused beside a server rather than done on its data.
  const api = adminApiFrom();
  if (api) return walletViaApi(api, command, rest);
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    if (command === 'resend') {
      const refuse = async () => {
        throw new Error('not used by resend');
      };
      const chain = createChainWithdrawalService({ db: database.db, clock: systemClock, config, log: { info: () => {}, warn: (fields, message) => console.error(message, fields) }, requireSecondFactor: refuse, confirmPassword: refuse });
      const [whole = '0', fraction = ''] = (gwei ?? '0').split('.');
      const wei = BigInt(whole) * 10n ** 9n + BigInt(fraction.padEnd(9, '0') || '0');
      const done = await chain.resend(positionals[0]!, wei > 0n ? wei : undefined);
      console.log(`signed again: ${done.hash} at ${done.gasPrice} wei per gas (replaces ${done.replaced})`);
      return 0;
    }
    const done = await walletAdmin({ db: database.db, clock: systemClock }).adjust({ identifier: positionals[0], currency: positionals[1], amount: positionals[2], note: values.note });
    console.log(`${done.email}: ${done.currency} balance now ${done.balance} (minor units)`);
    return 0;
  } finally {
    await database.close();
  }
}

/** `balance`, `payouts` and `payouts hold`: the console's reads and hold, through the admin API or on the database. */
async function readOrHold(command: 'balance' | 'payouts', rest: string[]): Promise<number> {
  const api = adminApiFrom();
  if (api) return walletViaApi(api, command, rest);
  const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: { reason: { type: 'string' } } });
  const hold = command === 'payouts' && positionals[0] === 'hold' ? holdTarget(positionals.slice(1)) : undefined;
  if (!hold && positionals.length !== (command === 'balance' ? 1 : 0)) throw new UsageError();
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    const wallet = walletConsole({ db: database.db, clock: systemClock });
    if (command === 'balance') printAccounts(positionals[0]!, (await wallet.accounts(positionals[0]!)).accounts);
    else if (hold) printQueueItem(await wallet.hold(hold.userId, hold.currency));
    else {
      const { queue } = await wallet.payoutQueue();
      if (!queue.length) console.log('no payout waits');
      queue.forEach(printQueueItem);
    }
    return 0;
  } catch (error) {
    // The console's refusals (no such account, nothing due): the operator's to read, not a crash.
    if (error instanceof AppError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

runTool(USAGE, main);
