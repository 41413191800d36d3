import { and, eq } from 'drizzle-orm';
import { getAddress, isAddress, zeroAddress } from 'viem';
import { formatMoney, type ChainWithdrawal } from '@portal/contracts';
import type { Database } from '../../db/client';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { createUserService, type UserRow } from '../users';
import type { ChainContext, ConnectedChain } from './chain-context';
import { CHAIN_OUTBOUND_ACCOUNT, LEDGER_DECIMALS, toTokenUnits } from './chain-units';
import { chargeDailyAllowance, post } from './ledger';
import { toMinorUnits, type RequireSecondFactor } from './service';
import { walletAccounts, walletChainWithdrawals, walletEntries, walletKnownAddresses } from './tables';

/** The password check of the security module (modules/mfa's confirmPassword, bound in app.ts): throws auth.password_not_valid, throttled. */
export type ConfirmPassword = (user: UserRow, password: string) => Promise<void>;

export interface WithdrawalRequest {
  address: string;
  amount: string;
  idempotency_key: string;
  code?: string;
  recovery_code?: string;
  password?: string;
}

/**
 * A person's withdrawal request: checked (amount, EIP-55 address, limits, balance, a password
 * for a new address, the second factor), then in one transaction a pending ledger entry moving
 * the amount to the system's outbound account and the withdrawal row for the signer to send.
 * A retry with the same idempotency key answers the withdrawal already made.
 */
export function createWithdrawRequest(
  deps: ChainContext & { requireSecondFactor: RequireSecondFactor; confirmPassword: ConfirmPassword },
  chain: ConnectedChain | null,
  byEntry: (entryId: string) => Promise<ChainWithdrawal>,
) {
  const { db, clock, config, log } = deps;
  const users = createUserService(db);

  return async function withdraw(userId: string, request: WithdrawalRequest): Promise<ChainWithdrawal> {
    if (!chain) throw new AppError('wallet.chain_unavailable');
    const amount = toMinorUnits(request.amount, 'WHC');
    if (amount === null || toTokenUnits(amount, config.WHC_TOKEN_DECIMALS) === null) throw new AppError('wallet.amount_invalid');
    const typed = request.address.trim();
    // EIP-55: a mixed-case address must carry a valid checksum (a mistyped letter is caught).
    if (!isAddress(typed, { strict: true })) throw new AppError('wallet.address_invalid', {}, { fields: { address: 'Not a BEP20 address or a wrong checksum' } });
    const address = getAddress(typed);
    if (address === zeroAddress || address === chain.token) throw new AppError('wallet.address_invalid', {}, { fields: { address: 'Not an address to send WHC to' } });
    const perTransfer = config.WALLET_LIMIT_PER_TRANSFER.WHC * 10 ** LEDGER_DECIMALS;
    if (amount > perTransfer) {
      const limit = { limit: formatMoney(config.WALLET_LIMIT_PER_TRANSFER.WHC, 'WHC', 'en') };
      throw new AppError('wallet.over_transfer_limit', limit, limit);
    }
    const digest = sha256(JSON.stringify({ kind: 'withdrawal', currency: 'WHC', to: address, amount }));
    const findKey = async (from: Database | Parameters<Parameters<Database['transaction']>[0]>[0]) =>
      (
        await from
          .select({ id: walletEntries.id, digest: walletEntries.requestDigest })
          .from(walletEntries)
          .where(and(eq(walletEntries.initiatedBy, userId), eq(walletEntries.idempotencyKey, request.idempotency_key)))
      )[0];
    // A retry of a withdrawal already made answers it without another code (nothing is sent twice).
    const done = await findKey(db);
    if (done) {
      if (done.digest !== digest) throw new AppError('wallet.idempotency_conflict');
      return byEntry(done.id);
    }
    const sender = await users.findById(userId);
    if (!sender?.twoFactorMethod) throw new AppError('auth.two_factor_required');
    // Said before a code is spent on it (the debit below checks again, atomically).
    const [held] = await db
      .select({ balance: walletAccounts.balance })
      .from(walletAccounts)
      .where(and(eq(walletAccounts.userId, userId), eq(walletAccounts.currency, 'WHC')));
    if ((held?.balance ?? 0) < amount) throw new AppError('wallet.insufficient_balance');
    const [known] = await db
      .select({ address: walletKnownAddresses.address })
      .from(walletKnownAddresses)
      .where(and(eq(walletKnownAddresses.userId, userId), eq(walletKnownAddresses.address, address)));
    if (!known) {
      // Asked before the code is checked, so the code is not spent on a request that cannot go through.
      if (!request.password) throw new AppError('wallet.password_required', {}, { fields: { password: 'Enter your password' } });
      await deps.confirmPassword(sender, request.password);
    }
    await deps.requireSecondFactor(sender, { code: request.code, recovery_code: request.recovery_code });

    const perDay = config.WALLET_LIMIT_PER_DAY.WHC * 10 ** LEDGER_DECIMALS;
    const day = clock.now().toISOString().slice(0, 10);
    const entryId = await db.transaction(async (tx) => {
      const [entry] = await tx
        .insert(walletEntries)
        .values({ kind: 'withdrawal', currency: 'WHC', status: 'pending', initiatedBy: userId, idempotencyKey: request.idempotency_key, requestDigest: digest, destination: address, note: 'BEP20 withdrawal' })
        .onConflictDoNothing()
        .returning({ id: walletEntries.id });
      if (!entry) {
        const first = await findKey(tx);
        if (!first || first.digest !== digest) throw new AppError('wallet.idempotency_conflict');
        return first.id;
      }
      if (!(await chargeDailyAllowance(tx, userId, 'WHC', day, amount, perDay))) {
        const limit = { limit: formatMoney(config.WALLET_LIMIT_PER_DAY.WHC, 'WHC', 'en') };
        throw new AppError('wallet.over_daily_limit', limit, limit);
      }
      await post(tx, entry.id, 'WHC', [
        { account: { userId }, amount: -amount },
        { account: { system: CHAIN_OUTBOUND_ACCOUNT }, amount },
      ]);
      await tx.insert(walletChainWithdrawals).values({ entryId: entry.id, userId, address, amountMinor: amount, status: 'pending', createdAt: clock.now(), updatedAt: clock.now() });
      await tx.insert(walletKnownAddresses).values({ userId, address }).onConflictDoNothing();
      return entry.id;
    });
    log.info({ entry: entryId, amount }, 'WHC withdrawal accepted: pending until sent and confirmed');
    return byEntry(entryId);
  };
}
