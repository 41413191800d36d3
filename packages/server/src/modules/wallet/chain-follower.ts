import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { erc20Abi, getAddress } from 'viem';
import type { Database } from '../../db/client';
import { walletEntries } from './tables';
import type { Clock } from '../../platform/clock';
import { installPeriodicJob } from '../../platform/jobs';
import { post, rows, type Tx } from './ledger';
import { DEPOSIT_CURSOR, depositChain, ensureCursor, toLedgerUnits, type WhcDepositConfig, type WhcDepositLogger } from './whc-deposits';

/** The system account WHC deposits come from (the tokens sit on the deposit addresses, outside the ledger). */
export const CHAIN_INBOUND_ACCOUNT = 'whc_chain_inbound';
/** A transaction hash as the transactions list shows it in the note (the deposit list links the whole one). */
export const shortHash = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-8)}`;
const transferEvent = erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!;

/** What one poll did; `busy` when another node held the cursor. */
export interface FollowResult {
  busy: boolean;
  from: number | null;
  to: number | null;
  head: number | null;
  seen: number;
  credited: number;
  ignored: number;
  dropped: number;
}

/** A Transfer log to one of the deposit addresses, as it is stored. */
interface Found {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  userId: string;
  address: string;
  from: string;
  units: bigint;
}

/**
 * The WHC deposit follower. One poll, in one transaction that holds the cursor row
 * (`FOR UPDATE SKIP LOCKED`: a second node finds it taken and skips this round):
 *
 * 1. reads the chain's head and scans the token's Transfer logs from `next_block -
 *    WHC_CONFIRMATIONS` (the blocks not yet confirmed are scanned again, so a reorg shallower
 *    than the confirmations is seen; further back when a pending deposit is older) to at most
 *    WHC_DEPOSIT_SCAN_BLOCKS blocks on, never past the head;
 * 2. keeps the logs to an allocated deposit address (others are ignored), one row per
 *    (tx hash, log index) (a unique index): a new one pending, a known pending one moved to
 *    its block now; a pending one no longer in the scanned blocks was reorged away and goes;
 * 3. credits each pending deposit whose block has WHC_CONFIRMATIONS blocks (itself included):
 *    `UPDATE ... WHERE status = 'pending' RETURNING` then a ledger entry from the system's
 *    `whc_chain_inbound` account, so a deposit is credited once whatever runs again;
 * 4. moves the cursor past the scanned blocks and keeps the head seen (the confirmations shown).
 *
 * A crash before the commit leaves the cursor where it was: the next poll scans the same
 * blocks again and finds the same logs (nothing is credited twice).
 */
export function createWhcDepositFollower(deps: { db: Database; clock: Clock; config: WhcDepositConfig; log: WhcDepositLogger }) {
  const { db, clock, config, log } = deps;
  const chain = depositChain(config);
  const confirmations = config.WHC_CONFIRMATIONS;
  const idle = (busy: boolean): FollowResult => ({ busy, from: null, to: null, head: null, seen: 0, credited: 0, ignored: 0, dropped: 0 });

  /** The logs of the token's transfers in [from, to] to an allocated address. */
  async function transfersIn(tx: Tx, from: number, to: number): Promise<Found[]> {
    const logs = await chain!.client.getLogs({ address: chain!.token, event: transferEvent, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true });
    const recipients = [...new Set(logs.map((entry) => getAddress(entry.args.to)))];
    if (recipients.length === 0) return [];
    const owners = new Map(
      (
        await rows<{ user_id: string; address: string }>(
          tx,
          sql`select user_id, address from wallet_whc_deposit_addresses where address in (${sql.join(recipients.map((address) => sql`${address}`), sql`, `)})`,
        )
      ).map((row) => [row.address, row.user_id]),
    );
    const found: Found[] = [];
    for (const entry of logs) {
      const address = getAddress(entry.args.to);
      const userId = owners.get(address);
      // Tokens sent to an address nobody here owns are not a deposit.
      if (!userId || entry.removed || entry.transactionHash === null || entry.blockNumber === null || entry.blockHash === null || entry.logIndex === null) continue;
      found.push({ txHash: entry.transactionHash, logIndex: entry.logIndex, blockNumber: Number(entry.blockNumber), blockHash: entry.blockHash, userId, address, from: getAddress(entry.args.from), units: entry.args.value });
    }
    return found;
  }

  /** Credits one pending deposit, once. */
  async function credit(tx: Tx, id: string): Promise<boolean> {
    const entryId = randomUUID();
    const [deposit] = await rows<{ user_id: string; amount_minor: string; tx_hash: string }>(
      tx,
      sql`select user_id, amount_minor::text as amount_minor, tx_hash from wallet_whc_deposits where id = ${id} and status = 'pending'`,
    );
    if (!deposit) return false;
    await tx.insert(walletEntries).values({ id: entryId, kind: 'deposit', currency: 'WHC', status: 'completed', idempotencyKey: `whc-deposit:${id}`, note: `BEP20 deposit ${shortHash(deposit.tx_hash)}` });
    const [done] = await rows<{ id: string }>(
      tx,
      sql`update wallet_whc_deposits set status = 'completed', entry_id = ${entryId}, credited_at = ${clock.now().toISOString()}, updated_at = ${clock.now().toISOString()}
        where id = ${id} and status = 'pending' returning id`,
    );
    if (!done) throw new Error('deposit changed while the cursor was held');
    const amount = Number(deposit.amount_minor);
    await post(tx, entryId, 'WHC', [
      { account: { system: CHAIN_INBOUND_ACCOUNT }, amount: -amount },
      { account: { userId: deposit.user_id }, amount },
    ]);
    return true;
  }

  async function follow(): Promise<FollowResult> {
    if (!chain) return idle(false);
    await ensureCursor(db, chain, config);
    const result = await db.transaction(async (tx) => {
      const [cursor] = await rows<{ next_block: string }>(tx, sql`select next_block::text as next_block from wallet_chain_cursors where name = ${DEPOSIT_CURSOR} for update skip locked`);
      if (!cursor) return idle(true);
      const next = Number(cursor.next_block);
      const head = Number(await chain.client.getBlockNumber({ cacheTime: 0 }));
      const [oldest] = await rows<{ block: string | null }>(tx, sql`select min(block_number)::text as block from wallet_whc_deposits where status = 'pending'`);
      const from = Math.max(0, Math.min(next - confirmations, oldest?.block == null ? Infinity : Number(oldest.block)));
      const to = Math.min(head, from + config.WHC_DEPOSIT_SCAN_BLOCKS - 1);
      const now = clock.now().toISOString();
      if (to < from) {
        // The head is behind the blocks already scanned (another node answered, a reorg shortened it): nothing to do yet.
        await tx.execute(sql`update wallet_chain_cursors set head_block = ${head}, updated_at = ${now} where name = ${DEPOSIT_CURSOR}`);
        return { ...idle(false), head };
      }
      const found = await transfersIn(tx, from, to);
      let ignored = 0;
      for (const deposit of found) {
        const { minor, dust } = toLedgerUnits(deposit.units, config.WHC_TOKEN_DECIMALS);
        // Less than 10^-8 WHC, or more than a ledger amount holds: recorded, never credited.
        const status = minor === 0n || minor > BigInt(Number.MAX_SAFE_INTEGER) ? 'ignored' : 'pending';
        const [stored] = await rows<{ status: string; inserted: boolean }>(
          tx,
          sql`insert into wallet_whc_deposits (tx_hash, log_index, block_number, block_hash, user_id, address, from_address, amount_token, amount_minor, status, created_at, updated_at)
            values (${deposit.txHash}, ${deposit.logIndex}, ${deposit.blockNumber}, ${deposit.blockHash}, ${deposit.userId}, ${deposit.address}, ${deposit.from},
              ${deposit.units.toString()}, ${status === 'ignored' ? 0 : Number(minor)}, ${status}, ${now}, ${now})
            on conflict (tx_hash, log_index) do update set block_number = excluded.block_number, block_hash = excluded.block_hash, updated_at = excluded.updated_at
              where wallet_whc_deposits.status = 'pending'
            returning status, (xmax = 0) as inserted`,
        );
        if (stored?.inserted) {
          if (status === 'ignored') ignored += 1;
          const fields = { tx: deposit.txHash, log: deposit.logIndex, block: deposit.blockNumber, address: deposit.address, units: deposit.units.toString() };
          if (status === 'ignored') log.warn(fields, 'WHC deposit ignored: below 10^-8 WHC or above what the ledger holds');
          else log.info({ ...fields, dust: dust.toString() }, 'WHC deposit seen: pending until confirmed');
        }
      }
      // Pending deposits in the scanned blocks that the chain no longer has: reorged away.
      const kept = found.map((deposit) => sql`(${deposit.txHash}, ${deposit.logIndex})`);
      const dropped = await rows<{ tx_hash: string }>(
        tx,
        sql`delete from wallet_whc_deposits where status = 'pending' and block_number between ${from} and ${to}
          ${kept.length ? sql`and (tx_hash, log_index) not in (${sql.join(kept, sql`, `)})` : sql``} returning tx_hash`,
      );
      for (const gone of dropped) log.warn({ tx: gone.tx_hash }, 'WHC deposit no longer on chain (reorg): removed, nothing credited');
      // Confirmed: the block has `confirmations` blocks on it, itself included.
      const ready = await rows<{ id: string }>(
        tx,
        sql`select id from wallet_whc_deposits where status = 'pending' and block_number <= ${head - confirmations + 1} order by block_number, log_index`,
      );
      let credited = 0;
      for (const deposit of ready) if (await credit(tx, deposit.id)) credited += 1;
      await tx.execute(sql`update wallet_chain_cursors set next_block = greatest(next_block, ${to + 1}), head_block = ${head}, updated_at = ${now} where name = ${DEPOSIT_CURSOR}`);
      return { busy: false, from, to, head, seen: found.length, credited, ignored, dropped: dropped.length };
    });
    if (result.credited) log.info({ credited: result.credited, from: result.from, to: result.to }, 'WHC deposits credited');
    return result;
  }

  return { enabled: chain !== null, follow };
}

export type WhcDepositFollower = ReturnType<typeof createWhcDepositFollower>;

/** The follower's job: every WHC_CHAIN_POLL_SECONDS (0: not on this node), safe on several nodes (the cursor is claimed per poll). */
export function installDepositFollower(app: FastifyInstance, follower: WhcDepositFollower, intervalSeconds: number): void {
  const intervalMs = intervalSeconds * 1000;
  if (!follower.enabled) return;
  installPeriodicJob(app, { name: 'wallet-whc-deposits', intervalMs, initialDelayMs: Math.min(intervalMs, 5_000), run: () => follower.follow() });
}
