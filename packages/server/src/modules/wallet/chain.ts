import { and, desc, eq, sql } from 'drizzle-orm';
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  isAddress,
  keccak256,
  parseTransaction,
  TransactionReceiptNotFoundError,
  zeroAddress,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { formatMoney, type ChainWithdrawal, type ChainWithdrawalStatus } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { walletAccounts, walletChainWithdrawals, walletEntries, walletKnownAddresses } from './tables';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { createUserService, type UserRow } from '../users';
import { chargeDailyAllowance, post, reverseEntry, rows } from './ledger';
import { toMinorUnits, type RequireSecondFactor } from './service';

/** The system account withdrawn WHC waits in while its transfer is on its way. */
export const CHAIN_OUTBOUND_ACCOUNT = 'whc_chain_outbound';
/** The ledger keeps WHC with 8 decimals. */
const LEDGER_DECIMALS = 8;
/** One signer at a time on every node: nonces are handed out in order (pg_advisory_xact_lock's key). */
const SIGNER_LOCK = 0x57484301;
/** Receipts followed per run. */
const FOLLOW_BATCH = 100;

type ChainConfig = Pick<
  Config,
  | 'WHC_CHAIN_RPC_URL'
  | 'WHC_TOKEN_ADDRESS'
  | 'WHC_SIGNER_KEY'
  | 'WHC_TOKEN_DECIMALS'
  | 'WHC_CONFIRMATIONS'
  | 'WHC_TRANSFER_GAS'
  | 'WALLET_LIMIT_PER_TRANSFER'
  | 'WALLET_LIMIT_PER_DAY'
>;

/** The password check of the security module (modules/mfa's confirmPassword, bound in app.ts): throws auth.password_not_valid, throttled. */
export type ConfirmPassword = (user: UserRow, password: string) => Promise<void>;

/** What the chain withdrawals write to the log: ids, hashes and amounts, never the key. */
export interface ChainLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface WithdrawalRequest {
  address: string;
  amount: string;
  idempotency_key: string;
  code?: string;
  recovery_code?: string;
  password?: string;
}

/** What a run of the sender and the follower did. */
export interface ChainRunResult {
  sent: number;
  completed: number;
  failed: number;
}

/** An error's short text for the row's last_error (viem's shortMessage: no request bodies). */
const shortError = (error: unknown) => String((error as { shortMessage?: string }).shortMessage ?? (error as Error).message ?? error).slice(0, 300);

/** Ledger minor units (8 decimals) to the token's units; null when the token cannot hold the amount exactly. */
export function toTokenUnits(minor: number, decimals: number): bigint | null {
  if (decimals >= LEDGER_DECIMALS) return BigInt(minor) * 10n ** BigInt(decimals - LEDGER_DECIMALS);
  const step = 10n ** BigInt(LEDGER_DECIMALS - decimals);
  return BigInt(minor) % step === 0n ? BigInt(minor) / step : null;
}

/**
 * WHC withdrawals to BEP20 addresses. A request debits the person at once, in one
 * transaction: a pending ledger entry moving the amount to the system's `whc_chain_outbound`
 * account, and a withdrawal row. The sender then signs the token's `transfer` (one signer at a
 * time across nodes, nonces handed out in order), stores the signed transaction and its hash
 * before broadcasting it (a lost broadcast is sent again as the same transaction, so a transfer
 * is never sent twice), and the follower reads receipts: confirmed → completed; reverted →
 * failed and a reversing entry returns the amount, exactly once (`UPDATE ... WHERE status =
 * 'pending' RETURNING`). The key stays in this closure: never logged, stored or answered.
 */
export function createChainWithdrawalService(deps: {
  db: Database;
  clock: Clock;
  config: ChainConfig;
  log: ChainLogger;
  requireSecondFactor: RequireSecondFactor;
  confirmPassword: ConfirmPassword;
}) {
  const { db, clock, config, log } = deps;
  const users = createUserService(db);
  const chain =
    config.WHC_CHAIN_RPC_URL && config.WHC_TOKEN_ADDRESS && config.WHC_SIGNER_KEY
      ? (() => {
          const account = privateKeyToAccount(config.WHC_SIGNER_KEY as Hex);
          const client = createPublicClient({ transport: http(config.WHC_CHAIN_RPC_URL, { timeout: 15_000, retryCount: 1 }) });
          return { account, client, token: getAddress(config.WHC_TOKEN_ADDRESS) };
        })()
      : null;
  let chainId: number | undefined;

  const view = (row: typeof walletChainWithdrawals.$inferSelect): ChainWithdrawal => ({
    id: row.id,
    entry_id: row.entryId,
    currency: 'WHC',
    address: row.address,
    amount: String(row.amountMinor),
    status: row.status as ChainWithdrawalStatus,
    tx_hash: row.txHash,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  async function byEntry(entryId: string): Promise<ChainWithdrawal> {
    const [row] = await db.select().from(walletChainWithdrawals).where(eq(walletChainWithdrawals.entryId, entryId));
    if (!row) throw new AppError('wallet.idempotency_conflict');
    return view(row);
  }

  /** Signs the oldest unsigned withdrawal and stores it (committed before any broadcast); null when none waits. */
  async function signNext(): Promise<{ id: string; hash: Hex; raw: Hex } | null> {
    const { account, client, token } = chain!;
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNER_LOCK})`);
      const [row] = await rows<{ id: string; address: string; amount_minor: string }>(
        tx,
        sql`select id, address, amount_minor::text as amount_minor from wallet_chain_withdrawals
          where status = 'pending' and tx_hash is null order by created_at limit 1 for update skip locked`,
      );
      if (!row) return null;
      chainId ??= await client.getChainId();
      const [used] = await rows<{ next: string }>(tx, sql`select coalesce(max(nonce) + 1, 0)::text as next from wallet_chain_withdrawals where signer = ${account.address}`);
      const onChain = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const nonce = Math.max(onChain, Number(used?.next ?? 0));
      const amount = toTokenUnits(Number(row.amount_minor), config.WHC_TOKEN_DECIMALS)!;
      const raw = await account.signTransaction({
        type: 'legacy',
        chainId,
        nonce,
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [row.address as Address, amount] }),
        gas: BigInt(config.WHC_TRANSFER_GAS),
        gasPrice: await client.getGasPrice(),
        value: 0n,
      });
      const hash = keccak256(raw);
      await tx
        .update(walletChainWithdrawals)
        .set({ txHash: hash, rawTx: raw, signer: account.address, nonce, attempts: sql`${walletChainWithdrawals.attempts} + 1`, updatedAt: clock.now() })
        .where(eq(walletChainWithdrawals.id, row.id));
      return { id: row.id, hash, raw };
    });
  }

  /** Broadcasts a signed transaction; a failure is kept on the row and the follower sends it again. */
  async function broadcast(id: string, raw: Hex): Promise<boolean> {
    try {
      await chain!.client.sendRawTransaction({ serializedTransaction: raw });
      return true;
    } catch (error) {
      // "already known" and the like: the same transaction is on its way; anything else is retried.
      await db.update(walletChainWithdrawals).set({ lastError: shortError(error), updatedAt: clock.now() }).where(eq(walletChainWithdrawals.id, id));
      log.warn({ withdrawal: id, error: shortError(error) }, 'WHC withdrawal broadcast failed: sent again on the next run');
      return false;
    }
  }

  /** Marks a confirmed withdrawal completed (once). */
  async function complete(id: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [done] = await rows<{ entry_id: string }>(
        tx,
        sql`update wallet_chain_withdrawals set status = 'completed', updated_at = ${clock.now().toISOString()} where id = ${id} and status = 'pending' returning entry_id`,
      );
      if (!done) return false;
      await tx.update(walletEntries).set({ status: 'completed' }).where(eq(walletEntries.id, done.entry_id));
      return true;
    });
  }

  /** Marks a reverted withdrawal failed and returns its amount (and the day's allowance) with a reversing entry, exactly once. */
  async function refund(id: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [row] = await rows<{ entry_id: string; user_id: string; amount_minor: string; address: string; day: string }>(
        tx,
        sql`select entry_id, user_id, amount_minor::text as amount_minor, address, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day
          from wallet_chain_withdrawals where id = ${id} and status = 'pending' for update`,
      );
      if (!row) return false;
      const refundId = await reverseEntry(tx, {
        entryId: row.entry_id,
        outcome: 'failed',
        refundKind: 'withdrawal_refund',
        currency: 'WHC',
        userId: row.user_id,
        amount: Number(row.amount_minor),
        from: CHAIN_OUTBOUND_ACCOUNT,
        note: `Returned: the transfer to ${row.address} failed on chain`,
        day: row.day,
      });
      const [failed] = await rows<{ id: string }>(
        tx,
        sql`update wallet_chain_withdrawals set status = 'failed', refund_entry_id = ${refundId}, updated_at = ${clock.now().toISOString()}
          where id = ${id} and status = 'pending' returning id`,
      );
      if (!failed) throw new Error('withdrawal changed while locked');
      return true;
    });
  }

  /** Signs and broadcasts every withdrawal not yet sent. */
  async function sendPending(): Promise<number> {
    if (!chain) return 0;
    let sent = 0;
    for (let signed = await signNext(); signed; signed = await signNext()) {
      log.info({ withdrawal: signed.id, tx: signed.hash }, 'WHC withdrawal signed');
      if (await broadcast(signed.id, signed.raw)) sent += 1;
    }
    return sent;
  }

  /** The receipt of whichever signing of a withdrawal the chain mined (one nonce: at most one of them); null when none is mined. */
  async function receiptOf(hashes: Hex[]) {
    for (const hash of hashes) {
      try {
        return await chain!.client.getTransactionReceipt({ hash });
      } catch (error) {
        if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      }
    }
    return null;
  }

  /**
   * Signs a sent, unmined withdrawal again with the same nonce and a higher gas price (the
   * operator's `npm run wallet -- resend`, for a transfer stuck behind too low a price): at least
   * `gasPrice` wei, and at least 12.5 % above the price it had (nodes take a replacement only
   * above 10 %). The new signing is stored before it is broadcast and the old hash kept: the chain
   * mines one of them (one nonce), and the follower settles whichever it is.
   */
  async function resend(id: string, gasPrice?: bigint): Promise<{ hash: Hex; gasPrice: bigint; replaced: Hex }> {
    if (!chain) throw new AppError('wallet.chain_unavailable');
    const { account, client } = chain;
    const signed = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNER_LOCK})`);
      const [row] = await tx.select().from(walletChainWithdrawals).where(eq(walletChainWithdrawals.id, id)).for('update');
      if (!row) throw new Error(`no WHC withdrawal ${id}`);
      if (row.status !== 'pending' || !row.rawTx || row.nonce === null) throw new Error(`withdrawal ${id} is ${row.status}${row.rawTx ? '' : ' and not signed yet'}: nothing to resend`);
      if (row.signer !== account.address) throw new Error(`withdrawal ${id} was signed by ${row.signer}, not by the configured signer`);
      if (await receiptOf([row.txHash as Hex, ...(row.replacedTxHashes as Hex[])])) throw new Error(`withdrawal ${id} is mined already: the follower settles it`);
      const before = parseTransaction(row.rawTx as Hex);
      const bumped = ((before.gasPrice ?? 0n) * 1125n) / 1000n + 1n;
      const price = gasPrice && gasPrice > bumped ? gasPrice : bumped;
      chainId ??= await client.getChainId();
      const raw = await account.signTransaction({ type: 'legacy', chainId, nonce: row.nonce, to: before.to!, data: before.data!, gas: before.gas!, gasPrice: price, value: 0n });
      const hash = keccak256(raw);
      await tx
        .update(walletChainWithdrawals)
        .set({ txHash: hash, rawTx: raw, replacedTxHashes: sql`array_append(${walletChainWithdrawals.replacedTxHashes}, ${row.txHash})`, attempts: sql`${walletChainWithdrawals.attempts} + 1`, updatedAt: clock.now() })
        .where(eq(walletChainWithdrawals.id, id));
      return { hash, raw, gasPrice: price, replaced: row.txHash as Hex };
    });
    log.info({ withdrawal: id, tx: signed.hash, replaced: signed.replaced }, 'WHC withdrawal signed again with a higher gas price');
    await broadcast(id, signed.raw);
    return { hash: signed.hash, gasPrice: signed.gasPrice, replaced: signed.replaced };
  }

  /** Reads the receipts of sent withdrawals: confirmed → completed, reverted → failed and refunded; none yet → broadcast again. */
  async function followPending(): Promise<{ completed: number; failed: number }> {
    if (!chain) return { completed: 0, failed: 0 };
    const pending = await db
      .select({ id: walletChainWithdrawals.id, txHash: walletChainWithdrawals.txHash, rawTx: walletChainWithdrawals.rawTx, replaced: walletChainWithdrawals.replacedTxHashes })
      .from(walletChainWithdrawals)
      .where(and(eq(walletChainWithdrawals.status, 'pending'), sql`${walletChainWithdrawals.txHash} is not null`))
      .orderBy(walletChainWithdrawals.createdAt)
      .limit(FOLLOW_BATCH);
    let completed = 0;
    let failed = 0;
    if (pending.length === 0) return { completed, failed };
    const head = await chain.client.getBlockNumber({ cacheTime: 0 });
    for (const withdrawal of pending) {
      const receipt = await receiptOf([withdrawal.txHash as Hex, ...(withdrawal.replaced as Hex[])]);
      if (!receipt) {
        // Not mined (a lost broadcast, a dropped transaction): the same signed transaction again.
        await broadcast(withdrawal.id, withdrawal.rawTx as Hex);
        continue;
      }
      if (head - receipt.blockNumber + 1n < BigInt(config.WHC_CONFIRMATIONS)) continue;
      if (receipt.status === 'success') {
        if (await complete(withdrawal.id)) {
          completed += 1;
          log.info({ withdrawal: withdrawal.id, tx: withdrawal.txHash }, 'WHC withdrawal confirmed: completed');
        }
      } else if (await refund(withdrawal.id)) {
        failed += 1;
        log.warn({ withdrawal: withdrawal.id, tx: withdrawal.txHash }, 'WHC withdrawal reverted on chain: failed, amount returned');
      }
    }
    return { completed, failed };
  }

  return {
    enabled: chain !== null,

    /** The signer's address (public; for the operator to fund with tokens and BNB). */
    signerAddress: chain?.account.address ?? null,

    async withdraw(userId: string, request: WithdrawalRequest): Promise<ChainWithdrawal> {
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
    },

    async list(userId: string): Promise<{ enabled: boolean; items: ChainWithdrawal[] }> {
      const items = await db.select().from(walletChainWithdrawals).where(eq(walletChainWithdrawals.userId, userId)).orderBy(desc(walletChainWithdrawals.createdAt)).limit(20);
      return { enabled: chain !== null, items: items.map(view) };
    },

    /** One run of the job: send, then follow. */
    async run(): Promise<ChainRunResult> {
      const sent = await sendPending();
      return { sent, ...(await followPending()) };
    },

    sendPending,
    followPending,
    resend,
  };
}

export type ChainWithdrawalService = ReturnType<typeof createChainWithdrawalService>;
