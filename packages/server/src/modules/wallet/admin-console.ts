import { sql } from 'drizzle-orm';
import type { WalletCurrency } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { createUserService } from '../users';
import { rows } from './ledger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 50;

interface QueueRow {
  user_id: string;
  email: string | null;
  currency: WalletCurrency;
  amount: string;
  rewards: number;
  held: number;
  payout_currency: WalletCurrency | null;
  oldest: Date | string;
}

interface AccountRow {
  id: string;
  user_id: string | null;
  system_name: string | null;
  currency: WalletCurrency;
  balance: string;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

const queueItem = (row: QueueRow) => ({
  user_id: row.user_id,
  email: row.email,
  currency: row.currency,
  amount_minor: row.amount,
  rewards: Number(row.rewards),
  held: Number(row.held),
  payout_method: row.payout_currency,
  oldest_at: iso(row.oldest),
});

const account = (row: AccountRow) => ({ id: row.id, user_id: row.user_id, system_name: row.system_name, currency: row.currency, balance_minor: row.balance });

/**
 * The wallet's side of the operators' console: the payout queue (researchers' approved rewards
 * not paid yet, per currency), holding them out of the monthly run, and reading a ledger
 * account's postings. Paying goes through the payout service (one claimed transaction).
 */
export function walletConsole(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  const users = createUserService(db);

  async function queue(filter?: { userId: string; currency: WalletCurrency }) {
    const where = filter ? sql`and r.user_id = ${filter.userId} and r.currency = ${filter.currency}` : sql``;
    return rows<QueueRow>(
      db,
      sql`select r.user_id, u.email, r.currency, sum(r.amount_minor)::text as amount, count(*)::int as rewards,
          count(r.held_at)::int as held, s.payout_currency, min(r.created_at) as oldest
        from wallet_rewards r
        left join users u on u.id = r.user_id
        left join researcher_settings s on s.user_id = r.user_id
        where r.status = 'approved' ${where}
        group by r.user_id, u.email, r.currency, s.payout_currency
        order by min(r.created_at), r.user_id, r.currency
        limit 500`,
    );
  }

  return {
    async payoutQueue() {
      return { queue: (await queue()).map(queueItem) };
    },

    /** Holds what waits (one statement: the monthly run's claim and this one cannot both take a reward). */
    async hold(userId: string, currency: WalletCurrency) {
      await db.execute(
        sql`update wallet_rewards set held_at = ${clock.now().toISOString()}
          where user_id = ${userId} and currency = ${currency} and status = 'approved' and held_at is null`,
      );
      const [row] = await queue({ userId, currency });
      if (!row) throw new AppError('admin.payout_nothing_due');
      return queueItem(row);
    },

    /** A person's accounts by email or id, or the system's (`system`). */
    async accounts(owner: string) {
      const value = owner.trim();
      if (value.toLowerCase() === 'system') {
        const found = await rows<AccountRow>(db, sql`select id, user_id, system_name, currency, balance::text as balance from wallet_accounts where system_name is not null order by system_name, currency`);
        return { accounts: found.map(account) };
      }
      const user = UUID.test(value) ? await users.findById(value.toLowerCase()) : value.includes('@') ? await users.findByEmail(value) : undefined;
      if (!user) throw new AppError('admin.account_not_found');
      const found = await rows<AccountRow>(db, sql`select id, user_id, system_name, currency, balance::text as balance from wallet_accounts where user_id = ${user.id} order by currency`);
      return { accounts: found.map(account) };
    },

    /** An account's postings, newest first, keyset-paged by posting id. */
    async entries(accountId: string, cursor: string | undefined) {
      const [found] = await rows<AccountRow>(db, sql`select id, user_id, system_name, currency, balance::text as balance from wallet_accounts where id = ${accountId}`);
      if (!found) throw new AppError('admin.not_found');
      const before = cursor ? sql`and p.id < ${Number(cursor)}` : sql``;
      const postings = await rows<{ id: string; entry_id: string; kind: string; status: string; note: string | null; amount: string; balance_after: string; created_at: Date | string }>(
        db,
        sql`select p.id::text as id, p.entry_id, e.kind, e.status, e.note, p.amount::text as amount, p.balance_after::text as balance_after, p.created_at
          from wallet_postings p join wallet_entries e on e.id = p.entry_id
          where p.account_id = ${accountId} ${before}
          order by p.id desc limit ${PAGE + 1}`,
      );
      const page = postings.slice(0, PAGE);
      return {
        account: account(found),
        entries: page.map((row) => ({
          posting_id: row.id,
          transaction_id: row.entry_id,
          kind: row.kind,
          status: row.status,
          note: row.note,
          amount_minor: row.amount,
          balance_after_minor: row.balance_after,
          created_at: iso(row.created_at),
        })),
        next_cursor: postings.length > PAGE ? page[page.length - 1]!.id : null,
      };
    },
  };
}

export type WalletConsole = ReturnType<typeof walletConsole>;
