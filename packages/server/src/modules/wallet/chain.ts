import { desc, eq } from 'drizzle-orm';
import type { ChainWithdrawal, ChainWithdrawalStatus } from '@portal/contracts';
import { AppError } from '../../platform/errors';
import { connectChain, type ChainContext } from './chain-context';
import { createChainReceipts } from './chain-receipts';
import { createChainSigner } from './chain-signer';
import { createWithdrawRequest, type ConfirmPassword } from './chain-withdraw';
import type { RequireSecondFactor } from './service';
import { walletChainWithdrawals } from './tables';

export type { ChainLogger } from './chain-context';
export { CHAIN_OUTBOUND_ACCOUNT, toTokenUnits } from './chain-units';
export type { ConfirmPassword, WithdrawalRequest } from './chain-withdraw';

/** What a run of the sender and the follower did. */
export interface ChainRunResult {
  sent: number;
  completed: number;
  failed: number;
}

/**
 * WHC withdrawals to BEP20 addresses. A request debits the person at once, in one
 * transaction (chain-withdraw.ts); the signer sends it (chain-signer.ts); the follower reads
 * receipts and completes or refunds it exactly once (chain-receipts.ts). The key stays in the
 * connected chain's object: never logged, stored or answered.
 */
export function createChainWithdrawalService(deps: ChainContext & { requireSecondFactor: RequireSecondFactor; confirmPassword: ConfirmPassword }) {
  const { db } = deps;
  const chain = connectChain(deps.config);
  const signer = chain ? createChainSigner(deps, chain) : null;
  const receipts = chain && signer ? createChainReceipts(deps, chain, signer) : null;

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

  const sendPending = async (): Promise<number> => (signer ? signer.sendPending() : 0);
  const followPending = async (): Promise<{ completed: number; failed: number }> => (receipts ? receipts.followPending() : { completed: 0, failed: 0 });

  return {
    enabled: chain !== null,

    /** The signer's address (public; for the operator to fund with tokens and BNB). */
    signerAddress: chain?.account.address ?? null,

    withdraw: createWithdrawRequest(deps, chain, byEntry),

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
    /** Signs a sent, unmined withdrawal again with a higher gas price (chain-signer.ts). */
    async resend(id: string, gasPrice?: bigint) {
      if (!signer) throw new AppError('wallet.chain_unavailable');
      return signer.resend(id, gasPrice);
    },
  };
}

export type ChainWithdrawalService = ReturnType<typeof createChainWithdrawalService>;
