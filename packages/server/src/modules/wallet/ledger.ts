import { sql, type SQL } from 'drizzle-orm';
import type { WalletCurrency } from '@portal/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../platform/errors';

/** A drizzle transaction of the app's database. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Rows of a raw statement, whichever driver ran it (PGlite and node-postgres both answer `rows`). */
export async function rows<T>(tx: Tx | Database, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/** One line of an entry: `amount` minor units into (positive) or out of (negative) an account. */
export interface Line {
  account: { userId: string } | { system: string };
  amount: number;
}

/**
 * Writes an entry's lines in one transaction: each account's balance moves in one statement
 * (a person's never below zero: the debit is `... WHERE balance >= amount`, and the table's
 * CHECK backs it), and each posting keeps the balance after it. The lines must sum to zero;
 * the database checks that at commit too. Accounts are touched in a fixed order (system, then
 * people by id), so two transfers in opposite directions cannot deadlock.
 */
export async function post(tx: Tx, entryId: string, currency: WalletCurrency, lines: Line[]): Promise<Map<string, number>> {
  if (lines.reduce((sum, line) => sum + line.amount, 0) !== 0) throw new Error('wallet lines must sum to zero');
  const key = (line: Line) => ('system' in line.account ? `0:${line.account.system}` : `1:${line.account.userId}`);
  const balances = new Map<string, number>();
  for (const line of [...lines].sort((a, b) => key(a).localeCompare(key(b)))) {
    const owner = 'system' in line.account ? sql`system_name = ${line.account.system}` : sql`user_id = ${line.account.userId}`;
    const values = 'system' in line.account ? sql`(null, ${line.account.system}` : sql`(${line.account.userId}, null`;
    const target = 'system' in line.account ? sql`(system_name, currency) where system_name is not null` : sql`(user_id, currency) where user_id is not null`;
    let moved: { id: string; balance: string }[];
    if (line.amount < 0 && !('system' in line.account)) {
      moved = await rows(tx, sql`update wallet_accounts set balance = balance + ${line.amount}
        where ${owner} and currency = ${currency} and balance >= ${-line.amount} returning id, balance::text as balance`);
      if (moved.length === 0) throw new AppError('wallet.insufficient_balance');
    } else {
      moved = await rows(tx, sql`insert into wallet_accounts (user_id, system_name, currency, balance) values ${values}, ${currency}, ${line.amount})
        on conflict ${target} do update set balance = wallet_accounts.balance + excluded.balance returning id, balance::text as balance`);
    }
    const [account] = moved;
    await tx.execute(sql`insert into wallet_postings (entry_id, account_id, currency, amount, balance_after)
      values (${entryId}, ${account!.id}, ${currency}, ${line.amount}, ${account!.balance})`);
    balances.set(key(line), Number(account!.balance));
  }
  return balances;
}

/**
 * Adds `amount` to what the person sent today in the currency, in one atomic upsert that
 * refuses to pass `perDay` (parallel requests cannot both slip under it). False when over.
 */
export async function chargeDailyAllowance(tx: Tx, userId: string, currency: WalletCurrency, day: string, amount: number, perDay: number): Promise<boolean> {
  if (amount > perDay) return false;
  const allowed = await rows(
    tx,
    sql`insert into wallet_daily_usage (user_id, currency, day, sent) values (${userId}, ${currency}, ${day}, ${amount})
      on conflict (user_id, currency, day) do update set sent = wallet_daily_usage.sent + excluded.sent
      where wallet_daily_usage.sent + excluded.sent <= ${perDay} returning sent`,
  );
  return allowed.length > 0;
}

/**
 * Gives back `amount` of what the person sent on `day` (a transfer refused or refunded no longer
 * counts against that day's limit), in one statement inside the refund's transaction: never
 * below zero, and only as much as was charged.
 */
export async function releaseDailyAllowance(tx: Tx, userId: string, currency: WalletCurrency, day: string, amount: number): Promise<void> {
  await tx.execute(sql`update wallet_daily_usage set sent = sent - ${amount}
    where user_id = ${userId} and currency = ${currency} and day = ${day} and sent >= ${amount}`);
}

/**
 * Returns a pending transfer out of a person's wallet, inside the caller's transaction (which
 * holds `pending`, the row that says it is pending, locked): a reversing entry (`refundKind`,
 * completed) moves its amount from the system account it went to back to the person, the
 * original entry takes `outcome`, and the day's allowance is given back. Returns the reversing
 * entry's id, for the caller's row (whose status change, `... WHERE status = 'pending'`, makes it
 * happen once).
 */
export async function reverseEntry(
  tx: Tx,
  pending: { entry_id: string; user_id: string; amount_minor: string },
  reversal: { outcome: 'failed' | 'rejected'; refundKind: string; currency: WalletCurrency; from: string; note: string; day: string },
): Promise<string> {
  const userId = pending.user_id;
  const amount = Number(pending.amount_minor);
  const [refund] = await rows<{ id: string }>(
    tx,
    sql`insert into wallet_entries (kind, currency, status, note) values (${reversal.refundKind}, ${reversal.currency}, 'completed', ${reversal.note}) returning id`,
  );
  await tx.execute(sql`update wallet_entries set status = ${reversal.outcome} where id = ${pending.entry_id}`);
  await post(tx, refund!.id, reversal.currency, [
    { account: { system: reversal.from }, amount: -amount },
    { account: { userId }, amount },
  ]);
  await releaseDailyAllowance(tx, userId, reversal.currency, reversal.day, amount);
  return refund!.id;
}
