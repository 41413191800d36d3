import { eq, sql } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, keccak256, parseTransaction, TransactionReceiptNotFoundError, type Address, type Hex } from 'viem';
import { shortError, type ChainContext, type ConnectedChain } from './chain-context';
import { toTokenUnits } from './chain-units';
import { rows } from './ledger';
import { walletChainWithdrawals } from './tables';

/** One signer at a time on every node: nonces are handed out in order (pg_advisory_xact_lock's key). */
const SIGNER_LOCK = 0x57484301;

/**
 * Signs withdrawals and broadcasts them: one signer at a time across nodes, nonces handed out
 * in order, the signed transaction and its hash stored before it is broadcast (a lost broadcast
 * is sent again as the same transaction, so a transfer is never sent twice).
 */
export function createChainSigner({ db, clock, config, log }: ChainContext, chain: ConnectedChain) {
  let chainId: number | undefined;

  /** Signs the oldest unsigned withdrawal and stores it (committed before any broadcast); null when none waits. */
  async function signNext(): Promise<{ id: string; hash: Hex; raw: Hex } | null> {
    const { account, client, token } = chain;
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
      await chain.client.sendRawTransaction({ serializedTransaction: raw });
      return true;
    } catch (error) {
      // "already known" and the like: the same transaction is on its way; anything else is retried.
      await db.update(walletChainWithdrawals).set({ lastError: shortError(error), updatedAt: clock.now() }).where(eq(walletChainWithdrawals.id, id));
      log.warn({ withdrawal: id, error: shortError(error) }, 'WHC withdrawal broadcast failed: sent again on the next run');
      return false;
    }
  }

  /** Signs and broadcasts every withdrawal not yet sent. */
  async function sendPending(): Promise<number> {
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
        return await chain.client.getTransactionReceipt({ hash });
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

  return { sendPending, broadcast, receiptOf, resend };
}

export type ChainSigner = ReturnType<typeof createChainSigner>;
