/**
 * Operator commands of the wallet, against the configured database (DATABASE_URL, or PGlite in DATA_DIR):
 *
 *   npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "Bank transfer 2026-11-20"
 *       money in (or out, with a leading -) from the system's adjustments account, as one ledger entry
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { walletAdmin } from './modules/wallet';
import { systemClock } from './platform/clock';

const USAGE = 'usage: npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "..." (see packages/server/src/wallet-admin.ts)';

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'adjust') {
    console.error(USAGE);
    return 1;
  }
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, allowNegative: false, options: { note: { type: 'string' } } });
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    const done = await walletAdmin({ db: database.db, clock: systemClock }).adjust({ identifier: positionals[0], currency: positionals[1], amount: positionals[2], note: values.note });
    console.log(`${done.email}: ${done.currency} balance now ${done.balance} (minor units)`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
