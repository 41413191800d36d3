import { and, count, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import { currencies, currencyMinorDigits, formatMoney, type WalletCurrency, type WalletTransaction, type WalletTransactionStatus } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { walletAccounts, walletEntries, walletPostings } from './tables';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { createUserService, type UserRow } from '../users';
import { chargeDailyAllowance, post, type Line, type Tx } from './ledger';

export interface TransferRequest {
  to: string;
  amount: string;
  note?: string;
  idempotency_key: string;
  code?: string;
  recovery_code?: string;
}

/** The second step's check (modules/mfa, bound in app.ts): throws auth.code_invalid, throttled per user. */
export type RequireSecondFactor = (user: UserRow, proof: { code?: string; recovery_code?: string }) => Promise<void>;

export interface TransactionQuery {
  page: number;
  page_size: number;
  direction?: 'in' | 'out';
  status?: WalletTransactionStatus;
}

/** Where a transfer out of a person's wallet goes (see `send`). */
export interface Outgoing {
  /** What, beside the currency, amount and note, makes two requests the same transfer (their digest). */
  identity: Record<string, string>;
  entry: { kind: string; status: 'completed' | 'pending'; destination: string; note?: string };
  lines(amount: number): Line[];
  /** Called inside the transaction once the money has moved (the destination's own row). */
  record?(tx: Tx, transfer: { entryId: string; amount: number; note: string | null; day: string }): Promise<void>;
}

/** `"12.5"` in the currency's major units to integer minor units; null when not a positive amount it can hold. */
export function toMinorUnits(amount: string, currency: WalletCurrency): number | null {
  const digits = currencyMinorDigits[currency];
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match || (match[2] ?? '').length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}

/**
 * The wallet: balances on the double-entry ledger (ledger.ts) and transfers between accounts
 * of this portal. A transfer is one transaction: its entry (whose idempotency key is unique per
 * sender, so a retried request finds the first one instead of moving money again), the daily
 * allowance (one atomic upsert), the two balances and their postings.
 */
export function createWalletService(deps: {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'WALLET_LIMIT_PER_TRANSFER' | 'WALLET_LIMIT_PER_DAY'>;
  requireSecondFactor: RequireSecondFactor;
}) {
  const { db, clock, config } = deps;
  const users = createUserService(db);
  const limitMinor = (limits: Record<WalletCurrency, number>, currency: WalletCurrency) => limits[currency] * 10 ** currencyMinorDigits[currency];
  const limitText = (limits: Record<WalletCurrency, number>, currency: WalletCurrency) => formatMoney(limits[currency], currency, 'en');

  /** The sender's view of an entry: their posting of it. */
  async function transactionOf(entryId: string, userId: string): Promise<WalletTransaction> {
    const [row] = await db
      .select({ entry: walletEntries, posting: walletPostings })
      .from(walletPostings)
      .innerJoin(walletEntries, eq(walletEntries.id, walletPostings.entryId))
      .innerJoin(walletAccounts, eq(walletAccounts.id, walletPostings.accountId))
      .where(and(eq(walletPostings.entryId, entryId), eq(walletAccounts.userId, userId)));
    return toTransaction(row!.entry, row!.posting);
  }

  /**
   * What every transfer out of a person's wallet shares, wherever it goes (an account here, a
   * partner exchange): the amount and the per-transfer limit, WHC's second step (a retry of a
   * transfer already made answers it without spending another code), then one transaction with
   * the entry (its idempotency key unique per sender), the daily allowance (one atomic upsert),
   * the postings and what the destination records beside them. Returns the entry's id: the
   * first one's when the key was used before for the same request.
   */
  async function send(userId: string, currency: WalletCurrency, request: TransferRequest, destinationOf: () => Promise<Outgoing>): Promise<string> {
    const amount = toMinorUnits(request.amount, currency);
    if (amount === null) throw new AppError('wallet.amount_invalid');
    const outgoing = await destinationOf();
    if (amount > limitMinor(config.WALLET_LIMIT_PER_TRANSFER, currency)) {
      const limit = { limit: limitText(config.WALLET_LIMIT_PER_TRANSFER, currency) };
      throw new AppError('wallet.over_transfer_limit', limit, limit);
    }
    const note = request.note?.trim() || null;
    const digest = sha256(JSON.stringify({ currency, ...outgoing.identity, amount, note }));
    if (currency === 'WHC') {
      // The spec's permissions: moving WHC needs two-step verification on, and a current code every time.
      // A retry of a transfer already made answers it without spending another code.
      const [done] = await db
        .select({ id: walletEntries.id, digest: walletEntries.requestDigest })
        .from(walletEntries)
        .where(and(eq(walletEntries.initiatedBy, userId), eq(walletEntries.idempotencyKey, request.idempotency_key)));
      if (done) {
        if (done.digest !== digest) throw new AppError('wallet.idempotency_conflict');
        return done.id;
      }
      const sender = await users.findById(userId);
      if (!sender?.twoFactorMethod) throw new AppError('auth.two_factor_required');
      await deps.requireSecondFactor(sender, { code: request.code, recovery_code: request.recovery_code });
    }
    const perDay = limitMinor(config.WALLET_LIMIT_PER_DAY, currency);
    const day = clock.now().toISOString().slice(0, 10);

    return db.transaction(async (tx) => {
      const [entry] = await tx
        .insert(walletEntries)
        .values({ ...outgoing.entry, currency, initiatedBy: userId, idempotencyKey: request.idempotency_key, requestDigest: digest, note: note ?? outgoing.entry.note ?? null })
        .onConflictDoNothing()
        .returning({ id: walletEntries.id });
      if (!entry) {
        // This key moved money before (possibly a moment ago, in a parallel request that has committed since).
        const [first] = await tx
          .select({ id: walletEntries.id, digest: walletEntries.requestDigest })
          .from(walletEntries)
          .where(and(eq(walletEntries.initiatedBy, userId), eq(walletEntries.idempotencyKey, request.idempotency_key)));
        if (!first || first.digest !== digest) throw new AppError('wallet.idempotency_conflict');
        return first.id;
      }
      if (!(await chargeDailyAllowance(tx, userId, currency, day, amount, perDay))) {
        const limit = { limit: limitText(config.WALLET_LIMIT_PER_DAY, currency) };
        throw new AppError('wallet.over_daily_limit', limit, limit);
      }
      await post(tx, entry.id, currency, outgoing.lines(amount));
      await outgoing.record?.(tx, { entryId: entry.id, amount, note, day });
      return entry.id;
    });
  }

  return {
    async balances(userId: string) {
      const held = await db.select().from(walletAccounts).where(eq(walletAccounts.userId, userId));
      return { balances: currencies.map((currency) => ({ currency, minor: String(held.find((account) => account.currency === currency)?.balance ?? 0) })) };
    },

    async transactions(userId: string, currency: WalletCurrency, query: TransactionQuery) {
      const filters: SQL[] = [eq(walletAccounts.userId, userId), eq(walletAccounts.currency, currency)];
      if (query.direction) filters.push(query.direction === 'in' ? gt(walletPostings.amount, 0) : lt(walletPostings.amount, 0));
      if (query.status) filters.push(eq(walletEntries.status, query.status));
      const where = and(...filters);
      const base = () =>
        db
          .select({ entry: walletEntries, posting: walletPostings })
          .from(walletPostings)
          .innerJoin(walletAccounts, eq(walletAccounts.id, walletPostings.accountId))
          .innerJoin(walletEntries, eq(walletEntries.id, walletPostings.entryId));
      const [page, [total]] = await Promise.all([
        base().where(where).orderBy(desc(walletPostings.id)).limit(query.page_size).offset((query.page - 1) * query.page_size),
        db
          .select({ n: count() })
          .from(walletPostings)
          .innerJoin(walletAccounts, eq(walletAccounts.id, walletPostings.accountId))
          .innerJoin(walletEntries, eq(walletEntries.id, walletPostings.entryId))
          .where(where),
      ]);
      return { items: page.map((row) => toTransaction(row.entry, row.posting)), total: total?.n ?? 0, page: query.page, page_size: query.page_size };
    },

    async transfer(userId: string, currency: WalletCurrency, request: TransferRequest): Promise<WalletTransaction> {
      const entryId = await send(userId, currency, request, async () => {
        const recipient = await users.findByIdentifier(request.to);
        if (!recipient || !recipient.activatedAt || recipient.deletionRequestedAt || recipient.purgedAt) throw new AppError('wallet.recipient_not_found');
        if (recipient.id === userId) throw new AppError('wallet.recipient_self');
        return {
          identity: { to: recipient.id },
          entry: { kind: 'transfer', status: 'completed', destination: request.to.trim() },
          lines: (amount) => [
            { account: { userId }, amount: -amount },
            { account: { userId: recipient.id }, amount },
          ],
        };
      });
      return transactionOf(entryId, userId);
    },

    send,

    /**
     * Money into or out of a person's balance from the system's `adjustments` account (support
     * corrections, the operator's command, tests). Returns the entry id.
     */
    async adjust(userId: string, currency: WalletCurrency, minor: number, note: string): Promise<string> {
      if (!Number.isSafeInteger(minor) || minor === 0) throw new AppError('wallet.amount_invalid');
      return db.transaction(async (tx) => {
        const [entry] = await tx.insert(walletEntries).values({ kind: 'adjustment', currency, status: 'completed', note }).returning({ id: walletEntries.id });
        await post(tx, entry!.id, currency, [
          { account: { system: 'adjustments' }, amount: -minor },
          { account: { userId }, amount: minor },
        ]);
        return entry!.id;
      });
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;

function toTransaction(entry: typeof walletEntries.$inferSelect, posting: typeof walletPostings.$inferSelect): WalletTransaction {
  const incoming = posting.amount > 0;
  return {
    id: entry.id,
    currency: entry.currency as WalletCurrency,
    direction: incoming ? 'in' : 'out',
    amount: String(Math.abs(posting.amount)),
    balance: String(posting.balanceAfter),
    destination: incoming ? null : entry.destination,
    status: entry.status as WalletTransactionStatus,
    note: entry.note,
    created_at: entry.createdAt.toISOString(),
  };
}
