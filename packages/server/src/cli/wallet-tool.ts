/**
 * `npm run wallet` (usage in ../wallet-admin.ts): on the configured database, or, for what the
 * admin API does (balance, payouts, payouts hold), through a running server (wallet-via-api.ts).
 */
import { adminApiFrom } from './admin-api';
import { commandOf, parseOptions, UsageError, withDatabase, type OperatorTool, type ToolIo } from './run-tool';
import { holdTarget, printAccounts, printQueueItem, walletViaApi } from './wallet-via-api';
import { createChainWithdrawalService, walletAdmin, walletConsole } from '../modules/wallet';
import { systemClock } from '../platform/clock';

const USAGE =
  'usage: npm run wallet -- adjust <email|username> <USD|VND|WHC> <amount> --note "..." | resend <withdrawal id> [--gas-price-gwei N] | balance <email|user id|system> | payouts [hold <user id> <currency> [--reason "..."]] (see packages/server/src/wallet-admin.ts)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(argv: string[], io: ToolIo): Promise<number> {
  const { command, rest } = commandOf(argv, ['adjust', 'resend', 'balance', 'payouts']);
  if (command === 'balance' || command === 'payouts') return readOrHold(io, command, rest);
  if (command === 'adjust') {
    const { values, positionals } = parseOptions(amountsAsPositionals(rest), { note: { type: 'string' } }, { max: 3 });
    // No admin endpoint adjusts a balance: refused beside a server rather than done on its data.
    const api = adminApiFrom(io.env);
    if (api) return walletViaApi(io, api, command, rest);
    return withDatabase(io.env, async ({ db }) => {
      const done = await walletAdmin({ db, clock: systemClock }).adjust({ identifier: positionals[0], currency: positionals[1], amount: positionals[2], note: values.note });
      io.out(`${done.email}: ${done.currency} balance now ${done.balance} (minor units)`);
      return 0;
    });
  }
  const { values, positionals } = parseOptions(rest, { 'gas-price-gwei': { type: 'string' } }, { min: 1 });
  const gwei = values['gas-price-gwei'];
  if (!UUID.test(positionals[0]!) || (gwei !== undefined && !/^\d{1,6}(\.\d{1,9})?$/.test(gwei))) throw new UsageError();
  // No admin endpoint signs a withdrawal again: refused beside a server, likewise.
  const api = adminApiFrom(io.env);
  if (api) return walletViaApi(io, api, command, rest);
  return withDatabase(io.env, async ({ config, db }) => {
    const refuse = async () => {
      throw new Error('not used by resend');
    };
    const chain = createChainWithdrawalService({ db, clock: systemClock, config, log: { info: () => {}, warn: (fields, message) => io.err(`${message} ${JSON.stringify(fields)}`) }, requireSecondFactor: refuse, confirmPassword: refuse });
    const [whole = '0', fraction = ''] = (gwei ?? '0').split('.');
    const wei = BigInt(whole) * 10n ** 9n + BigInt(fraction.padEnd(9, '0') || '0');
    const done = await chain.resend(positionals[0]!, wei > 0n ? wei : undefined);
    io.out(`signed again: ${done.hash} at ${done.gasPrice} wei per gas (replaces ${done.replaced})`);
    return 0;
  });
}

/**
 * A negative amount (`-5`: money out) is an argument, not an option: parseArgs would refuse it
 * as an unknown option `-5`, so it goes after `--`. The amount is the last argument, so the
 * order of the arguments stays.
 */
function amountsAsPositionals(args: string[]): string[] {
  const isAmount = (arg: string) => /^-\d/.test(arg);
  if (args.includes('--') || !args.some(isAmount)) return args;
  return [...args.filter((arg) => !isAmount(arg)), '--', ...args.filter(isAmount)];
}

/** `balance`, `payouts` and `payouts hold`: the console's reads and hold, through the admin API or on the database. */
async function readOrHold(io: ToolIo, command: 'balance' | 'payouts', rest: string[]): Promise<number> {
  const api = adminApiFrom(io.env);
  if (api) return walletViaApi(io, api, command, rest);
  const { positionals } = parseOptions(rest, { reason: { type: 'string' } }, { max: 3 });
  const hold = command === 'payouts' && positionals[0] === 'hold' ? holdTarget(positionals.slice(1)) : undefined;
  if (!hold && positionals.length !== (command === 'balance' ? 1 : 0)) throw new UsageError();
  // The console's refusals (no such account, nothing due) are the operator's to read: exit 1 with the message (run-tool.ts).
  return withDatabase(io.env, async ({ db }) => {
    const wallet = walletConsole({ db, clock: systemClock });
    if (command === 'balance') printAccounts(io, positionals[0]!, (await wallet.accounts(positionals[0]!)).accounts);
    else if (hold) printQueueItem(io, await wallet.hold(hold.userId, hold.currency));
    else {
      const { queue } = await wallet.payoutQueue();
      if (!queue.length) io.out('no payout waits');
      for (const item of queue) printQueueItem(io, item);
    }
    return 0;
  });
}

export const walletTool: OperatorTool = { usage: USAGE, main };
