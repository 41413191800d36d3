import { and, eq, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { ChainContext, ConnectedChain } from './chain-context';
import type { ChainSigner } from './chain-signer';
import { CHAIN_OUTBOUND_ACCOUNT } from './chain-units';
import { reverseEntry, rows } from './ledger';
import { walletChainWithdrawals, walletEntries } from './tables';

/** Receipts followed per run. */
const FOLLOW_BATCH = 100;

/**
 * Follows sent withdrawals by their receipts: confirmed → completed; reverted → failed and a
 * reversing entry returns the amount, exactly once (`UPDATE ... WHERE status = 'pending'
 * RETURNING`); not mined → the same signed transaction is broadcast again.
 */
export function createChainReceipts({ db, clock, config, log }: ChainContext, chain: ConnectedChain, signer: ChainSigner) {
  const { broadcast, receiptOf } = signer;

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
      const refundId = await reverseEntry(tx, row, {
        outcome: 'failed',
        refundKind: 'withdrawal_refund',
        currency: 'WHC',
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

  /** Reads the receipts of sent withdrawals: confirmed → completed, reverted → failed and refunded; none yet → broadcast again. */
  async function followPending(): Promise<{ completed: number; failed: number }> {
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

  return { followPending };
}
