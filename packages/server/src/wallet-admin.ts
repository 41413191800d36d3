/**
 * Operator commands of the wallet, against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "Bank transfer 2026-11-20"
 *       money in (or out, with a leading -) from the system's adjustments account, as one ledger entry
 *   npm run wallet -- resend <withdrawal id> [--gas-price-gwei 5]
 *       a WHC withdrawal stuck unmined (too low a gas price): signed again with the same nonce and a
 *       higher gas price (at least 12.5 % more), stored, then broadcast; whichever signing the chain
 *       mines is the one the follower settles (one nonce: never two transfers)
 */
import { parseArgs } from 'node:util';
import { adminApiFrom, notInAdminApi } from './cli/admin-api';
import { runTool, UsageError } from './cli/run-tool';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { createChainWithdrawalService, walletAdmin } from './modules/wallet';
import { systemClock } from './platform/clock';

const USAGE =
  'usage: npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "..." | resend <withdrawal id> [--gas-price-gwei N] (see packages/server/src/wallet-admin.ts)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'adjust' && command !== 'resend') {
    throw new UsageError();
  }
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, allowNegative: false, options: { note: { type: 'string' }, 'gas-price-gwei': { type: 'string' } } });
  const gwei = values['gas-price-gwei'];
  if (command === 'resend' && (!UUID.test(positionals[0] ?? '') || (gwei !== undefined && !/^\d{1,6}(\.\d{1,9})?$/.test(gwei)))) {
    throw new UsageError();
  }
  // No admin endpoint adjusts a balance or signs a withdrawal again: refused beside a server rather than done on its data.
  if (adminApiFrom()) notInAdminApi(`npm run wallet -- ${command}`);
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

runTool(USAGE, main);
